// BuildMemoryTimeline: replays a trace's [memory] records (profile_memory=True) per device, the
// way PyTorch's _memory_profiler builds its timeline in the live process, from what a file keeps.
// Pure function of the trace and its FunctionEvents; prints nothing. Rules: docs/memory.md.
//
//  * Records are replayed in time order (a stable sort by timestamp; Kineto writes them per
//    thread buffer, not in time order). The running total per device is the sum of Bytes, which
//    is what the allocator's "Total Allocated" tracks, up to the memory allocated before the
//    trace (a constant offset, measured and reported per device).
//  * Blocks pair an allocation with its free by (device, address) in a flat hash map. A free of
//    an address never allocated inside the trace is pre-existing memory (the reference's
//    PREEXISTING action): the block is live from the trace's first record until that free.
//  * Each record belongs to the innermost CPU FunctionEvent on its own thread whose closed
//    interval [start, end] holds it (one stack sweep per thread, linear).
//  * Categories stand in for the reference's tensor identities with the ops that allocated and
//    freed each block, its life relative to forward, backward and the optimizer step, and the
//    input sizes record_shapes kept (memory_categories.h).
//  * Memory allocated before the trace is the allocator's Total Allocated less the replay; the
//    parameters and optimizer state in it are identified where the trace shows them
//    (memory_before_trace.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/int_sum.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

// Records claiming more than this (256 TiB) are damaged: counted as out_of_range and ignored.
constexpr int64_t kMaxRecordBytes = int64_t{1} << 48;
inline bool RecordBytesInRange(int64_t b) { return b <= kMaxRecordBytes && b >= -kMaxRecordBytes; }

// In the reference's _CATEGORY_TO_INDEX order, so an index here is the index its raw export
// writes (and index + 1 its sizes column).
// The rules: docs/memory.md, "Categories".
enum class MemoryCategory : uint8_t {
  kParameter,       // before the trace: as large as one set of gradients
  kOptimizerState,  // allocated inside Optimizer.step#..., still live when that step ends
  kInput,           // allocated in the forward pass by an op copying from the host
  kTemporary,       // allocated and freed inside one operator
  kActivation,      // otherwise allocated in the forward pass
  kGradient,        // allocated in backward and outliving it, or freed by Optimizer.zero_grad#...
  kAutogradDetail,  // allocated and freed in backward
  kUnknown,         // none of the above, no tensor (no op input of its size), no Addr
};
constexpr int kMemoryCategories = 8;
const char* MemoryCategoryName(MemoryCategory c);  // "PARAMETER", ..., "Unknown"

// The reference's Action values (its raw export writes these numbers).
enum class MemoryAction : uint8_t {
  kPreexisting = 1,
  kCreate = 2,
  kIncrementVersion = 3,
  kDestroy = 4
};

struct MemoryDevice {
  int8_t type = 0;  // c10::DeviceType: 0 CPU, 1 CUDA, 6 HIP, ...
  int16_t id = -1;
  std::string name;  // "cpu", "cuda:0" (torch.device's spelling)
};

// Counted problems of the memory records. Each is also a reason a number may be off.
struct MemoryCounters {
  uint64_t records = 0;
  uint64_t allocations = 0;
  uint64_t frees = 0;
  uint64_t zero_byte_records = 0;       // Bytes == 0: ignored
  uint64_t out_of_range = 0;            // |Bytes| above 2^48 (256 TiB): ignored
  uint64_t without_addr = 0;            // no Addr (Kineto before 2021-09): cannot be paired
  uint64_t preexisting_frees = 0;       // free of an address never allocated in the trace
  uint64_t double_frees = 0;            // free of an address already freed, not reallocated
  uint64_t size_mismatches = 0;         // free whose size differs from its allocation's
  uint64_t alloc_on_live_address = 0;   // allocation of an address still live (missed free)
  uint64_t address_on_two_devices = 0;  // allocation or free of an address live on another device
  uint64_t negative_totals = 0;         // Total Allocated / Total Reserved below zero
  uint64_t without_op = 0;              // inside no CPU op on its thread
};

// Agreement of the replayed running total with the recorded Total Allocated, per device.
struct TotalAllocatedCheck {
  uint64_t compared = 0;            // records carrying Total Allocated
  int64_t offset = 0;               // Total Allocated - replayed total at the first such record
  uint64_t agreeing = 0;            // records where the difference equals `offset`
  int64_t first_disagreement = -1;  // time-order position, or -1
};

// Memory live when a device's first record was written, as far as the trace tells it (bytes).
// The timeline draws the parts it identifies (PARAMETER, OPTIMIZER_STATE, and the blocks the trace
// frees in their categories) and leaves `unidentified` to a band of its own: together with the
// replay they add up to the allocator's Total Allocated.
struct MemoryBeforeTrace {
  int64_t bytes = kNoId;         // Total Allocated less the replay; kNoId: none recorded
  int64_t freed_in_trace = 0;    // of it, the blocks the trace frees (pre-existing blocks)
  int64_t parameters = 0;        // never freed in the trace: as large as one set of gradients
  int64_t optimizer_state = 0;   // never freed in the trace: the optimizer's state per parameter
  int64_t unidentified = kNoId;  // the rest; kNoId without Total Allocated
  int64_t identified() const { return parameters + optimizer_state; }
};

struct MemoryDeviceSummary {
  uint64_t records = 0;
  uint64_t without_addr = 0;            // of them; leaks and pre-existing memory need Addr
  int64_t preexisting_bytes = 0;        // sum of pre-existing frees: the timeline's starting level
  int64_t peak_bytes = 0;               // max of preexisting_bytes + running total
  int64_t peak_pos = -1;                // time-order position of the record that reached it
  int64_t trace_peak_bytes = 0;         // max of what blocks allocated in the trace hold
  int64_t trace_peak_pos = -1;          // time-order position of the record that reached it
  int64_t max_total_allocated = kNoId;  // as recorded
  int64_t max_allocated_pos = -1;
  int64_t max_total_reserved = kNoId;
  int64_t max_reserved_pos = -1;
  int64_t first_ts_ns = 0;
  int64_t last_ts_ns = 0;
  TotalAllocatedCheck total_allocated;
  MemoryBeforeTrace before_trace;
  // The timeline's peak as drawn: the replay's peak and the identified memory from before the
  // trace.
  int64_t plotted_peak_bytes() const { return SatAdd(peak_bytes, before_trace.identified()); }
};

struct MemoryBlock {
  uint32_t device = 0;
  int64_t addr = kNoId;
  int64_t bytes = 0;
  int64_t alloc_pos = -1;  // time-order position; -1 = before the trace (pre-existing)
  int64_t free_pos = -1;   // -1 = never freed inside the trace
  MemoryCategory category = MemoryCategory::kUnknown;
};

struct MemoryTimeline {
  std::vector<MemoryDevice> devices;
  // Per record, in time order (position p): the record's index in trace.memory, its device,
  // the innermost CPU FunctionEvent holding it (None() = none), its block (-1 = none), and the
  // device's level after it (pre-existing bytes + running total).
  std::vector<uint32_t> order;
  std::vector<uint32_t> device;
  std::vector<FnEventId> op;
  std::vector<int32_t> block;
  std::vector<int64_t> level;
  std::vector<MemoryBlock> blocks;
  std::vector<MemoryDeviceSummary> summary;  // per device
  MemoryCounters counters;

  size_t size() const { return order.size(); }
};

MemoryTimeline BuildMemoryTimeline(const Trace& trace, const FunctionEventList& events);

// Finds a device by torch.device spelling ("cuda:0", "cpu", "cuda" = cuda:0), or a bare index
// ("0") when one accelerator has it. -1 if absent or ambiguous.
int FindMemoryDevice(const MemoryTimeline& t, const std::string& name);

// export_memory_timeline's [times, sizes]: times in microseconds (int(ns / 1000)), one sizes row
// of 1 + kMemoryCategories bytes per distinct time (column 0 unused, as the reference's). Memory
// from before the trace that the trace identifies is in it from the first time, as the
// reference's pre-existing tensors are; the unidentified rest is not (MemoryBeforeTrace).
struct CoalescedTimeline {
  std::vector<int64_t> times_us;
  std::vector<std::array<int64_t, kMemoryCategories + 1>> sizes;
};
CoalescedTimeline CoalesceTimeline(const Trace& trace, const MemoryTimeline& t, uint32_t device);

// export_memory_timeline_raw's (time ns, action, bytes, category index) tuples of one device:
// PREEXISTING entries first (the blocks the trace frees, then the identified parameters and
// optimizer state, one entry each), then a CREATE or DESTROY per record.
struct RawMemoryEvent {
  int64_t ts_ns;  // -1 for pre-existing
  MemoryAction action;
  int64_t bytes;
  MemoryCategory category;
};
std::vector<RawMemoryEvent> RawTimeline(const Trace& trace, const MemoryTimeline& t,
                                        uint32_t device);

// Per op name, the TensorBoard plugin's memory view columns. Inclusive counts take every record
// inside an op or its children; self counts those whose innermost op it is.
struct MemoryOpRow {
  StringId name;
  uint64_t calls = 0;
  uint64_t alloc_count = 0, self_alloc_count = 0;
  int64_t alloc_bytes = 0, self_alloc_bytes = 0;
  int64_t freed_bytes = 0, self_freed_bytes = 0;
  int64_t size_increase() const { return alloc_bytes - freed_bytes; }
  int64_t self_size_increase() const { return self_alloc_bytes - self_freed_bytes; }
};
// device < 0: all devices. Rows sorted by allocated bytes, descending, then name.
std::vector<MemoryOpRow> MemoryByOp(const Trace& trace, const FunctionEventList& events,
                                    const MemoryTimeline& t, int device);

}  // namespace profana::passes
