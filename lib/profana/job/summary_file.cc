#include "profana/job/summary_file.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <limits>
#include <tuple>

#include "fmt/format.h"
#include "profana/base/byte_source.h"
#include "profana/base/input_buffer.h"
#include "profana/base/int_sum.h"
#include "profana/base/json_reader.h"
#include "profana/base/json_writer.h"
#include "profana/job/collective_analysis.h"
#include "profana/job/summary_checks.h"
#include "simdjson.h"

namespace profana::job {
namespace {

// ---- writing ----------------------------------------------------------------------------------

// One line per source, row, step, kernel and stack (JsonLayout::kSpaced, broken before each).

// "key": [a, b, ...], integers.
template <typename Ints>
void WriteInts(const char* key, const Ints& values, JsonWriter& w) {
  w.Key(key).BeginArray();
  for (auto x : values) w.Int(x);
  w.EndArray();
}
void WriteInts(const char* key, std::initializer_list<int64_t> values, JsonWriter& w) {
  WriteInts<std::initializer_list<int64_t>>(key, values, w);
}

void WriteStats(const DurationStats& d, JsonWriter& w) {
  w.BeginObject();
  w.Key("count").Int(d.count());
  w.Key("sum").Int(d.sum());
  w.Key("sum_squares").String(Int128Text(d.sum_squares()));
  w.Key("min").Int(d.min());
  w.Key("max").Int(d.max());
  auto pairs = [&](const char* key, const auto& map) {
    w.Key(key).BeginArray();
    for (const auto& [k, n] : map) w.BeginArray().Int(k).Int(n).EndArray();
    w.EndArray();
  };
  if (d.exact())
    pairs("exact", d.exact_values());
  else
    pairs("sketch", d.sketch_buckets());
  w.EndObject();
}

void WriteRows(const char* key, const RankSummary& s, const std::vector<passes::AverageRow>& rows,
               const std::vector<RowOrigin>& origin, JsonWriter& w) {
  w.Break(0).Key(key).BeginArray();
  for (size_t i = 0; i < rows.size(); ++i) {
    const passes::AverageRow& r = rows[i];
    w.Break(1).BeginObject();
    w.Key("name").String(s.strings.Get(r.key));
    w.Key("device_type").String(r.device_type == passes::DeviceType::kCUDA ? "cuda" : "cpu");
    w.Key("legacy").Bool(r.legacy);
    w.Key("user_annotation").Bool(r.user_annotation);
    w.Key("annotation").Bool(r.annotation);
    w.Key("is_async").Bool(r.is_async);
    w.Key("input_shapes").String(s.strings.Get(r.input_shapes));
    w.Key("shapes_shown").Bool(r.shapes_shown);
    w.Key("stack").BeginArray();
    for (StringId f : r.stack) w.String(s.strings.Get(f));
    w.EndArray();
    w.Key("top_level").Bool(r.top_level);
    WriteInts("origin", {origin[i].rank, origin[i].position}, w);
    w.Key("count").Int(r.count);
    w.Key("cpu_total_us").Double(r.cpu_total_us);
    w.Key("self_cpu_us").Double(r.self_cpu_us);
    w.Key("cuda_total_us").Double(r.cuda_total_us);
    w.Key("self_cuda_us").Double(r.self_cuda_us);
    w.Key("cpu_total_ns").Int(r.cpu_total_ns);
    w.Key("self_cpu_ns").Int(r.self_cpu_ns);
    w.Key("cuda_total_ns").Int(r.cuda_total_ns);
    w.Key("self_cuda_ns").Int(r.self_cuda_ns);
    w.Key("cpu_memory").Int(r.cpu_memory);
    w.Key("self_cpu_memory").Int(r.self_cpu_memory);
    w.Key("cuda_memory").Int(r.cuda_memory);
    w.Key("self_cuda_memory").Int(r.self_cuda_memory);
    // Written where there is a count, so that summaries of traces without one keep their bytes.
    if (r.flops) w.Key("flops").UInt(r.flops);
    w.EndObject();
  }
  w.EndArray();
}

// A row's launch record (job/kernel_stats.h), a key added within version 1.
void WriteLaunch(const LaunchStat& l, JsonWriter& w) {
  w.Key("launch").BeginObject();
  w.Key("blocks_per_sm_ns").String(Int128Text(l.blocks_per_sm_ns));
  w.Key("blocks_per_sm_weight_ns").Int(l.blocks_per_sm_weight_ns);
  w.Key("occupancy_ns").String(Int128Text(l.occupancy_ns));
  w.Key("occupancy_weight_ns").Int(l.occupancy_weight_ns);
  w.Key("tensor_core_ns").Int(l.tensor_core_ns);
  WriteInts("registers", {l.registers_min, l.registers_max}, w);
  WriteInts("shared_memory", {l.shared_memory_min, l.shared_memory_max}, w);
  w.Key("bytes").Int(l.bytes);
  w.Key("bytes_ns").Int(l.bytes_ns);
  w.Key("bytes_count").Int(l.bytes_count);
  w.Key("shapes").BeginArray();
  for (const auto& [shape, d] : l.shapes) {
    w.BeginObject();
    WriteInts("grid", shape.grid, w);
    WriteInts("block", shape.block, w);
    w.Key("stats");
    WriteStats(d, w);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void WriteKernelMap(const char* key, const std::map<std::string, KernelStat>& map, JsonWriter& w) {
  w.Key(key).BeginArray();
  for (const auto& [name, k] : map) {
    w.Break(1).BeginObject();
    w.Key("name").String(name);
    w.Key("category").String(KernelCategoryName(k.category));
    w.Key("stats");
    WriteStats(k.duration, w);
    WriteLaunch(k.launch, w);
    if (k.flops > 0) w.Key("flops").Int(k.flops);
    w.EndObject();
  }
  w.EndArray();
}

// A step device's efficiency sums (job/step_breakdown.h), keys added within version 1.
void WriteStepEfficiency(const StepDevice& v, JsonWriter& w) {
  const passes::DeviceUse& u = v.use;
  w.Key("memory_ns").Int(v.memory_ns);
  w.Key("kernel_ns").Int(u.kernel_ns);
  w.Key("tensor_core_ns").Int(u.tensor_core_ns);
  w.Key("sm_busy_ns");
  u.sm_busy_ns < 0 ? w.Null() : w.Double(u.sm_busy_ns);
  w.Key("occupancy_ns").Double(u.occupancy_ns);
  w.Key("occupancy_weight_ns").Int(u.occupancy_weight_ns);
  w.Key("copies").BeginObject();
  WriteInts("count", u.copies.count, w);
  WriteInts("bytes", u.copies.bytes, w);
  WriteInts("ns", u.copies.ns, w);
  w.Key("pageable_bytes").Int(u.copies.pageable_bytes);
  w.Key("pinned_bytes").Int(u.copies.pinned_bytes);
  w.EndObject();
  w.Key("flops").Double(u.flops);
  w.Key("peak_ns").Double(u.peak_ns);
  w.Key("unpeaked_flops").Double(u.unpeaked_flops);
  WriteInts("copy_overlap", {v.copy_overlap_count, v.copy_overlap_ns}, w);
  WriteInts("copy_stall", {v.copy_stall_count, v.copy_stall_ns}, w);
}

void WriteMemoryPeaks(const RankSummary& s, JsonWriter& w) {
  auto optional = [&](int64_t v) { v < 0 ? w.Null() : w.Int(v); };
  w.Break(0).Key("memory_peaks").BeginArray();
  for (const MemoryPeak& p : s.memory_peaks) {
    w.Break(1).BeginObject();
    w.Key("rank").Int(p.rank);
    w.Key("device").String(p.device);
    w.Key("records").Int(p.records);
    w.Key("peak_bytes").Int(p.peak_bytes);
    w.Key("max_total_allocated"), optional(p.max_total_allocated);
    w.Key("max_total_reserved"), optional(p.max_total_reserved);
    w.EndObject();
  }
  w.EndArray();
}

void WriteCollectives(const RankSummary& s, JsonWriter& w) {
  w.Break(0).Key("collectives").BeginArray();
  for (const RankCollectives& rc : s.collectives) {
    w.Break(1).BeginObject();
    w.Key("rank").Int(rc.rank);
    w.Key("process_groups").BeginArray();
    for (const ProcessGroup& pg : rc.groups) {
      w.BeginObject();
      w.Key("name").String(pg.name);
      w.Key("ranks").String(pg.ranks);
      w.Key("size").Int(pg.size);
      w.Key("calls").Int(pg.calls);
      w.EndObject();
    }
    w.EndArray();
    w.Break(2).Key("calls").BeginArray();
    std::vector<int64_t> order = OrderInGroup(rc.calls);
    for (size_t c = 0; c < rc.calls.size(); ++c) {
      const CollectiveCall& call = rc.calls[c];
      w.Break(2).BeginObject();
      w.Key("seq").Int(order[c]);
      w.Key("kind").String(CollectiveKindName(call.kind));
      w.Key("label").String(call.label);
      w.Key("group").String(call.group);
      w.Key("start_ns").Int(call.start_ns);
      w.Key("end_ns").Int(call.end_ns);
      w.Key("bytes").Int(call.bytes);
      w.Key("dtype").String(call.dtype);
      w.Key("group_size").Int(call.group_size);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

// ---- reading ----------------------------------------------------------------------------------

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// Each element of `a` as an object, named `name[i]` in faults, handed to read(o, where, i); the
// walk stops at the first fault.
template <typename Read>
void ReadObjects(JsonReader& r, array a, std::string_view name, Read&& read) {
  size_t i = 0;
  for (element e : a) {
    std::string where = fmt::format("{}[{}]", name, i);
    object o = r.Object(e, where);
    if (!r.ok()) return;
    read(o, where, i++);
    if (!r.ok()) return;
  }
}

// The efficiency sums of a step device; a summary written before them has none (they stay 0,
// and the SM efficiency unknown).
void ReadStepEfficiency(JsonReader& r, object dev, const std::string& where, StepDevice* v) {
  element e;
  if (!r.ok() || dev["kernel_ns"].get(e)) return;
  v->memory_ns = r.Int(dev, "memory_ns", where);
  v->use.kernel_ns = r.Int(dev, "kernel_ns", where);
  v->use.tensor_core_ns = r.Int(dev, "tensor_core_ns", where);
  element busy = r.Field(dev, "sm_busy_ns", where);
  if (r.ok() && !busy.is_null() &&
      (busy.get_double().get(v->use.sm_busy_ns) || v->use.sm_busy_ns < 0))
    r.Fail(where + ".sm_busy_ns", "expected a number >= 0 or null");
  v->use.occupancy_ns = r.Double(dev, "occupancy_ns", where);
  v->use.occupancy_weight_ns = r.Int(dev, "occupancy_weight_ns", where);
  object copies = r.Object(r.Field(dev, "copies", where), where + ".copies");
  auto list = [&](const char* key, int64_t(&out)[passes::kCopyDirections]) {
    array a = r.Array(copies, key, where + ".copies");
    if (!r.ok()) return;
    if (a.size() != passes::kCopyDirections) {
      r.Fail(fmt::format("{}.copies.{}", where, key),
             fmt::format("expected {} integers", passes::kCopyDirections));
      return;
    }
    size_t i = 0;
    for (element x : a)
      if (x.get_int64().get(out[i++]))
        r.Fail(fmt::format("{}.copies.{}", where, key), "expected integers");
  };
  list("count", v->use.copies.count);
  list("bytes", v->use.copies.bytes);
  list("ns", v->use.copies.ns);
  v->use.copies.pageable_bytes = r.Int(copies, "pageable_bytes", where + ".copies");
  v->use.copies.pinned_bytes = r.Int(copies, "pinned_bytes", where + ".copies");
  // The FLOPs and the copies' overlap with computation; a summary written before them has none
  // (no FLOPs, no copy counted either way).
  if (!r.ok() || dev["flops"].get(e)) return;
  v->use.flops = r.Double(dev, "flops", where);
  v->use.peak_ns = r.Double(dev, "peak_ns", where);
  v->use.unpeaked_flops = r.Double(dev, "unpeaked_flops", where);
  std::tie(v->copy_overlap_count, v->copy_overlap_ns) =
      r.Pair(r.Field(dev, "copy_overlap", where), where + ".copy_overlap");
  std::tie(v->copy_stall_count, v->copy_stall_ns) =
      r.Pair(r.Field(dev, "copy_stall", where), where + ".copy_stall");
}

bool ParseInt128(std::string_view s, __int128* out) {
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  if (s.empty() || s.size() > 39) return false;
  __int128 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    if (v > (std::numeric_limits<__int128>::max() - (c - '0')) / 10) return false;
    v = v * 10 + (c - '0');
  }
  *out = negative ? -v : v;
  return true;
}

DurationStats ReadStats(JsonReader& r, element e, const std::string& where) {
  object o = r.Object(e, where);
  DurationStats d;
  if (!r.ok()) return d;
  int64_t count = r.Int(o, "count", where), sum = r.Int(o, "sum", where);
  int64_t min = r.Int(o, "min", where), max = r.Int(o, "max", where);
  __int128 squares = 0;
  std::string_view sq = r.String(o, "sum_squares", where);
  if (r.ok() && !ParseInt128(sq, &squares))
    r.Fail(where + ".sum_squares", "expected a decimal integer");
  std::map<int64_t, int64_t> exact;
  std::map<int32_t, int64_t> sketch;
  element values;
  if (!o["exact"].get(values)) {
    array a = r.Array(o, "exact", where);
    if (r.ok())
      for (element v : a) {
        auto [k, n] = r.Pair(v, where + ".exact");
        if (r.ok() && !exact.empty() && k <= exact.rbegin()->first)
          r.Fail(where + ".exact", "durations are listed once each, in increasing order");
        exact[k] = n;
      }
  } else {
    array a = r.Array(o, "sketch", where);
    if (r.ok())
      for (element v : a) {
        auto [k, n] = r.Pair(v, where + ".sketch");
        if (k < std::numeric_limits<int32_t>::min() || k > std::numeric_limits<int32_t>::max())
          r.Fail(where + ".sketch", "bucket out of range");
        if (r.ok() && !sketch.empty() && k <= sketch.rbegin()->first)
          r.Fail(where + ".sketch", "buckets are listed once each, in increasing order");
        sketch[static_cast<int32_t>(k)] = n;
      }
  }
  if (r.ok() && !DurationStats::Restore(count, sum, squares, min, max, std::move(exact),
                                        std::move(sketch), &d))
    r.Fail(where, "counts, extremes and values do not agree");
  return d;
}

void ReadRows(JsonReader& r, object root, std::string_view key, RankSummary* s,
              std::vector<passes::AverageRow>* rows, std::vector<RowOrigin>* origin) {
  array a = r.Array(root, key, "summary");
  if (!r.ok()) return;
  ReadObjects(r, a, key, [&](object o, const std::string& where, size_t) {
    passes::AverageRow row;
    row.key = s->strings.Intern(r.String(o, "name", where));
    std::string_view device = r.String(o, "device_type", where);
    if (r.ok() && device != "cpu" && device != "cuda")
      r.Fail(where + ".device_type", "expected \"cpu\" or \"cuda\"");
    row.device_type = device == "cuda" ? passes::DeviceType::kCUDA : passes::DeviceType::kCPU;
    row.legacy = r.Bool(o, "legacy", where);
    row.user_annotation = r.OptionalBool(o, "user_annotation", where);
    row.annotation = r.OptionalBool(o, "annotation", where);
    row.is_async = r.OptionalBool(o, "is_async", where);
    row.input_shapes = s->strings.Intern(r.String(o, "input_shapes", where));
    row.shapes_shown = r.Bool(o, "shapes_shown", where);
    array stack = r.Array(o, "stack", where);
    if (r.ok())
      for (element f : stack) {
        std::string_view frame;
        if (f.get_string().get(frame)) r.Fail(where + ".stack", "expected strings");
        row.stack.push_back(s->strings.Intern(frame));
      }
    row.top_level = r.Bool(o, "top_level", where);
    auto [rank, position] = r.Pair(r.Field(o, "origin", where), where + ".origin");
    row.count = r.Int(o, "count", where);
    row.cpu_total_us = r.Double(o, "cpu_total_us", where);
    row.self_cpu_us = r.Double(o, "self_cpu_us", where);
    row.cuda_total_us = r.Double(o, "cuda_total_us", where);
    row.self_cuda_us = r.Double(o, "self_cuda_us", where);
    row.cpu_total_ns = r.Int(o, "cpu_total_ns", where);
    row.self_cpu_ns = r.Int(o, "self_cpu_ns", where);
    row.cuda_total_ns = r.Int(o, "cuda_total_ns", where);
    row.self_cuda_ns = r.Int(o, "self_cuda_ns", where);
    row.cpu_memory = r.Int(o, "cpu_memory", where);
    row.self_cpu_memory = r.Int(o, "self_cpu_memory", where);
    row.cuda_memory = r.Int(o, "cuda_memory", where);
    row.self_cuda_memory = r.Int(o, "self_cuda_memory", where);
    row.flops = r.OptionalUInt(o, "flops", where);
    if (r.ok() && row.count < 0) r.Fail(where + ".count", "negative");
    if (!r.ok()) return;
    rows->push_back(std::move(row));
    origin->push_back({rank, position});
  });
}

std::optional<KernelCategory> CategoryNamed(std::string_view name) {
  for (int c = 0; c <= static_cast<int>(KernelCategory::kMixed); ++c)
    if (name == KernelCategoryName(static_cast<KernelCategory>(c)))
      return static_cast<KernelCategory>(c);
  return std::nullopt;
}

void ReadLaunch(JsonReader& r, element e, const std::string& where, LaunchStat* l) {
  object o = r.Object(e, where);
  if (!r.ok()) return;
  auto int128 = [&](const char* key, __int128* out) {
    std::string_view text = r.String(o, key, where);
    if (r.ok() && (!ParseInt128(text, out) || *out < 0))
      r.Fail(where + "." + key, "expected a decimal integer >= 0 in a string");
  };
  int128("blocks_per_sm_ns", &l->blocks_per_sm_ns);
  l->blocks_per_sm_weight_ns = r.Int(o, "blocks_per_sm_weight_ns", where);
  int128("occupancy_ns", &l->occupancy_ns);
  l->occupancy_weight_ns = r.Int(o, "occupancy_weight_ns", where);
  l->tensor_core_ns = r.Int(o, "tensor_core_ns", where);
  auto range = [&](const char* key, int32_t* lo, int32_t* hi) {
    std::pair<int64_t, int64_t> p = r.Pair(r.Field(o, key, where), where + "." + key);
    if (!r.ok()) return;
    if (p.first < -1 || p.second < -1 || p.first > INT32_MAX || p.second > INT32_MAX)
      return r.Fail(where + "." + key, "out of range");
    *lo = static_cast<int32_t>(p.first), *hi = static_cast<int32_t>(p.second);
  };
  range("registers", &l->registers_min, &l->registers_max);
  range("shared_memory", &l->shared_memory_min, &l->shared_memory_max);
  l->bytes = r.Int(o, "bytes", where);
  l->bytes_ns = r.Int(o, "bytes_ns", where);
  l->bytes_count = r.Int(o, "bytes_count", where);
  array shapes = r.Array(o, "shapes", where);
  size_t i = 0;
  if (r.ok())
    for (element se : shapes) {
      std::string sw = fmt::format("{}.shapes[{}]", where, i++);
      object so = r.Object(se, sw);
      if (!r.ok()) return;
      LaunchShape shape;
      auto dims = [&](const char* key, int32_t(&out)[3]) {
        array a = r.Array(so, key, sw);
        if (!r.ok()) return;
        if (a.size() != 3) return r.Fail(sw + "." + key, "expected 3 integers");
        size_t d = 0;
        for (element x : a) {
          int64_t v = 0;
          if (x.get_int64().get(v) || v < -1 || v > INT32_MAX)
            return r.Fail(sw + "." + key, "expected integers from -1 to 2^31 - 1");
          out[d++] = static_cast<int32_t>(v);
        }
      };
      dims("grid", shape.grid);
      dims("block", shape.block);
      DurationStats d = ReadStats(r, r.Field(so, "stats", sw), sw + ".stats");
      if (!r.ok()) return;
      if (!l->shapes[shape].Merge(d))
        return r.Fail(sw + ".stats", "the sums of its launches pass what 64 (128) bits hold");
    }
}

void ReadKernelMap(JsonReader& r, object kernels, std::string_view key,
                   std::map<std::string, KernelStat>* out, bool with_category) {
  array a = r.Array(kernels, key, "kernels");
  if (!r.ok()) return;
  std::string at = fmt::format("kernels.{}", key);
  ReadObjects(r, a, at, [&](object o, const std::string& where, size_t) {
    KernelStat k;
    std::string name(r.String(o, "name", where));
    if (with_category) {
      std::string_view category = r.String(o, "category", where);
      std::optional<KernelCategory> c = CategoryNamed(category);
      if (r.ok() && !c) r.Fail(where + ".category", fmt::format("unknown \"{}\"", category));
      if (c) k.category = *c;
    }
    k.duration = ReadStats(r, r.Field(o, "stats", where), where + ".stats");
    element launch;
    if (r.ok() && !o["launch"].get(launch)) ReadLaunch(r, launch, where + ".launch", &k.launch);
    uint64_t flops = r.OptionalUInt(o, "flops", where);
    if (r.ok() && flops > static_cast<uint64_t>(INT64_MAX)) r.Fail(where + ".flops", "above 2^63");
    k.flops = static_cast<int64_t>(flops);
    if (!r.ok()) return;
    if (!out->emplace(std::move(name), std::move(k)).second)
      r.Fail(where + ".name", "appears twice");
  });
}

std::optional<CollectiveKind> KindNamed(std::string_view name) {
  for (int k = 0; k <= static_cast<int>(CollectiveKind::kOther); ++k)
    if (name == CollectiveKindName(static_cast<CollectiveKind>(k)))
      return static_cast<CollectiveKind>(k);
  return std::nullopt;
}

// The distinct ranks of the sources, ascending.
std::vector<int64_t> SourceRanks(const RankSummary& s) {
  std::vector<int64_t> out;
  for (const SourceInfo& src : s.sources) out.push_back(src.rank);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void ReadMemoryPeaks(JsonReader& r, array a, RankSummary* s) {
  std::vector<int64_t> ranks = SourceRanks(*s);
  ReadObjects(r, a, "memory_peaks", [&](object o, const std::string& where, size_t) {
    MemoryPeak p;
    p.rank = r.Int(o, "rank", where);
    p.device = r.String(o, "device", where);
    p.records = r.Int(o, "records", where);
    p.peak_bytes = r.Int(o, "peak_bytes", where);
    p.max_total_allocated = r.OptionalCount(o, "max_total_allocated", where);
    p.max_total_reserved = r.OptionalCount(o, "max_total_reserved", where);
    if (r.ok() && !std::binary_search(ranks.begin(), ranks.end(), p.rank))
      r.Fail(where + ".rank", "not a rank of the sources");
    if (r.ok() && p.records < 0) r.Fail(where + ".records", "negative");
    if (r.ok() && !s->memory_peaks.empty() &&
        std::tie(p.rank, p.device) <=
            std::tie(s->memory_peaks.back().rank, s->memory_peaks.back().device))
      r.Fail(where, "not after the one before it (by rank, then device)");
    if (!r.ok()) return;
    s->memory_peaks.push_back(std::move(p));
  });
}

void ReadCalls(JsonReader& r, array a, const std::string& at, RankCollectives* rc) {
  std::vector<int64_t> seqs;
  ReadObjects(r, a, at + ".calls", [&](object o, const std::string& where, size_t) {
    CollectiveCall c;
    int64_t seq = r.Int(o, "seq", where);
    std::string_view kind = r.String(o, "kind", where);
    std::optional<CollectiveKind> k = KindNamed(kind);
    if (r.ok() && !k) r.Fail(where + ".kind", fmt::format("unknown \"{}\"", kind));
    if (k) c.kind = *k;
    c.label = r.String(o, "label", where);
    c.group = r.String(o, "group", where);
    c.start_ns = r.Int(o, "start_ns", where);
    c.end_ns = r.Int(o, "end_ns", where);
    c.bytes = r.Int(o, "bytes", where);
    c.dtype = r.String(o, "dtype", where);
    c.group_size = r.Int(o, "group_size", where);
    if (r.ok() && c.end_ns < c.start_ns) r.Fail(where + ".end_ns", "before start_ns");
    if (r.ok() && !rc->calls.empty() && c.start_ns < rc->calls.back().start_ns)
      r.Fail(where + ".start_ns", "before the call before it (calls are in start order)");
    if (r.ok() && (c.bytes < -1 || c.group_size < -1 || c.group_size == 0))
      r.Fail(where, "bytes and group_size are -1 (not recorded) or positive");
    if (!r.ok()) return;
    rc->calls.push_back(std::move(c));
    seqs.push_back(seq);
  });
  if (!r.ok()) return;
  // The order within the group is implied by the order of the calls; seq says it explicitly,
  // and a call lost or moved shows as a seq that does not follow.
  std::vector<int64_t> order = OrderInGroup(rc->calls);
  for (size_t c = 0; c < order.size() && r.ok(); ++c)
    if (order[c] != seqs[c])
      r.Fail(
          fmt::format("{}.calls[{}].seq", at, c),
          fmt::format("{}, where the calls before it in its group make it {}", seqs[c], order[c]));
}

void ReadCollectives(JsonReader& r, array a, RankSummary* s) {
  std::vector<int64_t> ranks = SourceRanks(*s);
  ReadObjects(r, a, "collectives", [&](object o, const std::string& where, size_t i) {
    RankCollectives rc;
    rc.rank = r.Int(o, "rank", where);
    if (r.ok() && (i >= ranks.size() || rc.rank != ranks[i]))
      r.Fail(where + ".rank",
             "the ledger holds one entry per rank of the sources, in rank order, and this is not "
             "the next");
    array groups = r.Array(o, "process_groups", where);
    std::string groups_at = where + ".process_groups";
    if (r.ok())
      ReadObjects(r, groups, groups_at, [&](object go, const std::string& gw, size_t) {
        ProcessGroup pg;
        pg.name = r.String(go, "name", gw);
        pg.ranks = r.String(go, "ranks", gw);
        pg.size = r.Int(go, "size", gw);
        pg.calls = r.Int(go, "calls", gw);
        if (r.ok() && (pg.calls < 0 || pg.size < -1 || pg.size == 0))
          r.Fail(gw, "size is -1 (not recorded) or positive, calls not negative");
        if (r.ok() && !rc.groups.empty() && pg.name <= rc.groups.back().name)
          r.Fail(gw + ".name", "not after the one before it (groups are by name)");
        if (!r.ok()) return;
        rc.groups.push_back(std::move(pg));
      });
    array calls = r.Array(o, "calls", where);
    if (r.ok()) ReadCalls(r, calls, where, &rc);
    if (!r.ok()) return;
    s->collectives.push_back(std::move(rc));
  });
  if (r.ok() && s->collectives.size() != ranks.size())
    r.Fail("collectives",
           fmt::format("{} entries for {} ranks", s->collectives.size(), ranks.size()));
}

}  // namespace

// The first member of the object, read token by token: "schema" with a value that starts
// "profana.summary/". The writer puts it first and tools such as jq keep members in order, with
// whatever JSON whitespace they lay out between the tokens (jq -c none, a tab, two spaces).
bool LooksLikeSummary(std::string_view first) {
  size_t at = 0;
  auto token = [&](std::string_view t) {
    at = first.find_first_not_of(" \t\r\n", at);
    if (at == std::string_view::npos || first.substr(at, t.size()) != t) return false;
    at += t.size();
    return true;
  };
  return token("{") && token("\"schema\"") && token(":") && token("\"profana.summary/");
}

Result<RankSummary> ReadSummaryFile(const std::string& path) {
  PROFANA_ASSIGN_OR_RETURN(InputFile file, InputFile::Open(path));
  return ReadSummaryFile(file);
}

Result<RankSummary> ReadSummaryFile(const InputFile& file) {
  PROFANA_ASSIGN_OR_RETURN(InputBuffer input, ReadInput(file));
  return ParseSummary(input.view(), file.path());
}

std::string FormatSummary(const RankSummary& s) {
  std::string out;
  JsonWriter w(&out, JsonLayout::kSpaced);
  w.BeginObject().Key("schema").String(kSummarySchema);
  w.Break(0).Key("sources").BeginArray();
  for (const SourceInfo& src : s.sources) {
    w.Break(1).BeginObject();
    w.Key("path").String(src.path);
    w.Key("hash").String(src.hash);
    w.Key("rank").Int(src.rank);
    w.Key("world_size").Int(src.world_size);
    w.Key("format").String(src.format);
    w.Key("bytes").UInt(src.input_bytes);
    w.Key("devices").BeginArray();
    for (const std::string& d : src.devices) w.String(d);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Break(0).Key("has_memory_records").Bool(s.has_memory_records);
  if (s.with_flops) w.Break(0).Key("with_flops").Bool(true);
  if (s.memory_recorded) WriteMemoryPeaks(s, w);
  WriteRows("table", s, s.rows, s.row_origin, w);
  WriteRows("table_by_shape", s, s.shape_rows, s.shape_row_origin, w);
  w.Break(0).Key("steps").BeginArray();
  for (const RankStep& st : s.steps) {
    const StepRow& r = st.row;
    w.Break(1).BeginObject();
    w.Key("rank").Int(st.rank);
    w.Key("step").Int(r.step);
    w.Key("start_ns").Int(r.start_ns);
    w.Key("wall_ns").Int(r.wall_ns);
    w.Key("host_ns").Int(r.host_ns);
    w.Key("host_untraced_ns").Int(r.host_untraced_ns);
    w.Key("host_dataloader_ns").Int(r.host_dataloader_ns);
    w.Key("host_optimizer_ns").Int(r.host_optimizer_ns);
    w.Key("host_sync_ns").Int(r.host_sync_ns);
    w.Key("devices").BeginArray();
    for (const StepDevice& v : r.devices) {
      w.BeginObject();
      w.Key("device").Int(v.device);
      w.Key("compute_ns").Int(v.compute_ns);
      w.Key("comm_exposed_ns").Int(v.comm_exposed_ns);
      w.Key("memory_exposed_ns").Int(v.memory_exposed_ns);
      w.Key("idle_ns").Int(v.idle_ns);
      w.Key("comm_ns").Int(v.comm_ns);
      w.Key("comm_hidden_ns").Int(v.comm_hidden_ns);
      WriteStepEfficiency(v, w);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Break(0).Key("kernels").BeginObject();
  WriteKernelMap("kernels", s.kernels.kernels, w);
  w.Break(0);
  WriteKernelMap("by_op", s.kernels.by_op, w);
  w.Break(0).Key("api").BeginArray();
  for (const auto& [name, d] : s.kernels.api) {
    w.Break(1).BeginObject();
    w.Key("name").String(name);
    w.Key("stats");
    WriteStats(d, w);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  if (s.collectives_recorded) WriteCollectives(s, w);
  w.Break(0).Key("stacks").BeginArray();
  for (const auto& [stack, weight] : s.stacks)
    w.Break(1).BeginArray().String(stack).Int(weight).EndArray();
  w.EndArray();
  w.EndObject();
  return out;
}

Result<RankSummary> ParseSummary(std::string_view text, const std::string& name) {
  auto bad = [&](std::string_view why) {
    return Status(ErrorCode::kMalformed, fmt::format("{}: not a usable summary: {}", name, why));
  };
  simdjson::dom::parser parser;
  simdjson::padded_string padded(text);
  element root_element;
  if (auto error = parser.parse(padded).get(root_element))
    return bad(fmt::format("JSON: {}", simdjson::error_message(error)));
  JsonReader r;
  object root = r.Object(root_element, "summary");
  if (!r.ok()) return bad(r.fault());
  std::string_view schema = r.String(root, "schema", "summary");
  if (!r.ok()) return bad(r.fault());
  if (schema != kSummarySchema) {
    if (schema.substr(0, 16) == "profana.summary/")
      return Status(ErrorCode::kUnsupportedVersion,
                    fmt::format("{}: summary format {} is not one this profana reads ({}); use "
                                "the profana that wrote it, or a newer one",
                                name, schema, kSummarySchema));
    return bad(fmt::format("schema \"{}\"", schema));
  }
  RankSummary s;
  s.ranks_settled = true;
  array sources = r.Array(root, "sources", "summary");
  if (r.ok())
    ReadObjects(r, sources, "sources", [&](object o, const std::string& where, size_t) {
      SourceInfo src;
      src.path = r.String(o, "path", where);
      src.hash = r.String(o, "hash", where);
      src.rank = r.Int(o, "rank", where);
      src.world_size = r.Int(o, "world_size", where);
      src.format = r.String(o, "format", where);
      int64_t bytes = r.Int(o, "bytes", where);
      if (r.ok() && bytes < 0) r.Fail(where + ".bytes", "negative");
      src.input_bytes = static_cast<uint64_t>(bytes);
      array devices = r.Array(o, "devices", where);
      if (r.ok())
        for (element d : devices) {
          std::string_view device;
          if (d.get_string().get(device)) r.Fail(where + ".devices", "expected strings");
          src.devices.emplace_back(device);
        }
      if (r.ok() && src.rank < 0) r.Fail(where + ".rank", "negative");
      s.sources.push_back(std::move(src));
    });
  if (r.ok() && s.sources.empty()) r.Fail("sources", "empty");
  if (r.ok()) s.has_memory_records = r.Bool(root, "has_memory_records", "summary");
  s.with_flops = r.OptionalBool(root, "with_flops", "summary");
  // Sections added within version 1 (docs/summary-format.md): absent means not recorded.
  element optional;
  if (r.ok() && !root["memory_peaks"].get(optional)) {
    s.memory_recorded = true;
    array peaks = r.Array(root, "memory_peaks", "summary");
    if (r.ok()) ReadMemoryPeaks(r, peaks, &s);
  }
  if (r.ok()) ReadRows(r, root, "table", &s, &s.rows, &s.row_origin);
  if (r.ok()) ReadRows(r, root, "table_by_shape", &s, &s.shape_rows, &s.shape_row_origin);
  array steps = r.Array(root, "steps", "summary");
  if (r.ok())
    ReadObjects(r, steps, "steps", [&](object o, const std::string& where, size_t) {
      RankStep st;
      st.rank = r.Int(o, "rank", where);
      StepRow& row = st.row;
      row.step = r.Int(o, "step", where);
      row.start_ns = r.Int(o, "start_ns", where);
      row.wall_ns = r.Int(o, "wall_ns", where);
      row.host_ns = r.Int(o, "host_ns", where);
      row.host_untraced_ns = r.Int(o, "host_untraced_ns", where);
      row.host_dataloader_ns = r.Int(o, "host_dataloader_ns", where);
      row.host_optimizer_ns = r.Int(o, "host_optimizer_ns", where);
      row.host_sync_ns = r.Int(o, "host_sync_ns", where);
      array devices = r.Array(o, "devices", where);
      if (r.ok())
        ReadObjects(r, devices, where + ".devices", [&](object dev, const std::string& dw, size_t) {
          StepDevice v;
          int64_t device = r.Int(dev, "device", dw);
          if (r.ok() && (device < -1 || device > std::numeric_limits<int32_t>::max()))
            r.Fail(dw + ".device", "out of range");
          v.device = static_cast<int32_t>(device);
          v.compute_ns = r.Int(dev, "compute_ns", dw);
          v.comm_exposed_ns = r.Int(dev, "comm_exposed_ns", dw);
          v.memory_exposed_ns = r.Int(dev, "memory_exposed_ns", dw);
          v.idle_ns = r.Int(dev, "idle_ns", dw);
          v.comm_ns = r.Int(dev, "comm_ns", dw);
          v.comm_hidden_ns = r.Int(dev, "comm_hidden_ns", dw);
          ReadStepEfficiency(r, dev, dw, &v);
          row.devices.push_back(v);
        });
      s.steps.push_back(std::move(st));
    });
  element kernels_element = r.ok() ? r.Field(root, "kernels", "summary") : element();
  object kernels = r.Object(kernels_element, "kernels");
  if (r.ok()) ReadKernelMap(r, kernels, "kernels", &s.kernels.kernels, true);
  if (r.ok()) ReadKernelMap(r, kernels, "by_op", &s.kernels.by_op, true);
  if (r.ok()) {
    std::map<std::string, KernelStat> api;
    ReadKernelMap(r, kernels, "api", &api, false);
    for (auto& [k, v] : api) s.kernels.api.emplace(k, std::move(v.duration));
  }
  if (r.ok() && !root["collectives"].get(optional)) {
    s.collectives_recorded = true;
    array ledger = r.Array(root, "collectives", "summary");
    if (r.ok()) ReadCollectives(r, ledger, &s);
  }
  array stacks = r.ok() ? r.Array(root, "stacks", "summary") : array();
  size_t i = 0;
  if (r.ok())
    for (element e : stacks) {
      array pair;
      std::string_view stack;
      int64_t weight = 0;
      if (e.get_array().get(pair) || pair.size() != 2 || pair.at(0).get_string().get(stack) ||
          pair.at(1).get_int64().get(weight)) {
        r.Fail(fmt::format("stacks[{}]", i), "expected [string, integer]");
        break;
      }
      if (!s.stacks.empty() && stack <= s.stacks.rbegin()->first) {
        r.Fail(fmt::format("stacks[{}]", i), "stacks are listed once each, in order");
        break;
      }
      s.stacks.emplace_hint(s.stacks.end(), std::string(stack), weight);
      ++i;
    }
  if (!r.ok()) return bad(r.fault());
  if (Status st = CheckSummary(s); !st.ok()) return bad(st.message());
  return s;
}

}  // namespace profana::job
