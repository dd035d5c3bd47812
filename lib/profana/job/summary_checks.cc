#include "profana/job/summary_checks.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "fmt/format.h"
#include "profana/model/trace.h"

namespace profana::job {
namespace {

Status Wrong(const std::string& field, const std::string& what) {
  return Status(ErrorCode::kMalformed, fmt::format("{}: {}", field, what));
}

// A time on a trace's clock, as every importer keeps them (model/trace.h).
Status Time(const std::string& field, int64_t ns) {
  if (TimeInRange(ns)) return Status::Ok();
  return Wrong(field, fmt::format("{} ns is out of range (times lie within +-2^62 ns)", ns));
}

// A length of time: the difference of two times.
Status Length(const std::string& field, int64_t ns) {
  if (ns >= 0) return Status::Ok();
  return Wrong(field, fmt::format("{} ns is negative: not a length of time", ns));
}

// A float sum beside its exact integer: PyTorch's float microseconds differ from ns / 1000 by
// rounding only: under a nanosecond per event added (a legacy trace's float times rounded to
// nanoseconds), and a millionth of the sum for the children a self time subtracts.
Status Derived(const std::string& field, double us, int64_t ns, int64_t count) {
  double exact = static_cast<double>(ns) / 1000.0;
  double tolerance = 1e-3 * (static_cast<double>(count) + 1) + 1e-6 * std::fabs(exact);
  if (std::isfinite(us) && std::fabs(us - exact) <= tolerance) return Status::Ok();
  return Wrong(field, fmt::format("{} us disagrees with the exact sum beside it ({} ns)", us, ns));
}

using Wide = __int128;

Status Stats(const std::string& where, const DurationStats& d) {
  if (d.count() == 0) {
    if (d.sum() != 0 || d.sum_squares() != 0)
      return Wrong(where + ".sum", "not 0 for a count of 0");
    return Status::Ok();
  }
  if (d.min() < 0)
    return Wrong(where + ".min", fmt::format("{} ns: durations are not negative", d.min()));
  if (d.exact()) {
    const auto& values = d.exact_values();
    if (values.begin()->first != d.min())
      return Wrong(where + ".min",
                   fmt::format("{}, but the shortest value is {}", d.min(), values.begin()->first));
    if (values.rbegin()->first != d.max())
      return Wrong(where + ".max",
                   fmt::format("{}, but the longest value is {}", d.max(), values.rbegin()->first));
    Wide sum = 0, squares = 0;
    for (const auto& [v, n] : values) {
      Wide sq;  // v n fits in 128 bits (both are under 2^63); v^2 n and the sums may not
      if (__builtin_add_overflow(sum, static_cast<Wide>(v) * n, &sum) ||
          __builtin_mul_overflow(static_cast<Wide>(v) * v, static_cast<Wide>(n), &sq) ||
          __builtin_add_overflow(squares, sq, &squares))
        return Wrong(where + ".sum_squares", "the values' squares do not fit in 128 bits");
    }
    if (sum != d.sum()) return Wrong(where + ".sum", "disagrees with the values and their counts");
    if (squares != d.sum_squares())
      return Wrong(where + ".sum_squares", "disagrees with the values and their counts");
    return Status::Ok();
  }
  Wide n = d.count();
  if (d.sum() < n * d.min() || d.sum() > n * d.max())
    return Wrong(where + ".sum", "outside count x min .. count x max");
  Wide lo, hi;  // count x min^2 and count x max^2, when they fit in 128 bits
  if (!__builtin_mul_overflow(n * d.min(), static_cast<Wide>(d.min()), &lo) &&
      !__builtin_mul_overflow(n * d.max(), static_cast<Wide>(d.max()), &hi) &&
      (d.sum_squares() < lo || d.sum_squares() > hi))
    return Wrong(where + ".sum_squares", "outside count x min^2 .. count x max^2");
  return Status::Ok();
}

template <typename Map, typename Get>
Status StatsMap(const std::string& where, const Map& map, Get get) {
  size_t i = 0;
  for (const auto& [name, v] : map)
    PROFANA_RETURN_IF_ERROR(Stats(fmt::format("{}[{}].stats", where, i++), get(v)));
  return Status::Ok();
}

Status Rows(const char* key, const std::vector<passes::AverageRow>& rows,
            const std::vector<RowOrigin>& origin, const std::set<int64_t>& ranks) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const passes::AverageRow& r = rows[i];
    std::string where = fmt::format("{}[{}]", key, i);
    if (!ranks.count(origin[i].rank))
      return Wrong(where + ".origin",
                   fmt::format("rank {} is not a rank of the sources", origin[i].rank));
    if (origin[i].position < 0) return Wrong(where + ".origin", "negative position");
    if (i > 0 && !(origin[i - 1] < origin[i]))
      return Wrong(where + ".origin", "not after the row before it (rows are by origin)");
    if (r.count < 0) return Wrong(where + ".count", "negative");
    if (r.cpu_total_ns < 0) return Wrong(where + ".cpu_total_ns", "negative");
    if (r.cuda_total_ns < 0) return Wrong(where + ".cuda_total_ns", "negative");
    PROFANA_RETURN_IF_ERROR(
        Derived(where + ".cpu_total_us", r.cpu_total_us, r.cpu_total_ns, r.count));
    PROFANA_RETURN_IF_ERROR(Derived(where + ".self_cpu_us", r.self_cpu_us, r.self_cpu_ns, r.count));
    PROFANA_RETURN_IF_ERROR(
        Derived(where + ".cuda_total_us", r.cuda_total_us, r.cuda_total_ns, r.count));
    PROFANA_RETURN_IF_ERROR(
        Derived(where + ".self_cuda_us", r.self_cuda_us, r.self_cuda_ns, r.count));
  }
  return Status::Ok();
}

Status Steps(const RankSummary& s, const std::set<int64_t>& ranks) {
  for (size_t i = 0; i < s.steps.size(); ++i) {
    const RankStep& st = s.steps[i];
    const StepRow& r = st.row;
    std::string where = fmt::format("steps[{}]", i);
    if (!ranks.count(st.rank))
      return Wrong(where + ".rank", fmt::format("{} is not a rank of the sources", st.rank));
    if (i > 0) {
      const RankStep& p = s.steps[i - 1];
      if (std::tie(p.rank, p.row.step) >= std::tie(st.rank, r.step))
        return Wrong(where,
                     fmt::format("rank {} step {} comes twice, or not after the step before it "
                                 "(steps are by rank, then step)",
                                 st.rank, r.step));
    }
    if (r.step < 0) return Wrong(where + ".step", "negative");
    PROFANA_RETURN_IF_ERROR(Time(where + ".start_ns", r.start_ns));
    std::pair<const char*, int64_t> lengths[] = {{"wall_ns", r.wall_ns},
                                                 {"host_ns", r.host_ns},
                                                 {"host_untraced_ns", r.host_untraced_ns},
                                                 {"host_dataloader_ns", r.host_dataloader_ns},
                                                 {"host_optimizer_ns", r.host_optimizer_ns},
                                                 {"host_sync_ns", r.host_sync_ns}};
    for (const auto& [field, ns] : lengths)
      PROFANA_RETURN_IF_ERROR(Length(where + "." + field, ns));
    for (const auto& [field, ns] : lengths)
      if (lengths[1].second < ns && field != lengths[0].first && field != lengths[1].first)
        return Wrong(where + "." + field,
                     "longer than host_ns, the step's host time it is part of");
    std::set<int32_t> seen;
    for (size_t d = 0; d < r.devices.size(); ++d) {
      const StepDevice& v = r.devices[d];
      std::string dw = fmt::format("{}.devices[{}]", where, d);
      if (!seen.insert(v.device).second) return Wrong(dw + ".device", "appears twice");
      std::pair<const char*, int64_t> parts[] = {{"compute_ns", v.compute_ns},
                                                 {"comm_exposed_ns", v.comm_exposed_ns},
                                                 {"memory_exposed_ns", v.memory_exposed_ns},
                                                 {"idle_ns", v.idle_ns},
                                                 {"comm_ns", v.comm_ns},
                                                 {"comm_hidden_ns", v.comm_hidden_ns}};
      for (const auto& [field, ns] : parts) PROFANA_RETURN_IF_ERROR(Length(dw + "." + field, ns));
      std::pair<const char*, int64_t> copies[] = {{"copy_overlap count", v.copy_overlap_count},
                                                  {"copy_overlap ns", v.copy_overlap_ns},
                                                  {"copy_stall count", v.copy_stall_count},
                                                  {"copy_stall ns", v.copy_stall_ns}};
      for (const auto& [field, n] : copies)
        if (n < 0) return Wrong(dw + "." + field, "negative");
      // The FLOPs' sums: finite, not negative, and those without a peak part of all of them.
      for (double x : {v.use.flops, v.use.peak_ns, v.use.unpeaked_flops})
        if (!std::isfinite(x) || x < 0)
          return Wrong(dw, "flops, peak_ns and unpeaked_flops must be numbers >= 0");
      if (v.use.unpeaked_flops > v.use.flops)
        return Wrong(dw + ".unpeaked_flops", "more than flops, of which it is a part");
      if (v.device < 0) continue;  // no device activity: nothing to add up
      if (static_cast<Wide>(v.compute_ns) + v.comm_exposed_ns + v.memory_exposed_ns + v.idle_ns !=
          r.wall_ns)
        return Wrong(dw, fmt::format("compute, exposed communication and memory, and idle time add "
                                     "up to {} ns, not the step's wall_ns {}",
                                     static_cast<Wide>(v.compute_ns) + v.comm_exposed_ns +
                                                 v.memory_exposed_ns + v.idle_ns >
                                             INT64_MAX
                                         ? std::string("more than 2^63")
                                         : std::to_string(v.compute_ns + v.comm_exposed_ns +
                                                          v.memory_exposed_ns + v.idle_ns),
                                     r.wall_ns));
      if (static_cast<Wide>(v.comm_exposed_ns) + v.comm_hidden_ns != v.comm_ns)
        return Wrong(dw + ".comm_ns", "not comm_exposed_ns + comm_hidden_ns");
    }
  }
  return Status::Ok();
}

Status Collectives(const RankSummary& s) {
  for (size_t i = 0; i < s.collectives.size(); ++i)
    for (size_t c = 0; c < s.collectives[i].calls.size(); ++c) {
      const CollectiveCall& call = s.collectives[i].calls[c];
      std::string where = fmt::format("collectives[{}].calls[{}]", i, c);
      PROFANA_RETURN_IF_ERROR(Time(where + ".start_ns", call.start_ns));
      PROFANA_RETURN_IF_ERROR(Time(where + ".end_ns", call.end_ns));
    }
  return Status::Ok();
}

}  // namespace

Status CheckSummary(const RankSummary& s) {
  std::set<int64_t> ranks;
  for (size_t i = 0; i < s.sources.size(); ++i) {
    const SourceInfo& src = s.sources[i];
    if (!ranks.insert(src.rank).second)
      return Wrong(fmt::format("sources[{}].rank", i),
                   fmt::format("rank {} is held by two sources", src.rank));
    if (src.world_size < -1 || src.world_size == 0)
      return Wrong(fmt::format("sources[{}].world_size", i), "-1 (not recorded) or positive");
  }
  PROFANA_RETURN_IF_ERROR(Rows("table", s.rows, s.row_origin, ranks));
  PROFANA_RETURN_IF_ERROR(Rows("table_by_shape", s.shape_rows, s.shape_row_origin, ranks));
  PROFANA_RETURN_IF_ERROR(Steps(s, ranks));
  auto kernel = [](const KernelStat& k) -> const DurationStats& { return k.duration; };
  PROFANA_RETURN_IF_ERROR(StatsMap("kernels.kernels", s.kernels.kernels, kernel));
  PROFANA_RETURN_IF_ERROR(StatsMap("kernels.by_op", s.kernels.by_op, kernel));
  PROFANA_RETURN_IF_ERROR(
      StatsMap("kernels.api", s.kernels.api,
               [](const DurationStats& d) -> const DurationStats& { return d; }));
  PROFANA_RETURN_IF_ERROR(Collectives(s));
  if (!s.memory_peaks.empty() && !s.has_memory_records)
    return Wrong("memory_peaks", "present, but has_memory_records is false");
  for (size_t i = 0; i < s.memory_peaks.size(); ++i)
    if (s.memory_peaks[i].peak_bytes < 0)
      return Wrong(fmt::format("memory_peaks[{}].peak_bytes", i), "negative");
  return CheckTotalsFit(s);
}

}  // namespace profana::job
