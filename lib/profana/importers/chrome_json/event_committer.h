// Turns staged Chrome-trace events into model rows through TraceBuilder, in file order: the
// phase rules (X, B/E, instants and [memory], flows, metadata), the category -> kind table and
// every per-event diagnostic live here, so the whole-file and the streaming importer share them.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/importers/chrome_json/event_parser.h"
#include "profana/model/trace_builder.h"

namespace profana::json {

class EventCommitter {
 public:
  explicit EventCommitter(TraceBuilder* builder) : b_(builder) {}
  // index: the event's position in the events array; offset: its byte offset in the text.
  void Commit(const StagedEvent& s, int64_t index, uint64_t offset);

 private:
  ActivityKind Kind(StringId cat, uint64_t offset, int64_t index);

  TraceBuilder* b_;
  std::vector<int8_t> kind_cache_;  // category id -> ActivityKind + 1 (0 = not yet looked up)
  StringId memory_name_;
  StringId process_name_key_, thread_name_key_;
};

}  // namespace profana::json
