// TraceNames: what a report reads of a trace to name and place what it shows: the interned strings,
// the threads (thread and stream labels) and the events' columns (an event's name, thread, device,
// times). A report that takes it reads nothing else: not the memory records, flows, stacks, device
// args, metadata or diagnostics. It is a view: what it was made from must outlive it. A Trace
// converts to it implicitly, as a std::string does to a std::string_view, so a caller passes the
// trace it has.
#pragma once

#include <string_view>
#include <vector>

#include "profana/base/ids.h"
#include "profana/base/string_pool.h"
#include "profana/model/trace.h"

namespace profana {

struct TraceNames {
  TraceNames(const Trace& t)  // NOLINT(google-explicit-constructor): a view, as above
      : strings(t.strings), threads(t.threads), events(t.events) {}

  std::string_view str(StringId id) const { return strings.Get(id); }

  const StringPool& strings;
  const std::vector<ThreadInfo>& threads;
  const EventTable& events;
};

}  // namespace profana
