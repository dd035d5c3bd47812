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
  c.source.reserve(c.ev.size() + 16);
  c.origin.reserve(c.ev.size() + 16);
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
    c.source.push_back(i);
    c.origin.push_back(annotation ? CandidateOrigin::kAnnotation : CandidateOrigin::kEvent);
    c.device.push_back(cpu ? DeviceType::kCPU : DeviceType::kCUDA);
    c.placement.push_back(place);
  }
  if (fix.start_ns == 0 && fix.end_ns == 0) return;
  // Corrected annotations may move past events that start at their new time: PyTorch sorts by
  // (start, -end) what it has, stably, and libkineto makes the GPU spans after the activities
  // under them, so an annotation with the span of its only kernel comes after it.
  auto is_annotation = [&](uint32_t i) { return c.origin[i] == CandidateOrigin::kAnnotation; };
  std::vector<uint32_t> order(c.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    int64_t start_a = c.Start(a), start_b = c.Start(b);
    if (start_a != start_b) return start_a < start_b;
    int64_t end_a = c.End(a), end_b = c.End(b);
    if (end_a != end_b) return end_a > end_b;
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
  permute(c.source);
  permute(c.origin);
  permute(c.device);
  permute(c.placement);
}

namespace {

// Frees a vector's storage (clear() keeps it).
template <typename T>
void Free(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// Keeps the entries of the kept candidates, in order, in the vector's own storage.
template <typename T>
void KeepInPlace(const std::vector<uint8_t>& removed, std::vector<T>& v) {
  size_t m = 0;
  for (size_t i = 0; i < v.size(); ++i)
    if (!removed[i]) v[m++] = v[i];
  v.resize(m);
  v.shrink_to_fit();
}

// The lists (begin, index: CSR) of the kept candidates, each its owner's (`owner`, empty when
// each is its own), entries mapped by `map`.
template <typename In, typename Map, typename Out>
void KeptLists(const std::vector<uint8_t>& removed, const std::vector<uint32_t>& owner,
               const std::vector<uint32_t>& begin, const std::vector<In>& index, Map map,
               std::vector<uint32_t>* out_begin, std::vector<Out>* out_index) {
  out_begin->assign(1, 0);
  out_begin->reserve(begin.size());
  out_index->reserve(index.size());
  for (size_t i = 0; i < removed.size(); ++i) {
    if (removed[i]) continue;
    uint32_t from = OwnerOf(owner, i);
    for (uint32_t k = begin[from]; k < begin[from + 1]; ++k) out_index->push_back(map(index[k]));
    out_begin->push_back(static_cast<uint32_t>(out_index->size()));
  }
}

}  // namespace

FunctionEventList CompactCandidates(Candidates* candidates) {
  Candidates& c = *candidates;
  size_t n = c.size();
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
  // Each kept candidate's children and kernels are its owner's (RemoveDuplicates), renumbered.
  KeptLists(
      c.removed, c.list_owner, c.child_begin, c.child_index,
      [&](uint32_t k) { return FnEventId(new_index[k]); }, &o.child_begin.owned(),
      &o.child_index.owned());
  Free(c.child_begin), Free(c.child_index), Free(c.list_owner);
  KeptLists(
      c.removed, c.kernel_owner, c.kernel_begin, c.kernel_index, [](EventId e) { return e; },
      &o.kernel_begin.owned(), &o.kernel_index.owned());
  Free(c.kernel_begin), Free(c.kernel_index), Free(c.kernel_owner);
  auto& parent = o.parent.owned();
  parent.resize(m);
  for (size_t i = 0; i < n; ++i)
    if (!c.removed[i])
      parent[new_index[i]] =
          c.parent[i] < 0 ? FnEventId::None() : FnEventId(new_index[c.parent[i]]);
  Free(c.parent), Free(new_index);
  auto& source = o.source.owned();
  source.resize(m);
  for (size_t i = 0, j = 0; i < n; ++i) {
    if (c.removed[i]) continue;
    bool synthetic = c.Synthetic(i);
    source[j++] = synthetic ? kSynthetic : EventId(c.source[i]);
    if (synthetic) o.synthetic_record.push_back(c.source[i]);
  }
  Free(c.source), Free(c.origin);
  // The columns of one type in the list as in the candidates are kept in place and moved.
  KeepInPlace(c.removed, c.device), o.device_type.owned() = std::move(c.device);
  KeepInPlace(c.removed, c.scope), o.scope.owned() = std::move(c.scope);
  return o;
}

}  // namespace profana::passes
