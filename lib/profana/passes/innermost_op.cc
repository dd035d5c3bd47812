#include "profana/passes/innermost_op.h"

#include <algorithm>

namespace profana::passes {

InnermostOpFinder::InnermostOpFinder(const Trace& trace, const FunctionEventList& events,
                                     Interval interval, const std::vector<uint32_t>& thread_group)
    : interval_(interval), group_(thread_group) {
  size_t threads = trace.threads.size();
  if (group_.empty()) {
    group_.resize(threads);
    for (uint32_t i = 0; i < threads; ++i) group_[i] = i;
  }
  // Counting sort by group keeps each group's events in list order, which is by start.
  begin_.assign(threads + 1, 0);
  auto counted = [&](size_t i) {
    return events.device_type[i] == DeviceType::kCPU && events.source[i] != kSynthetic &&
           events.thread[i].value < threads;
  };
  for (size_t i = 0; i < events.size(); ++i)
    if (counted(i)) ++begin_[group_[events.thread[i].value] + 1];
  for (size_t g = 0; g < threads; ++g) begin_[g + 1] += begin_[g];
  size_t n = begin_[threads];
  ops_.resize(n);
  start_.resize(n);
  end_.resize(n);
  std::vector<uint32_t> fill(begin_.begin(), begin_.end() - 1);
  for (size_t i = 0; i < events.size(); ++i) {
    if (!counted(i)) continue;
    uint32_t k = fill[group_[events.thread[i].value]]++;
    ops_[k] = FnEventId(static_cast<uint32_t>(i));
    start_[k] = events.start_ns[i];
    end_[k] = events.end_ns[i];
  }
  last_started_.assign(threads, 0);
  last_t_.assign(threads, INT64_MIN);
  // The nearest earlier event that ends later, per group, with a stack of candidates.
  outer_.assign(n, UINT32_MAX);
  std::vector<uint32_t> stack;
  for (size_t g = 0; g < threads; ++g) {
    stack.clear();
    for (uint32_t k = begin_[g]; k < begin_[g + 1]; ++k) {
      while (!stack.empty() && end_[stack.back()] <= end_[k]) stack.pop_back();
      if (!stack.empty()) outer_[k] = stack.back();
      stack.push_back(k);
    }
  }
}

std::optional<FnEventId> InnermostOpFinder::At(ThreadId thread, int64_t t) const {
  if (thread.value >= group_.size()) return std::nullopt;
  uint32_t g = group_[thread.value];
  // How many of the group's events started by t: from the last answer, galloping, when t has not
  // gone back; by binary search otherwise.
  const int64_t* first = start_.data() + begin_[g];
  size_t n = begin_[g + 1] - begin_[g];
  size_t lo = t >= last_t_[g] ? last_started_[g] : 0, step = 1;
  while (lo + step <= n && first[lo + step - 1] <= t) lo += step, step *= 2;
  size_t started = std::upper_bound(first + lo, first + std::min(n, lo + step), t) - first;
  last_started_[g] = static_cast<uint32_t>(started);
  last_t_[g] = t;
  if (started == 0) return std::nullopt;
  bool closed = interval_ == Interval::kClosed;
  for (uint32_t k = begin_[g] + static_cast<uint32_t>(started) - 1; k != UINT32_MAX;
       k = outer_[k]) {
    if (closed ? end_[k] >= t : end_[k] > t) return ops_[k];
  }
  return std::nullopt;
}

}  // namespace profana::passes
