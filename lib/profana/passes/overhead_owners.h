// Which op's device work PyTorch 2.x lists under each of Kineto's overhead events ("Activity
// Buffer Request", "Buffer Flush"). Nothing links an overhead event (libkineto's OverheadActivity
// has no correlation id and no linked activity), so PyTorch's C++ tree (collection.cpp build_tree)
// puts it, at its own time, on the stack of the thread that stopped the profiler, among that
// thread's ops, annotations and Python frames and the Kineto events nothing links: runtime calls
// without an op, GPU user annotations (at their device times). It then takes the id of the event
// under it (kinetoEventCorrelationID, past other overhead events), and _parse_kineto_results
// credits it every device activity linked to that id:
//  * a cpu_op's External id: that op's device work, which the op's row then counts twice;
//  * a runtime call's own correlation id (CUPTI's counter): the work of an op whose External id
//    (PyTorch's counter) is the same number, a coincidence repeated under --link pytorch only;
//  * a user annotation's or a GPU user annotation's id, a Python frame (id 0), nothing: none.
// The stack holds the calls of the stop thread's process only; GPU user annotations are taken
// from every device. Equal starts are in PyTorch's list order: ops and annotations, then Python
// frames, then Kineto's events. Device work that neither a link nor a flow ties to a launch is
// on the stack in PyTorch too; it is left out here (it names no op).
// Internal to passes/.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/base/id_index.h"
#include "profana/model/trace.h"

namespace profana::passes {

// Kineto's JSON writer draws a GPU user annotation wider than the span PyTorch's FunctionEvent has
// (libkineto output_json.cpp): 1 ns earlier and 1 ns later in files with fractional microseconds,
// 1 us earlier in integer-microsecond files. What to add to the file's start and end to get
// PyTorch's span back: zero for traces that no Chrome-trace JSON writer wrote.
struct AnnotationCorrection {
  int64_t start_ns = 0, end_ns = 0;
};

struct OverheadOp {
  uint32_t overhead = 0;     // trace event
  uint32_t op = UINT32_MAX;  // trace event of the cpu_op whose work it lists; none: UINT32_MAX
  bool coincidence = false;  // the id was a runtime call's correlation id
};

// `placement_of`: KinetoPlacement::of, which marks the overhead events; `links`: whether the trace
// records links (TraceRecordsLinks), without which no call is known to be unlinked;
// `op_by_external_id` indexes the trace's cpu_ops; `fix`: the GPU user annotations' correction.
// In overhead event order.
std::vector<OverheadOp> FindOverheadOps(const Trace& trace, ThreadId stop_thread,
                                        const std::vector<uint8_t>& placement_of, bool links,
                                        const IdIndex& op_by_external_id,
                                        const AnnotationCorrection& fix);

}  // namespace profana::passes
