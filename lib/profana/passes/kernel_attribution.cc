// A device activity belongs to the innermost CPU event enclosing the runtime call that launched it
// (joined on "correlation"); "External id" is only a cross-check, and a fallback when the launch
// is missing and the id is not the activity's own correlation id (docs/semantics.md).
#include <utility>

#include "profana/base/id_index.h"
#include "profana/passes/function_event_candidates.h"

namespace profana::passes {

void AttributeKernels(Candidates* candidates) {
  Candidates& c = *candidates;
  size_t n = c.cand.size();
  IdIndex launch_by_correlation, op_by_external_id;
  auto is_launch = [&](uint32_t i, uint32_t e) {
    return !c.cand[i].synthetic && c.IsCpu(i) && IsRuntimeOrDriver(c.ev.kind[e]) &&
           c.ev.correlation[e] != kNoId;
  };
  auto is_op = [&](uint32_t i, uint32_t e) {
    return !c.cand[i].synthetic && c.IsCpu(i) && IsOpOrAnnotation(c.ev.kind[e]) &&
           c.ev.external_id[e] != kNoId;
  };
  // A synthetic [memory] candidate's source indexes the memory table, not the events: test first.
  launch_by_correlation.Build(n, [&](uint32_t i, int64_t* id) {
    uint32_t e = c.cand[i].source;
    if (c.cand[i].synthetic || !is_launch(i, e)) return false;
    *id = c.ev.correlation[e];
    return true;
  });
  op_by_external_id.Build(n, [&](uint32_t i, int64_t* id) {
    uint32_t e = c.cand[i].source;
    if (c.cand[i].synthetic || !is_op(i, e)) return false;
    *id = c.ev.external_id[e];
    return true;
  });
  std::vector<std::pair<uint32_t, EventId>> owned;  // (owner candidate, kernel), in kernel order
  for (uint32_t i = 0; i < n; ++i) {
    if (c.IsCpu(i)) continue;
    uint32_t e = c.cand[i].source;
    int64_t corr = c.ev.correlation[e];
    int64_t ext = c.ev.external_id[e];
    int32_t owner = -1;
    const uint32_t* launch = corr != kNoId ? launch_by_correlation.find(corr) : nullptr;
    if (launch) {
      owner = c.parent[*launch];
      if (owner < 0) {
        // A launch outside every op on its thread (old Kineto wrote ops and launches on different
        // tids): the launch's own External id names its op; 0 or its correlation means none.
        int64_t launch_ext = c.ev.external_id[c.cand[*launch].source];
        const uint32_t* op =
            launch_ext > 0 && launch_ext != corr ? op_by_external_id.find(launch_ext) : nullptr;
        if (op) owner = static_cast<int32_t>(*op);
      }
      if (owner >= 0 && ext != kNoId && ext != corr) {
        int64_t owner_ext = c.ev.external_id[c.cand[owner].source];
        if (owner_ext != kNoId && owner_ext != ext) ++c.external_id_mismatches;
      }
    } else if (ext != kNoId && ext != corr) {
      // No launch in the trace (sampled or trimmed): trust External id only when it cannot be
      // the activity's own correlation id, which Kineto writes when no op was linked.
      const uint32_t* op = op_by_external_id.find(ext);
      if (op) owner = static_cast<int32_t>(*op);
    }
    if (owner < 0) {
      ++c.kernels_unattributed;
      continue;
    }
    ++c.kernels_attributed;
    owned.emplace_back(static_cast<uint32_t>(owner), EventId(e));
  }
  // Counting sort by owner keeps each owner's kernels in kernel order.
  c.kernel_begin.assign(n + 1, 0);
  for (const auto& [owner, e] : owned) ++c.kernel_begin[owner + 1];
  for (size_t i = 0; i < n; ++i) c.kernel_begin[i + 1] += c.kernel_begin[i];
  c.kernel_index.resize(owned.size());
  std::vector<uint32_t> fill(c.kernel_begin.begin(), c.kernel_begin.end() - 1);
  for (const auto& [owner, e] : owned) c.kernel_index[fill[owner]++] = e;
}

}  // namespace profana::passes
