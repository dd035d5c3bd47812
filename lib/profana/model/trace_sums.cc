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

// Ok, or kMalformed when the sizes size(i), i < n, add up (as magnitudes) past kMaxTraceTotal;
// `what` names them, place(i) each of the largest.
template <typename Size, typename Place>
Status CheckSizesFit(uint32_t n, Size size, Place place, std::string_view what,
                     const std::string& name) {
  Wide bytes = 0;
  Largest largest;
  for (uint32_t i = 0; i < n; ++i) {
    Wide b = size(i);
    bytes += b < 0 ? -b : b;
    if (b > kMaxTraceTotal / 1024 || -b > kMaxTraceTotal / 1024)
      largest.Add(static_cast<int64_t>(b < 0 ? -b : b), i);
  }
  if (bytes <= kMaxTraceTotal) return Status::Ok();
  std::string records;
  for (const auto& [b, i] : largest.top())
    records += fmt::format("{}{}", records.empty() ? "" : ", ", place(i));
  return Status(ErrorCode::kMalformed,
                fmt::format("{}: {} add up to {} bytes, past the 2^61 bytes (2 EiB) that "
                            "profana's sums hold: the sizes cannot be right (the largest: {})",
                            name, what, Int128Text(bytes), records));
}

// The size a copy or memset recorded; 0 for other events and where none was recorded.
int64_t CopySize(const Trace& t, uint32_t e) {
  uint32_t row = t.events.device_args[e];
  return row == kNoDeviceArgs ? 0 : std::max<int64_t>(t.device_args.bytes[row], 0);
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
  PROFANA_RETURN_IF_ERROR(CheckSizesFit(
      mem.size(), [&](uint32_t i) { return mem.bytes[i]; },
      [&](uint32_t i) { return fmt::format("{} bytes at {} ns", mem.bytes[i], mem.ts_ns[i]); },
      "the memory records' sizes", name));
  // Copies and memsets: their sizes add up in the kernel statistics (job/kernel_stats.h).
  return CheckSizesFit(
      ev.size(), [&](uint32_t e) { return CopySize(t, e); },
      [&](uint32_t e) {
        return fmt::format("\"{}\" {} bytes at {} ns", t.str(ev.trace_name[e]), CopySize(t, e),
                           ev.start_ns[e]);
      },
      "the copies' and memsets' sizes", name);
}

}  // namespace profana
