#include "profana/passes/function_event_candidates.h"

#include <algorithm>
#include <numeric>
#include <string_view>

#include "profana/base/parallel.h"
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

KinetoRules WorkOutKinetoRules(const Trace& trace, LinkRule link) {
  bool links = TraceRecordsLinks(trace);
  AnnotationCorrection fix = KinetoAnnotationCorrection(trace);
  return {links, fix, PlaceKinetoEvents(trace, links, link == LinkRule::kPyTorch, fix),
          AsyncWorkAnnotations(trace)};
}

namespace {

// The candidates among trace events [begin, end), appended to the columns of `out`.
void SelectAmong(uint32_t begin, uint32_t end, const std::vector<StringId>& filtered,
                 Candidates* out) {
  Candidates& c = *out;
  const KinetoPlacement& placement = c.rules.placement;
  for (uint32_t i = begin; i < end; ++i) {
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
}

template <typename T>
void Append(std::vector<T>* to, const std::vector<T>& from) {
  to->insert(to->end(), from.begin(), from.end());
}

}  // namespace

void SelectCandidates(Candidates* candidates) {
  Candidates& c = *candidates;
  std::vector<StringId> filtered;
  for (std::string_view name : kFilteredNames) {
    StringId id;
    if (c.trace.strings.Find(name, &id)) filtered.push_back(id);
  }
  const AnnotationCorrection& fix = c.rules.annotation_fix;
  size_t n = c.ev.size();
  c.source.reserve(n + 16);
  c.origin.reserve(n + 16);
  // The two halves of the events side by side on two cores where there are, the second's
  // candidates then appended to the first's.
  Candidates second(c.trace, c.rules);
  InHalves(n, [&](size_t h, size_t begin, size_t end) {
    SelectAmong(static_cast<uint32_t>(begin), static_cast<uint32_t>(end), filtered,
                h == 0 ? &c : &second);
  });
  Append(&c.source, second.source);
  Append(&c.origin, second.origin);
  Append(&c.device, second.device);
  Append(&c.placement, second.placement);
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
  // The widest column beside the three narrow ones, on two cores where there are.
  TwoAtOnce(order.size(), [&](size_t k) {
    if (k == 0) {
      permute(c.source);
    } else {
      permute(c.origin);
      permute(c.device);
      permute(c.placement);
    }
  });
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
// each is its own).
template <typename T>
void KeptLists(const std::vector<uint8_t>& removed, const std::vector<uint32_t>& owner,
               const std::vector<uint32_t>& begin, const std::vector<T>& index,
               std::vector<uint32_t>* out_begin, std::vector<T>* out_index) {
  out_begin->assign(1, 0);
  out_begin->reserve(begin.size());
  out_index->reserve(index.size());
  for (size_t i = 0; i < removed.size(); ++i) {
    if (removed[i]) continue;
    uint32_t from = OwnerOf(owner, i);
    out_index->insert(out_index->end(), index.begin() + begin[from],
                      index.begin() + begin[from + 1]);
    out_begin->push_back(static_cast<uint32_t>(out_index->size()));
  }
}

// The same, in the lists' own storage, when each kept candidate has its own list: a list only
// moves towards the front, so none is overwritten before it is read.
template <typename T>
void KeepListsInPlace(const std::vector<uint8_t>& removed, std::vector<uint32_t>* begin,
                      std::vector<T>* index) {
  std::vector<uint32_t>& b = *begin;
  std::vector<T>& x = *index;
  uint32_t out = 0;
  size_t j = 0;
  for (size_t i = 0; i < removed.size(); ++i) {
    if (removed[i]) continue;
    uint32_t from = b[i], to = b[i + 1];
    b[j++] = out;
    for (uint32_t k = from; k < to; ++k) x[out++] = x[k];
  }
  b[j] = out;
  b.resize(j + 1);
  x.resize(out);
}

// A kept candidate's position in the list: a bit per candidate and a count per 64, instead of a
// position per candidate (4 bytes a candidate at the list's peak).
class KeptPositions {
 public:
  explicit KeptPositions(const std::vector<uint8_t>& removed)
      : words_((removed.size() + 63) / 64, 0), below_(words_.size(), 0) {
    for (size_t i = 0; i < removed.size(); ++i)
      if (!removed[i]) words_[i >> 6] |= uint64_t{1} << (i & 63);
    uint32_t count = 0;
    for (size_t w = 0; w < words_.size(); ++w) {
      below_[w] = count;
      count += static_cast<uint32_t>(__builtin_popcountll(words_[w]));
    }
    kept_ = count;
  }
  uint32_t kept() const { return kept_; }
  uint32_t operator[](size_t i) const {
    uint64_t lower = words_[i >> 6] & ((uint64_t{1} << (i & 63)) - 1);
    return below_[i >> 6] + static_cast<uint32_t>(__builtin_popcountll(lower));
  }

 private:
  std::vector<uint64_t> words_;
  std::vector<uint32_t> below_;
  uint32_t kept_ = 0;
};

// Each event's children (CSR), in list order, from the parents. The counts, summed up to and
// including each event, are where its list ends; filling from the last child back leaves each
// where its list begins, in order, without a second array.
void ChildLists(const std::vector<FnEventId>& parent, std::vector<uint32_t>* begin,
                std::vector<FnEventId>* index) {
  size_t m = parent.size();
  begin->assign(m + 1, 0);
  for (FnEventId p : parent)
    if (p.valid()) ++(*begin)[p.value];
  for (size_t i = 1; i <= m; ++i) (*begin)[i] += (*begin)[i - 1];
  index->resize((*begin)[m]);
  for (size_t j = m; j-- > 0;)
    if (parent[j].valid()) (*index)[--(*begin)[parent[j].value]] = FnEventId(uint32_t(j));
}

// InHalves over the candidates [0, n), with j, the position in the list of each half's first
// kept one.
template <typename F>
void KeptInHalves(size_t n, const KeptPositions& position, F f) {
  InHalves(n, [&](size_t h, size_t begin, size_t end) {
    f(h, begin, end, begin < n ? position[begin] : position.kept());
  });
}

}  // namespace

FunctionEventList CompactCandidates(Candidates* candidates) {
  Candidates& c = *candidates;
  size_t n = c.size();
  const KeptPositions position(c.removed);
  uint32_t m = position.kept();
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
  Free(c.placement);
  // The list's columns are made in an order that lets each take the room of a candidates' column
  // freed before it (the peak of BuildFunctionEvents is here): the parents, the kernels in place,
  // the sources in the parents' room, the children's lists in the sources'.
  // A kept candidate's parent is kept (RemoveDuplicates).
  auto& parent = o.parent.owned();
  parent.resize(m);
  KeptInHalves(n, position, [&](size_t, size_t begin, size_t end, size_t j) {
    for (size_t i = begin; i < end; ++i)
      if (!c.removed[i])
        parent[j++] = c.parent[i] < 0 ? FnEventId::None() : FnEventId(position[c.parent[i]]);
  });
  Free(c.parent), Free(c.child_count);
  // Each kept candidate's kernels are its owner's (RemoveDuplicates).
  if (c.kernel_owner.empty()) {
    KeepListsInPlace(c.removed, &c.kernel_begin, &c.kernel_index);
    o.kernel_begin.owned() = std::move(c.kernel_begin);
    o.kernel_index.owned() = std::move(c.kernel_index);
  } else {
    KeptLists(c.removed, c.kernel_owner, c.kernel_begin, c.kernel_index, &o.kernel_begin.owned(),
              &o.kernel_index.owned());
    Free(c.kernel_begin), Free(c.kernel_index), Free(c.kernel_owner);
  }
  auto& source = o.source.owned();
  source.resize(m);
  std::vector<uint32_t> synthetic_records[2];  // each half's, in order
  KeptInHalves(n, position, [&](size_t h, size_t begin, size_t end, size_t j) {
    for (size_t i = begin; i < end; ++i) {
      if (c.removed[i]) continue;
      bool synthetic = c.Synthetic(i);
      source[j++] = synthetic ? kSynthetic : EventId(c.source[i]);
      if (synthetic) synthetic_records[h].push_back(c.source[i]);
    }
  });
  for (const std::vector<uint32_t>& records : synthetic_records)
    for (uint32_t r : records) o.synthetic_record.push_back(r);
  Free(c.source), Free(c.origin);
  ChildLists(parent, &o.child_begin.owned(), &o.child_index.owned());
  // The columns of one type in the list as in the candidates are kept in place and moved.
  KeepInPlace(c.removed, c.device), o.device_type.owned() = std::move(c.device);
  KeepInPlace(c.removed, c.scope), o.scope.owned() = std::move(c.scope);
  return o;
}

}  // namespace profana::passes
