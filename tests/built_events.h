// Hand-built traces for unit tests: one duration event at a time through TraceBuilder.
#pragma once

#include <cstdint>

#include "profana/model/trace_builder.h"

namespace profana::test {

// A duration event of the given kind on one thread; start and end in ns.
inline void Add(TraceBuilder* b, ThreadId thread, const char* name, ActivityKind kind,
                int64_t start, int64_t end, int64_t correlation = kNoId,
                int64_t external_id = kNoId) {
  TraceBuilder::Event e;
  e.trace_name = b->Intern(name);
  e.kind = kind;
  e.thread = thread;
  e.start_ns = start;
  e.end_ns = end;
  e.correlation = correlation;
  e.external_id = external_id;
  b->AddEvent(e);
}

}  // namespace profana::test
