#include "profana/model/trace_sums.h"

#include <algorithm>
#include <vector>

#include "fmt/format.h"
#include "profana/base/int_sum.h"

namespace profana {
namespace {

using Wide = __int128;

// The largest few of a set of values, with where each came from.
class Largest {
 public:
  void Add(int64_t value, uint32_t at) {
    if (top_.size() == kKept && value <= top_.back().first) return;
    top_.emplace_back(value, at);
    std::stable_sort(top_.begin(), top_.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    if (top_.size() > kKept) top_.pop_back();
  }
  const std::vector<std::pair<int64_t, uint32_t>>& top() const { return top_; }

 private:
  static constexpr size_t kKept = 3;
  std::vector<std::pair<int64_t, uint32_t>> top_;
};

std::string Events(const Trace& t, const Largest& longest) {
  std::string out;
  for (const auto& [ns, i] : longest.top())
    out += fmt::format("{}\"{}\" ({} ns from {} ns)", out.empty() ? "" : ", ",
                       t.str(t.events.trace_name[i]), ns, t.events.start_ns[i]);
  return out;
}

}  // namespace

Status CheckSumsFit(const Trace& t, const std::string& name) {
  const EventTable& ev = t.events;
  Wide total = 0;
  Largest longest;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    int64_t ns = ev.end_ns[i] - ev.start_ns[i];
    total += ns;
    if (ns > kMaxTraceTotal / 1024) longest.Add(ns, i);  // only the ones that can matter
  }
  if (total > kMaxTraceTotal)
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: the events' durations add up to {} ns, past the 2^61 ns (73 "
                              "years) that profana's sums hold: the times cannot be right "
                              "(the longest: {})",
                              name, Int128Text(total), Events(t, longest)));
  const MemoryTable& mem = t.memory;
  Wide bytes = 0;
  Largest largest;
  for (uint32_t i = 0; i < mem.size(); ++i) {
    Wide b = mem.bytes[i];
    bytes += b < 0 ? -b : b;
    if (b > kMaxTraceTotal / 1024 || -b > kMaxTraceTotal / 1024)
      largest.Add(static_cast<int64_t>(b < 0 ? -b : b), i);
  }
  if (bytes > kMaxTraceTotal) {
    std::string records;
    for (const auto& [b, i] : largest.top())
      records += fmt::format("{}{} bytes at {} ns", records.empty() ? "" : ", ", mem.bytes[i],
                             mem.ts_ns[i]);
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: the memory records' sizes add up to {} bytes, past the 2^61 "
                              "bytes (2 EiB) that profana's sums hold: the sizes cannot be right "
                              "(the largest: {})",
                              name, Int128Text(bytes), records));
  }
  return Status::Ok();
}

}  // namespace profana
