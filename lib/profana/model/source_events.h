// Where each event of a Trace was written in its Chrome-trace JSON file, and the few args only
// one analysis reads. The critical path overlay writes the file back with marks added to some
// events and every other byte kept (so every args field survives), and the critical path reads
// the CUDA event a synchronisation waited on (args "wait_on_cuda_event_record_corr_id" and
// "wait_on_stream" of Kineto's cuda_sync events), which the event columns do not hold. Filled by
// importers/chrome_json/source_scan.h from the same bytes the trace was imported from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "profana/base/ids.h"
#include "profana/model/trace.h"

namespace profana {

struct SourceEvent {
  size_t begin = 0, end = 0;  // the element's text: its '{' to one past its '}'
  // One past the '{' of its "args" object; 0 when it has none.
  size_t args_open = 0;
  bool args_empty = false;          // "args": {}
  EventId event = EventId::None();  // the Trace event it became; None for other phases
};

struct SourceEvents {
  std::vector<SourceEvent> elements;  // the traceEvents array, in file order
  size_t events_close = 0;            // the position of the ']' that closes traceEvents
  // Per Trace event: its element (index into elements), or UINT32_MAX when none was matched.
  std::vector<uint32_t> element_of;
  // Per Trace event: the cudaEventRecord's correlation id a cuda_sync event waits on, and the
  // stream it was recorded on (kNoId and -1 when absent).
  std::vector<int64_t> wait_record;
  std::vector<int32_t> wait_stream;

  bool empty() const { return elements.empty(); }
  int64_t WaitRecord(EventId e) const {
    return e.value < wait_record.size() ? wait_record[e.value] : kNoId;
  }
  int32_t WaitStream(EventId e) const {
    return e.value < wait_stream.size() ? wait_stream[e.value] : -1;
  }
};

}  // namespace profana
