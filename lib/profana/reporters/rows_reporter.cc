#include "profana/reporters/rows_reporter.h"

#include "fmt/format.h"
#include "profana/base/int_sum.h"
#include "profana/base/json_writer.h"
#include "profana/reporters/csv_field.h"

namespace profana::report {
namespace {

using passes::AverageRow;

void WriteRow(const StringPool& strings, const AverageRow& r, JsonWriter& w) {
  w.BeginObject();
  w.Key("name").String(strings.Get(r.key));
  w.Key("device_type").String(r.device_type == passes::DeviceType::kCPU ? "CPU" : "CUDA");
  w.Key("count").Int(r.count);
  w.Key("self_cpu_time_total_us").Micros(r.self_cpu_ns);
  w.Key("cpu_time_total_us").Micros(r.cpu_total_ns);
  w.Key("cpu_time_avg_us").Double(r.count ? r.cpu_total_ns / 1000.0 / r.count : 0.0);
  w.Key("self_cuda_time_total_us").Micros(r.self_cuda_ns);
  w.Key("cuda_time_total_us").Micros(r.cuda_total_ns);
  w.Key("cuda_time_avg_us").Double(r.count ? r.cuda_total_ns / 1000.0 / r.count : 0.0);
  w.Key("cpu_memory_usage").Int(r.cpu_memory);
  w.Key("self_cpu_memory_usage").Int(r.self_cpu_memory);
  w.Key("cuda_memory_usage").Int(r.cuda_memory);
  w.Key("self_cuda_memory_usage").Int(r.self_cuda_memory);
  w.Key("flops").UInt(r.flops);
  // Achieved FLOP/s: the FLOPs over the device time of the row's ops (their kernels and their
  // children's), null without either.
  w.Key("flops_per_s");
  r.flops > 0 && r.cuda_total_ns > 0
      ? w.Double(static_cast<double>(r.flops) / static_cast<double>(r.cuda_total_ns) * 1e9)
      : w.Null();
  w.Key("top_level").Bool(r.top_level);
  w.Key("input_shapes");
  if (r.shapes_shown)
    w.String(InputShapesText(strings, r));
  else
    w.Null();
  w.Key("stack").BeginArray();
  for (StringId f : r.stack) w.String(strings.Get(f));
  w.EndArray();
  w.EndObject();
}

// The canonical PyTorch name of a sort key, even when an alias was given; "" for none.
std::string_view SortKeyName(passes::SortKey sort) {
  if (sort == passes::SortKey::kNone) return "";
  for (const std::string& n : passes::SortKeyNames()) {
    Result<passes::SortKey> k = passes::ParseSortKey(n);
    if (k.ok() && *k == sort) return n;
  }
  return "";
}

std::string MicrosText(int64_t ns) {
  std::string out;
  JsonWriter(&out, JsonLayout::kCompact).Micros(ns);
  return out;
}

}  // namespace

std::string InputShapesText(const StringPool& strings, const AverageRow& r) {
  return r.input_shapes.value ? std::string(strings.Get(r.input_shapes)) : "[]";
}

std::string FormatRowsJson(const StringPool& strings, const std::vector<AverageRow>& rows,
                           const std::vector<size_t>& shown, const RowsContext& c) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.table/1");
  w.Key("input").String(c.input);
  w.Key("format").String(c.format);
  if (c.rank >= 0) w.Key("rank").Int(c.rank);
  if (!c.ranks.empty()) {
    w.Key("ranks").BeginArray();
    for (int64_t rank : c.ranks) w.Int(rank);
    w.EndArray();
  }
  w.Key("options").BeginObject();
  w.Key("sort_by");
  if (SortKeyName(c.sort).empty())
    w.Null();
  else
    w.String(SortKeyName(c.sort));
  w.Key("row_limit").Int(c.row_limit);
  w.Key("group_by_input_shape").Bool(c.keys.group_by_input_shape);
  w.Key("group_by_stack_n").Int(c.keys.group_by_stack_n);
  w.Key("raw").Bool(c.raw);
  w.Key("top_level_only").Bool(c.top_level_only);
  w.EndObject();
  // Wrapping, as the rows' own sums: damaged times must not overflow.
  int64_t self_cpu = 0, self_cuda = 0;
  for (const AverageRow& r : rows) {
    self_cpu = WrapAdd(self_cpu, r.self_cpu_ns);
    if (r.CountsInCudaTotal()) self_cuda = WrapAdd(self_cuda, r.self_cuda_ns);
  }
  w.Key("self_cpu_time_total_us").Micros(self_cpu);
  w.Key("self_cuda_time_total_us").Micros(self_cuda);
  w.Key("total_rows").Int(static_cast<int64_t>(rows.size()));
  w.Key("rows").BeginArray();
  for (size_t i : shown) WriteRow(strings, rows[i], w);
  w.EndArray();
  w.EndObject();
  return out;
}

std::string FormatRowsCsv(const StringPool& strings, const std::vector<AverageRow>& rows,
                          const std::vector<size_t>& shown) {
  std::string out =
      "name,device_type,count,self_cpu_time_total_us,cpu_time_total_us,self_cuda_time_total_us,"
      "cuda_time_total_us,cpu_memory_usage,self_cpu_memory_usage,cuda_memory_usage,"
      "self_cuda_memory_usage,flops,top_level,input_shapes,stack\n";
  for (size_t i : shown) {
    const AverageRow& r = rows[i];
    std::string stack;
    for (size_t k = 0; k < r.stack.size(); ++k) {
      if (k) stack += ';';
      stack += strings.Get(r.stack[k]);
    }
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", CsvField(strings.Get(r.key)),
        r.device_type == passes::DeviceType::kCPU ? "CPU" : "CUDA", r.count,
        MicrosText(r.self_cpu_ns), MicrosText(r.cpu_total_ns), MicrosText(r.self_cuda_ns),
        MicrosText(r.cuda_total_ns), r.cpu_memory, r.self_cpu_memory, r.cuda_memory,
        r.self_cuda_memory, r.flops, r.top_level ? "true" : "false",
        r.shapes_shown ? CsvField(InputShapesText(strings, r)) : "", CsvField(stack));
  }
  return out;
}

}  // namespace profana::report
