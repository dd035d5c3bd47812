// A device activity is credited through the runtime call that launched it (joined on
// "correlation") to the op that launch is linked to, by the rule the list was asked for
// (LinkRule in function_events.h; docs/semantics.md "Kernels and their ops").
#include <algorithm>
#include <utility>

#include "profana/base/id_index.h"
#include "profana/base/parallel.h"
#include "profana/passes/function_event_candidates.h"

namespace profana::passes {
namespace {

// Each attributed device activity with the candidate it is credited to (owner, kernel), in kernel
// order, and the launch counts. The indexes it builds are gone when it returns, so that the
// kernel lists made from its answer can take their room.
std::vector<std::pair<uint32_t, EventId>> FindKernelOwners(Candidates* candidates) {
  Candidates& c = *candidates;
  size_t n = c.size();
  IdIndex launch_by_correlation, op_by_external_id;
  auto is_launch = [&](uint32_t i, uint32_t e) {
    return c.IsCpu(i) && IsRuntimeOrDriver(c.ev.kind[e]) && c.ev.correlation[e] != kNoId;
  };
  // Kineto links launches to the operator correlation stack only: cpu_ops, never user annotations.
  auto is_op = [&](uint32_t i) {
    return !c.Synthetic(i) && c.IsCpu(i) && c.ev.kind[c.source[i]] == ActivityKind::kCpuOp;
  };
  // The two indexes side by side, on two cores where there are: each reads the candidates alone.
  // A synthetic [memory] candidate's source indexes the memory table, not the events: test first.
  auto build = [&](size_t k) {
    if (k == 0)
      launch_by_correlation.Build(n, [&](uint32_t i, int64_t* id) {
        uint32_t e = c.source[i];
        if (c.Synthetic(i) || !is_launch(i, e)) return false;
        *id = c.ev.correlation[e];
        return true;
      });
    else
      op_by_external_id.Build(n, [&](uint32_t i, int64_t* id) {
        if (!is_op(i) || c.ev.external_id[c.source[i]] == kNoId) return false;
        *id = c.ev.external_id[c.source[i]];
        return true;
      });
  };
  TwoAtOnce(n, build);
  bool use_links = c.rules.records_links && c.link != LinkRule::kEnclosing;
  bool use_enclosure = c.link != LinkRule::kPyTorch;
  // The op a recorded External id links to: one that differs from the correlation id names it;
  // an equal one (a coincidence of two counters, or the newest writer, which omits unlinked ids)
  // only when that op encloses the launch on the launch's thread.
  auto linked_op = [&](int64_t ext, int64_t corr, const uint32_t* launch) -> int32_t {
    if (ext == kNoId) return -1;
    const uint32_t* op = op_by_external_id.find(ext);
    if (!op) return -1;
    if (ext != corr) return static_cast<int32_t>(*op);
    if (!launch) return -1;
    bool encloses = c.ThreadOf(*op) == c.ThreadOf(*launch) && c.Start(*op) <= c.Start(*launch) &&
                    c.End(*launch) <= c.End(*op);
    return encloses ? static_cast<int32_t>(*op) : -1;
  };
  // Kineto writes External ids and links launches to cpu_ops only. A trace without any External
  // id (nvprof, Nsight Systems and ROCm databases) has no operator correlation stack: there, as
  // PyTorch's parse_nvprof_trace does, a launch belongs to the innermost range around it, an
  // annotation (NVTX or roctx range) as well as an op.
  bool writes_external_ids = false;
  for (size_t e = 0; e < c.ev.size() && !writes_external_ids; ++e)
    writes_external_ids = c.ev.external_id[e] != kNoId;
  auto is_encloser = [&](uint32_t i) {
    if (writes_external_ids) return is_op(i);
    return !c.Synthetic(i) && c.IsCpu(i) && IsOpOrAnnotation(c.ev.kind[c.source[i]]);
  };
  // The innermost cpu_op above the launch in its thread's tree (past annotations and calls).
  auto enclosing_op = [&](uint32_t launch) {
    int32_t p = c.parent[launch];
    while (p >= 0 && !is_encloser(static_cast<uint32_t>(p))) p = c.parent[p];
    return p;
  };
  std::vector<uint8_t> launch_seen(n, 0);
  std::vector<std::pair<uint32_t, EventId>> owned;  // (owner candidate, kernel), in kernel order
  for (uint32_t i = 0; i < n; ++i) {
    if (c.IsCpu(i)) continue;
    uint32_t e = c.source[i];
    // libkineto's createUserGpuSpan links a GPU user annotation to nothing.
    if (c.ev.kind[e] == ActivityKind::kGpuUserAnnotation) continue;
    int64_t corr = c.ev.correlation[e];
    const uint32_t* launch = corr != kNoId ? launch_by_correlation.find(corr) : nullptr;
    int32_t linked = -1, enclosed = -1;
    int64_t linked_id = kNoId;
    if (use_links) {
      int64_t ext = c.ev.external_id[e];
      if (launch && c.ev.external_id[c.source[*launch]] != kNoId)
        ext = c.ev.external_id[c.source[*launch]];
      linked = linked_op(ext, corr, launch);
      if (linked >= 0) linked_id = ext;
    }
    // A call no op links sits in the main thread's tree (kineto_placement.h), where the op around
    // it is not the one that ran it: it has no enclosing op.
    if (launch && c.placement[*launch] != KinetoPlacement::kUnlinkedCall)
      enclosed = enclosing_op(*launch);
    int32_t owner = linked >= 0 ? linked : use_enclosure ? enclosed : -1;
    if (launch && !launch_seen[*launch]) {
      launch_seen[*launch] = 1;
      if (linked >= 0)
        ++c.launches_linked;
      else if (owner >= 0)
        ++c.launches_enclosed;
      else
        ++c.launches_unattributed;
      if (linked >= 0 && enclosed >= 0 && linked != enclosed) ++c.external_id_mismatches;
    }
    if (owner < 0) {
      ++c.kernels_unattributed;
      continue;
    }
    ++c.kernels_attributed;
    owned.emplace_back(static_cast<uint32_t>(owner), EventId(e));
    // PyTorch matches device work to FunctionEvents by id: a call no op links is keyed by its
    // own correlation id, and when that equals the op's External id it is credited the op's work
    // too (docs/semantics.md "Id collisions"). Literally so under --link pytorch only.
    if (c.link == LinkRule::kPyTorch && linked >= 0) {
      const uint32_t* call = launch_by_correlation.find(linked_id);
      if (call && linked_op(c.ev.external_id[c.source[*call]], linked_id, call) < 0)
        owned.emplace_back(*call, EventId(e));
    }
  }
  // An overhead event lists the device work of the op whose id it takes in PyTorch's C++ tree
  // (overhead_owners.h): the op's row then counts that work twice. An id that is a runtime call's
  // correlation id names an op by coincidence: literally so under --link pytorch only.
  const std::vector<OverheadOp>& overhead_ops = c.rules.placement.overhead_ops;
  auto lists_op = [&](const OverheadOp& o) {
    return o.op != UINT32_MAX && (!o.coincidence || c.link == LinkRule::kPyTorch);
  };
  std::vector<uint32_t> ops_listed;  // trace events, sorted, then their candidates
  for (const OverheadOp& o : overhead_ops)
    if (lists_op(o)) ops_listed.push_back(o.op);
  std::sort(ops_listed.begin(), ops_listed.end());
  ops_listed.erase(std::unique(ops_listed.begin(), ops_listed.end()), ops_listed.end());
  std::vector<uint32_t> op_candidate(ops_listed.size(), UINT32_MAX);
  auto listed = [&](uint32_t event) {
    auto it = std::lower_bound(ops_listed.begin(), ops_listed.end(), event);
    return it != ops_listed.end() && *it == event ? it - ops_listed.begin() : -1;
  };
  if (!ops_listed.empty())
    for (uint32_t i = 0; i < n; ++i)
      if (is_op(i))
        if (auto k = listed(c.source[i]); k >= 0 && op_candidate[k] == UINT32_MAX)
          op_candidate[k] = i;
  std::vector<std::vector<uint32_t>> overheads_of;  // by cpu_op candidate, when any
  for (uint32_t i = 0; i < n && !ops_listed.empty(); ++i) {
    if (c.placement[i] != KinetoPlacement::kOverhead) continue;
    auto o =
        std::lower_bound(overhead_ops.begin(), overhead_ops.end(), c.source[i],
                         [](const OverheadOp& a, uint32_t event) { return a.overhead < event; });
    if (o == overhead_ops.end() || o->overhead != c.source[i] || !lists_op(*o)) continue;
    auto k = listed(o->op);
    if (k < 0 || op_candidate[k] == UINT32_MAX) continue;
    if (overheads_of.empty()) overheads_of.resize(n);
    overheads_of[op_candidate[k]].push_back(i);
  }
  if (!overheads_of.empty()) {
    size_t attributed = owned.size();
    for (size_t k = 0; k < attributed; ++k)
      for (uint32_t o : overheads_of[owned[k].first]) owned.emplace_back(o, owned[k].second);
  }
  return owned;
}

}  // namespace

void AttributeKernels(Candidates* candidates) {
  Candidates& c = *candidates;
  size_t n = c.size();
  const std::vector<std::pair<uint32_t, EventId>> owned = FindKernelOwners(&c);
  // Counting sort by owner keeps each owner's kernels in kernel order: the counts summed up to and
  // including each owner are where its list ends, and filling from the last kernel back leaves
  // each where its list begins (no second array of positions).
  c.kernel_begin.assign(n + 1, 0);
  for (const auto& [owner, e] : owned) ++c.kernel_begin[owner];
  for (size_t i = 1; i <= n; ++i) c.kernel_begin[i] += c.kernel_begin[i - 1];
  c.kernel_index.resize(owned.size());
  for (size_t k = owned.size(); k-- > 0;)
    c.kernel_index[--c.kernel_begin[owned[k].first]] = owned[k].second;
}

bool TraceRecordsLinks(const Trace& trace) {
  const EventTable& ev = trace.events;
  for (size_t e = 0; e < ev.size(); ++e) {
    if (!IsRuntimeOrDriver(ev.kind[e]) && !IsDeviceActivity(ev.kind[e])) continue;
    int64_t corr = ev.correlation[e], ext = ev.external_id[e];
    if (corr != kNoId && ext != kNoId && ext != corr) return true;
  }
  return false;
}

}  // namespace profana::passes
