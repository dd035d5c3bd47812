#include "profana/passes/memory_device_report.h"

#include <algorithm>
#include <unordered_map>

namespace profana::passes {
namespace {

// Groups blocks by op name in one pass; the result is sorted by bytes, then blocks, then name.
class Grouper {
 public:
  void Add(const FunctionEventList& ev, FnEventId op, bool before_trace, int64_t bytes) {
    MemoryOpGroup::Kind kind = before_trace  ? MemoryOpGroup::kBeforeTrace
                               : !op.valid() ? MemoryOpGroup::kNoOp
                                             : MemoryOpGroup::kOp;
    StringId name = kind == MemoryOpGroup::kOp ? ev.name[op.value] : StringId();
    uint64_t key = (static_cast<uint64_t>(kind) << 32) | name.value;
    auto [it, added] = index_.emplace(key, groups_.size());
    if (added) {
      groups_.emplace_back();
      groups_.back().kind = kind;
      groups_.back().name = name;
    }
    ++groups_[it->second].blocks;
    groups_[it->second].bytes = SatAdd(groups_[it->second].bytes, bytes);
  }
  std::vector<MemoryOpGroup> Sorted(const Trace& trace) {
    std::sort(groups_.begin(), groups_.end(), [&](const MemoryOpGroup& a, const MemoryOpGroup& b) {
      if (a.bytes != b.bytes) return a.bytes > b.bytes;
      if (a.blocks != b.blocks) return a.blocks > b.blocks;
      if (a.kind != b.kind) return a.kind < b.kind;
      return trace.str(a.name) < trace.str(b.name);
    });
    return std::move(groups_);
  }

 private:
  std::unordered_map<uint64_t, size_t> index_;
  std::vector<MemoryOpGroup> groups_;
};

}  // namespace

MemoryDeviceReport AnalyzeMemoryDevice(const Trace& trace, const FunctionEventList& ev,
                                       const MemoryTimeline& t, uint32_t device) {
  MemoryDeviceReport r;
  const MemoryDeviceSummary& s = t.summary[device];
  int64_t peak = s.peak_pos;
  if (peak >= 0) {
    uint32_t rec = t.order[peak];
    r.peak_ts_ns = trace.memory.ts_ns[rec];
    r.peak_total_allocated = trace.memory.total_allocated[rec];
    if (t.op[peak].valid()) r.peak_op = t.op[peak];
    for (FnEventId o = t.op[peak]; o.valid(); o = ev.parent[o.value]) r.peak_op_path.push_back(o);
    std::reverse(r.peak_op_path.begin(), r.peak_op_path.end());
  }
  Grouper live, leaked, preexisting;
  int64_t paired_live = 0;
  for (const MemoryBlock& b : t.blocks) {
    if (b.device != device) continue;
    FnEventId alloc_op = b.alloc_pos >= 0 ? t.op[b.alloc_pos] : FnEventId::None();
    if (peak >= 0 && b.alloc_pos <= peak && (b.free_pos < 0 || b.free_pos > peak)) {
      live.Add(ev, alloc_op, b.alloc_pos < 0, b.bytes);
      int c = static_cast<int>(b.category);
      r.live_by_category[c] = SatAdd(r.live_by_category[c], b.bytes);
      if (b.alloc_pos < 0)
        r.live_before_trace_by_category[c] = SatAdd(r.live_before_trace_by_category[c], b.bytes);
      paired_live = SatAdd(paired_live, b.bytes);
    }
    if (b.alloc_pos >= 0 && b.free_pos < 0) {
      leaked.Add(ev, alloc_op, false, b.bytes);
      ++r.not_freed_blocks;
      r.not_freed_bytes = SatAdd(r.not_freed_bytes, b.bytes);
    }
    if (b.alloc_pos < 0) {
      preexisting.Add(ev, t.op[b.free_pos], false, b.bytes);
      ++r.preexisting_frees;
      r.preexisting_bytes = SatAdd(r.preexisting_bytes, b.bytes);
    }
  }
  // Records without Addr (or double frees) move the level without a block: Unknown.
  if (peak >= 0)
    r.live_by_category[static_cast<int>(MemoryCategory::kUnknown)] =
        SatAdd(r.live_by_category[static_cast<int>(MemoryCategory::kUnknown)],
               SatAdd(s.peak_bytes, paired_live == INT64_MIN ? INT64_MAX : -paired_live));
  // What the trace identifies of the memory it never frees is live throughout.
  if (peak >= 0) {
    const MemoryBeforeTrace& before = s.before_trace;
    for (auto [c, bytes] : {std::pair{MemoryCategory::kParameter, before.parameters},
                            std::pair{MemoryCategory::kOptimizerState, before.optimizer_state}}) {
      int i = static_cast<int>(c);
      r.live_by_category[i] = SatAdd(r.live_by_category[i], bytes);
      r.live_before_trace_by_category[i] = SatAdd(r.live_before_trace_by_category[i], bytes);
    }
  }
  r.live_by_op = live.Sorted(trace);
  r.not_freed_by_op = leaked.Sorted(trace);
  r.preexisting_by_op = preexisting.Sorted(trace);
  return r;
}

}  // namespace profana::passes
