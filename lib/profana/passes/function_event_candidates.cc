#include "profana/passes/function_event_candidates.h"

#include <algorithm>
#include <numeric>
#include <string_view>

#include "profana/passes/async_events.h"

namespace profana::passes {
namespace {

// Names parse_kineto_results drops (PyTorch 1.13's _filter_name).
constexpr std::string_view kFilteredNames[] = {
    "profiler::_record_function_enter",
    "profiler::_record_function_enter_new",
    "profiler::_record_function_exit",
    "aten::is_leaf",
    "aten::output_nr",
    "aten::_version",
};

AnnotationCorrection KinetoAnnotationCorrection(const Trace& trace) {
  if (!IsChromeTraceJson(trace)) return {};
  const EventTable& ev = trace.events;
  bool any = false;
  for (size_t i = 0; i < ev.size() && !any; ++i)
    any = ev.kind[i] == ActivityKind::kGpuUserAnnotation;
  if (!any) return {};
  // A file with fractional microseconds has some time that is not a whole microsecond.
  for (size_t i = 0; i < ev.size(); ++i)
    if (ev.start_ns[i] % 1000 != 0 || ev.end_ns[i] % 1000 != 0) return {1, -1};
  return {1000, 0};
}

}  // namespace

KinetoRules WorkOutKinetoRules(const Trace& trace) {
  bool links = TraceRecordsLinks(trace);
  return {links, KinetoAnnotationCorrection(trace), PlaceKinetoEvents(trace, links),
          AsyncWorkAnnotations(trace)};
}

void SelectCandidates(Candidates* candidates) {
  Candidates& c = *candidates;
  std::vector<StringId> filtered;
  for (std::string_view name : kFilteredNames) {
    StringId id;
    if (c.trace.strings.Find(name, &id)) filtered.push_back(id);
  }
  const AnnotationCorrection& fix = c.rules.annotation_fix;
  const KinetoPlacement& placement = c.rules.placement;
  c.cand.reserve(c.ev.size() + 16);
  for (uint32_t i = 0; i < c.ev.size(); ++i) {
    ActivityKind kind = c.ev.kind[i];
    uint8_t place = placement.of.empty() ? uint8_t{KinetoPlacement::kOwnThread} : placement.of[i];
    bool is_overhead = place == KinetoPlacement::kOverhead;
    bool cpu = IsCpuFunctionEvent(kind) || is_overhead;
    // PyTorch 2.x makes GPU user annotations DeviceType.CUDA FunctionEvents (rows of their own,
    // left out of the CUDA total).
    bool annotation = kind == ActivityKind::kGpuUserAnnotation;
    if (!cpu && !IsDeviceWork(kind) && !annotation) continue;
    if (std::find(filtered.begin(), filtered.end(), c.ev.trace_name[i]) != filtered.end()) continue;
    int64_t start = c.ev.start_ns[i], end = c.ev.end_ns[i];
    if (annotation) start += fix.start_ns, end += fix.end_ns;
    c.cand.push_back({i, false, start, end});
    c.device.push_back(cpu ? DeviceType::kCPU : DeviceType::kCUDA);
    c.placement.push_back(place);
  }
  if (fix.start_ns == 0 && fix.end_ns == 0) return;
  // Corrected annotations may move past events that start at their new time: PyTorch sorts by
  // (start, -end) what it has, stably, and libkineto makes the GPU spans after the activities
  // under them, so an annotation with the span of its only kernel comes after it.
  auto is_annotation = [&](uint32_t i) {
    return c.ev.kind[c.cand[i].source] == ActivityKind::kGpuUserAnnotation;
  };
  std::vector<uint32_t> order(c.cand.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (c.cand[a].start_ns != c.cand[b].start_ns) return c.cand[a].start_ns < c.cand[b].start_ns;
    if (c.cand[a].end_ns != c.cand[b].end_ns) return c.cand[a].end_ns > c.cand[b].end_ns;
    return !is_annotation(a) && is_annotation(b);
  });
  PermuteCandidates(&c, order);
}

void PermuteCandidates(Candidates* candidates, const std::vector<uint32_t>& order) {
  Candidates& c = *candidates;
  auto permute = [&](auto& column) {
    if (column.empty()) return;  // not filled yet
    std::remove_reference_t<decltype(column)> sorted;
    sorted.reserve(column.size());
    for (uint32_t p : order) sorted.push_back(column[p]);
    column.swap(sorted);
  };
  permute(c.cand);
  permute(c.device);
  permute(c.placement);
  permute(c.cpu_mem);
  permute(c.cuda_mem);
}

FunctionEventList CompactCandidates(const Candidates& c) {
  size_t n = c.cand.size();
  std::vector<uint32_t> new_index(n, UINT32_MAX);
  uint32_t m = 0;
  for (size_t i = 0; i < n; ++i)
    if (!c.removed[i]) new_index[i] = m++;
  FunctionEventList o;
  o.removed_duplicates = c.removed_duplicates;
  o.kernels_attributed = c.kernels_attributed;
  o.kernels_unattributed = c.kernels_unattributed;
  o.external_id_mismatches = c.external_id_mismatches;
  o.launches_linked = c.launches_linked;
  o.launches_enclosed = c.launches_enclosed;
  o.launches_unattributed = c.launches_unattributed;
  o.trace_has_links = c.rules.records_links;
  o.link = c.link;
  auto& source = o.source.owned();
  auto& device_type = o.device_type.owned();
  auto& scope = o.scope.owned();
  auto& parent = o.parent.owned();
  auto& cpu_memory = o.cpu_memory.owned();
  auto& cuda_memory = o.cuda_memory.owned();
  auto& child_begin = o.child_begin.owned();
  auto& child_index = o.child_index.owned();
  auto& kernel_begin = o.kernel_begin.owned();
  auto& kernel_index = o.kernel_index.owned();
  auto resize = [m](auto&... v) { (v.resize(m), ...); };
  resize(source, device_type, scope, parent, cpu_memory, cuda_memory);
  child_begin.resize(m + 1);
  kernel_begin.resize(m + 1);
  child_begin[0] = kernel_begin[0] = 0;
  child_index.reserve(c.child_index.size());
  kernel_index.reserve(c.kernel_index.size());
  for (size_t i = 0; i < n; ++i) {
    if (c.removed[i]) continue;
    uint32_t j = new_index[i];
    const Candidate& e = c.cand[i];
    source[j] = e.synthetic ? kSynthetic : EventId(e.source);
    if (e.synthetic) o.synthetic_record.push_back(e.source);
    device_type[j] = c.device[i];
    scope[j] = c.scope[i];
    parent[j] = c.parent[i] < 0 ? FnEventId::None() : FnEventId(new_index[c.parent[i]]);
    cpu_memory[j] = c.cpu_mem[i];
    cuda_memory[j] = c.cuda_mem[i];
    uint32_t owner = c.list_owner[i];
    for (uint32_t k = c.child_begin[owner]; k < c.child_begin[owner + 1]; ++k)
      child_index.push_back(FnEventId(new_index[c.child_index[k]]));
    child_begin[j + 1] = static_cast<uint32_t>(child_index.size());
    uint32_t ko = c.kernel_owner[i];
    kernel_index.insert(kernel_index.end(), c.kernel_index.begin() + c.kernel_begin[ko],
                        c.kernel_index.begin() + c.kernel_begin[ko + 1]);
    kernel_begin[j + 1] = static_cast<uint32_t>(kernel_index.size());
  }
  return o;
}

}  // namespace profana::passes
