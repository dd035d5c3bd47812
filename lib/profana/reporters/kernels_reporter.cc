#include "profana/reporters/kernels_reporter.h"

#include <algorithm>
#include <map>
#include <optional>

#include "fmt/format.h"
#include "profana/base/named_values.h"
#include "profana/job/rank_summary.h"
#include "profana/passes/efficiency/tensor_cores.h"
#include "profana/passes/kernel_names.h"
#include "profana/reporters/grid.h"
#include "profana/reporters/job_header.h"

namespace profana::report {
namespace {

struct Row {
  std::string name;
  const char* category = nullptr;  // null for API calls
  job::DurationStats stats;
  job::LaunchStat launch;
  int64_t flops = 0;  // by launching op: PyTorch's count of the row's ops
};

// Achieved FLOP/s of a by-op row: its ops' FLOPs over its device time; none without FLOPs.
std::optional<double> FlopsPerSecond(const Row& row) {
  if (row.flops <= 0 || row.stats.sum() <= 0) return std::nullopt;
  return static_cast<double>(row.flops) / static_cast<double>(row.stats.sum()) * 1e9;
}

// The row's launch record, as the columns show it. Means are null where nothing recorded them.
struct LaunchCells {
  std::optional<double> blocks_per_sm, occupancy, bandwidth;
  std::string registers, shared_memory, grid, block;  // "" where not recorded
  size_t shapes = 0;
};

std::string Dims(const int32_t (&d)[3]) {
  if (d[0] < 0) return "";
  return fmt::format("{}x{}x{}", d[0], d[1], d[2]);
}

std::string Range(int32_t lo, int32_t hi) {
  if (lo < 0) return "";
  return lo == hi ? fmt::format("{}", lo) : fmt::format("{}-{}", lo, hi);
}

LaunchCells CellsOf(const Row& row) {
  const job::LaunchStat& l = row.launch;
  LaunchCells c;
  double v = 0;
  if (l.MeanBlocksPerSm(&v)) c.blocks_per_sm = v;
  if (l.MeanOccupancy(&v)) c.occupancy = v;
  if (l.bytes_ns > 0) c.bandwidth = static_cast<double>(l.bytes) / static_cast<double>(l.bytes_ns);
  c.registers = Range(l.registers_min, l.registers_max);
  c.shared_memory = Range(l.shared_memory_min, l.shared_memory_max);
  // The grid and block that took the most time (the first such, in the shapes' order).
  const job::LaunchShape* top = nullptr;
  int64_t top_ns = -1;
  for (const auto& [shape, d] : l.shapes)
    if (d.sum() > top_ns) top = &shape, top_ns = d.sum();
  c.shapes = l.shapes.size();
  if (top) {
    c.grid = Dims(top->grid);
    c.block = Dims(top->block);
  }
  return c;
}

std::string Optional(const std::optional<double>& v, int decimals, const char* none) {
  return v ? Fixed(*v, decimals) : none;
}

// Whether row `a` goes before row `b` under `sort` (ties keep the name order).
bool Before(KernelSort sort, const Row& a, const Row& b) {
  const job::DurationStats &x = a.stats, &y = b.stats;
  switch (sort) {
    case KernelSort::kCount:
      return x.count() > y.count();
    case KernelSort::kMean:  // sum / count compared without a division: x.sum * y.count > ...
      return static_cast<__int128>(x.sum()) * std::max<int64_t>(y.count(), 1) >
             static_cast<__int128>(y.sum()) * std::max<int64_t>(x.count(), 1);
    case KernelSort::kMin:
      return x.min() > y.min();
    case KernelSort::kMax:
      return x.max() > y.max();
    case KernelSort::kName:
      return false;  // the rows come in name order
    default:
      return x.sum() > y.sum();
  }
}

// The rows of the view, as --sort orders them (longest total first by default), ties by name.
std::vector<Row> RowsOf(const KernelsReport& r) {
  std::vector<Row> rows;
  const job::KernelStats& s = *r.stats;
  switch (r.view) {
    case KernelView::kKernels:
    case KernelView::kByOp:
      for (const auto& [name, k] : r.view == KernelView::kKernels ? s.kernels : s.by_op)
        rows.push_back({name, job::KernelCategoryName(k.category), k.duration, k.launch, k.flops});
      break;
    case KernelView::kApi:
      for (const auto& [name, d] : s.api) rows.push_back({name, nullptr, d, {}, 0});
      break;
    case KernelView::kTransfers: {
      std::map<job::KernelCategory, job::KernelStat> kinds;
      for (const auto& [name, k] : s.kernels)
        if (job::IsTransfer(k.category)) kinds[k.category].Merge(k);
      for (const auto& [c, k] : kinds)
        rows.push_back(
            {job::KernelCategoryName(c), job::KernelCategoryName(c), k.duration, k.launch, 0});
      break;
    }
  }
  // The names are already in order: ties stay by name.
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const Row& a, const Row& b) { return Before(r.sort, a, b); });
  return rows;
}

int64_t TotalOf(const std::vector<Row>& rows) {
  int64_t t = 0;
  for (const Row& row : rows) t += row.stats.sum();
  return t;
}

double SharePercent(int64_t part, int64_t total) {
  return total > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(total) : 0;
}

const char* NameHeader(KernelView v) {
  switch (v) {
    case KernelView::kKernels:
      return "Name";
    case KernelView::kByOp:
      return "Launching op";
    case KernelView::kApi:
      return "Call";
    case KernelView::kTransfers:
      return "Kind";
  }
  return "Name";
}

// The view's launch columns: a kernel's Tensor Core use, occupancy, blocks per SM, registers,
// shared memory, grid and block; an op's Tensor Core share and occupancy; a transfer kind's
// bytes and bandwidth. API calls have none.
std::vector<std::string> ExtraHeaders(KernelView v, bool machine) {
  switch (v) {
    case KernelView::kKernels:
      if (machine)
        return {"tensor_cores", "occupancy_pct", "blocks_per_sm", "registers", "shared_memory",
                "grid",         "block",         "launch_shapes", "bytes",     "bandwidth_gbps"};
      return {"TC", "Occ %", "Blocks/SM", "Regs", "Smem", "Grid", "Block"};
    case KernelView::kByOp:
      if (machine)
        return {"tensor_core_pct", "occupancy_pct", "bytes",
                "bandwidth_gbps",  "flops",         "flops_per_s"};
      return {"TC %", "Occ %", "TFLOP/s"};
    case KernelView::kTransfers:
      if (machine) return {"bytes", "bandwidth_gbps"};
      return {"Bytes", "GB/s"};
    case KernelView::kApi:
      return {};
  }
  return {};
}

std::vector<std::string> ExtraCells(KernelView v, const Row& row, bool machine) {
  LaunchCells c = CellsOf(row);
  const char* none = machine ? "" : "-";
  auto text = [&](const std::string& s) { return s.empty() ? std::string(none) : s; };
  const job::LaunchStat& l = row.launch;
  std::string bytes = l.bytes_count > 0 ? fmt::format("{}", l.bytes) : std::string(none);
  switch (v) {
    case KernelView::kKernels: {
      bool kernel = row.category && std::string_view(row.category) != "memset" &&
                    std::string_view(row.category).substr(0, 6) != "memcpy";
      std::string tc = !kernel                             ? none
                       : passes::UsesTensorCores(row.name) ? (machine ? "true" : "yes")
                                                           : (machine ? "false" : "no");
      if (machine)
        return {tc,
                Optional(c.occupancy, 4, none),
                Optional(c.blocks_per_sm, 6, none),
                c.registers,
                c.shared_memory,
                c.grid,
                c.block,
                fmt::format("{}", c.shapes),
                l.bytes_count > 0 ? bytes : "",
                Optional(c.bandwidth, 6, none)};
      std::string grid = text(c.grid);
      if (c.shapes > 1) grid += fmt::format(" (+{})", c.shapes - 1);
      return {tc,
              Optional(c.occupancy, 1, none),
              Optional(c.blocks_per_sm, 2, none),
              text(c.registers),
              text(c.shared_memory),
              grid,
              text(c.block)};
    }
    case KernelView::kByOp: {
      std::optional<double> share;
      if (row.stats.sum() > 0)
        share =
            100.0 * static_cast<double>(l.tensor_core_ns) / static_cast<double>(row.stats.sum());
      std::optional<double> rate = FlopsPerSecond(row);
      if (machine)
        return {Optional(share, 4, none),
                Optional(c.occupancy, 4, none),
                l.bytes_count > 0 ? bytes : "",
                Optional(c.bandwidth, 6, none),
                row.flops > 0 ? fmt::format("{}", row.flops) : "",
                rate ? fmt::format("{}", *rate) : ""};
      return {Optional(share, 1, none), Optional(c.occupancy, 1, none),
              rate ? Fixed(*rate / 1e12, 3) : none};
    }
    case KernelView::kTransfers:
      if (machine) return {l.bytes_count > 0 ? bytes : "", Optional(c.bandwidth, 6, none)};
      return {l.bytes_count > 0 ? SizeCell(l.bytes, false) : "-", Optional(c.bandwidth, 3, none)};
    case KernelView::kApi:
      return {};
  }
  return {};
}

Grid MakeGrid(const KernelsReport& r, const std::vector<Row>& rows, bool machine) {
  Grid g;
  bool has_category = r.view == KernelView::kKernels || r.view == KernelView::kByOp;
  std::vector<std::string> extra = ExtraHeaders(r.view, machine);
  if (machine) {
    g.headers = {"name",    "category",  "count",  "total_us", "share_pct",
                 "mean_us", "median_us", "min_us", "max_us",   "stddev_us"};
    g.headers.insert(g.headers.end(), extra.begin(), extra.end());
  } else {
    g.headers = {"Time %", "Total", "Count", "Mean", "Median", "Min", "Max", "Std dev"};
    g.headers.insert(g.headers.end(), extra.begin(), extra.end());
    g.headers.push_back("Category");
    g.headers.push_back(NameHeader(r.view));
    g.left.assign(g.headers.size(), false);
    g.left[g.headers.size() - 2] = g.left[g.headers.size() - 1] = true;
  }
  int64_t total = TotalOf(rows);
  size_t n = r.row_limit < 0 ? rows.size() : std::min<size_t>(rows.size(), r.row_limit);
  // Shortened names that several kernels share get " [k/n]" in the order of the rows, so rows
  // stay told apart (--full-names shows what they are).
  bool shorten = !machine && !r.full_names && r.view == KernelView::kKernels;
  std::vector<std::string> names(rows.size());
  std::map<std::string, std::pair<int, int>> seen;  // short name -> (rows so far, rows in all)
  for (size_t i = 0; i < rows.size(); ++i) {
    names[i] = shorten ? passes::ShortKernelName(rows[i].name) : rows[i].name;
    ++seen[names[i]].second;
  }
  for (size_t i = 0; i < rows.size() && shorten; ++i) {
    auto& [k, of] = seen[names[i]];
    if (of > 1) names[i] += fmt::format(" [{}/{}]", ++k, of);
  }
  for (size_t i = 0; i < n; ++i) {
    const Row& row = rows[i];
    const job::DurationStats& d = row.stats;
    std::string category = has_category ? row.category : (row.category ? "transfer" : "api");
    const std::string& name = names[i];
    std::vector<std::string> cells = {Fixed(SharePercent(d.sum(), total), machine ? 4 : 1),
                                      DurationCell(d.sum(), machine),
                                      fmt::format("{}", d.count()),
                                      DurationCellUs(d.mean() / 1000.0, machine),
                                      DurationCellUs(d.Quantile(0.5) / 1000.0, machine),
                                      DurationCell(d.min(), machine),
                                      DurationCell(d.max(), machine),
                                      DurationCellUs(d.stddev() / 1000.0, machine)};
    std::vector<std::string> more = ExtraCells(r.view, row, machine);
    if (machine) {
      std::vector<std::string> out = {name,     category, cells[2], cells[1], cells[0],
                                      cells[3], cells[4], cells[5], cells[6], cells[7]};
      out.insert(out.end(), more.begin(), more.end());
      g.AddRow(std::move(out));
    } else {
      cells.insert(cells.end(), more.begin(), more.end());
      cells.push_back(category);
      cells.push_back(name);
      g.AddRow(std::move(cells));
    }
  }
  return g;
}

std::string Heading(const KernelsReport& r, const std::vector<Row>& rows) {
  int64_t count = 0;
  for (const Row& row : rows) count += row.stats.count();
  const char* what = r.view == KernelView::kApi         ? "runtime and driver calls"
                     : r.view == KernelView::kTransfers ? "memcpy and memset activities"
                     : r.view == KernelView::kByOp      ? "device activities by launching op"
                                                        : "device activities";
  std::string shown;
  // The rows come in --sort order: only the default's first rows are the longest.
  if (r.row_limit >= 0 && static_cast<size_t>(r.row_limit) < rows.size())
    shown = r.sort == KernelSort::kTotal
                ? fmt::format("; the {} longest of {} rows shown", r.row_limit, rows.size())
                : fmt::format("; the first {} of {} rows shown", r.row_limit, rows.size());
  return fmt::format("{} {} on {} rank{} ({}): {} in total{}", count, what, r.ranks.size(),
                     r.ranks.size() == 1 ? "" : "s", job::FormatRankList(r.ranks),
                     DurationCell(TotalOf(rows), false), shown);
}

// A row's launch record: means (null where nothing recorded them), ranges, the grid and block
// shapes with their count and time, and a transfer's bytes and bandwidth.
void WriteLaunch(JsonWriter& w, KernelView v, const Row& row) {
  LaunchCells c = CellsOf(row);
  const job::LaunchStat& l = row.launch;
  auto optional = [&](const char* key, const std::optional<double>& x) {
    w.Key(key);
    x ? w.Double(*x) : w.Null();
  };
  auto range = [&](const char* key, int32_t lo, int32_t hi) {
    w.Key(key);
    if (lo < 0)
      w.Null();
    else
      w.BeginArray().Int(lo).Int(hi).EndArray();
  };
  w.Key("tensor_core_share");
  row.stats.sum() > 0
      ? w.Double(static_cast<double>(l.tensor_core_ns) / static_cast<double>(row.stats.sum()))
      : w.Null();
  optional("occupancy", c.occupancy);
  optional("blocks_per_sm", c.blocks_per_sm);
  range("registers", l.registers_min, l.registers_max);
  range("shared_memory", l.shared_memory_min, l.shared_memory_max);
  w.Key("bytes");
  l.bytes_count > 0 ? w.Int(l.bytes) : w.Null();
  optional("bandwidth_gbps", c.bandwidth);
  if (v == KernelView::kByOp) {
    w.Key("flops");
    row.flops > 0 ? w.Int(row.flops) : w.Null();
    optional("flops_per_s", FlopsPerSecond(row));
  }
  if (v != KernelView::kKernels) return;
  w.Key("shapes").BeginArray();
  for (const auto& [shape, d] : l.shapes) {
    w.BeginObject();
    auto dims = [&](const char* key, const int32_t(&x)[3]) {
      w.Key(key);
      if (x[0] < 0)
        w.Null();
      else
        w.BeginArray().Int(x[0]).Int(x[1]).Int(x[2]).EndArray();
    };
    dims("grid", shape.grid);
    dims("block", shape.block);
    w.Key("count").Int(d.count());
    w.Key("total").Micros(d.sum());
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

namespace {

constexpr NamedValue<KernelSort> kKernelSorts[] = {
    {"total", KernelSort::kTotal},      {"time", KernelSort::kTotal},
    {"total_time", KernelSort::kTotal}, {"count", KernelSort::kCount},
    {"calls", KernelSort::kCount},      {"mean", KernelSort::kMean},
    {"min", KernelSort::kMin},          {"max", KernelSort::kMax},
    {"name", KernelSort::kName}};

}  // namespace

Result<KernelSort> ParseKernelSort(std::string_view text) {
  return ParseNamedValue(text, "key", kKernelSorts);
}

std::vector<std::string> KernelSortNames() { return ListedNames(kKernelSorts); }

const char* KernelViewName(KernelView v) {
  switch (v) {
    case KernelView::kKernels:
      return "kernels";
    case KernelView::kByOp:
      return "ops";
    case KernelView::kApi:
      return "api";
    case KernelView::kTransfers:
      return "transfers";
  }
  return "kernels";
}

std::string FormatKernelsText(const KernelsReport& r) {
  std::vector<Row> rows = RowsOf(r);
  return Heading(r, rows) + "\n\n" + MakeGrid(r, rows, false).Text();
}

std::string FormatKernelsMarkdown(const KernelsReport& r) {
  std::vector<Row> rows = RowsOf(r);
  return "### " + Heading(r, rows) + "\n\n" + MakeGrid(r, rows, false).Markdown();
}

std::string FormatKernelsCsv(const KernelsReport& r) { return MakeGrid(r, RowsOf(r), true).Csv(); }

std::string FormatKernelsJson(const KernelsReport& r) {
  std::vector<Row> rows = RowsOf(r);
  int64_t total = TotalOf(rows);
  std::string out;
  JsonWriter w(&out);
  WriteJobHeader(w, "profana.kernels/1", r.inputs, r.ranks, KernelViewName(r.view));
  w.Key("total").Micros(total);
  w.Key("total_rows").Int(static_cast<int64_t>(rows.size()));
  w.Key("rows").BeginArray();
  size_t n = r.row_limit < 0 ? rows.size() : std::min<size_t>(rows.size(), r.row_limit);
  for (size_t i = 0; i < n; ++i) {
    const Row& row = rows[i];
    const job::DurationStats& d = row.stats;
    w.BeginObject();
    w.Key("name").String(row.name);
    w.Key("category");
    row.category ? w.String(row.category) : w.Null();
    w.Key("count").Int(d.count());
    w.Key("total").Micros(d.sum());
    w.Key("share").Double(total > 0 ? static_cast<double>(d.sum()) / static_cast<double>(total)
                                    : 0);
    w.Key("mean").Double(d.mean() / 1000.0);
    w.Key("median").Double(d.Quantile(0.5) / 1000.0);
    w.Key("min").Micros(d.min());
    w.Key("max").Micros(d.max());
    w.Key("stddev").Double(d.stddev() / 1000.0);
    w.Key("median_exact").Bool(d.exact());
    if (r.view != KernelView::kApi) WriteLaunch(w, r.view, row);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

std::string FormatKernelsAs(OutputFormat format, const KernelsReport& r) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatKernelsJson(r);
    case OutputFormat::kCsv:
      return FormatKernelsCsv(r);
    case OutputFormat::kMarkdown:
      return FormatKernelsMarkdown(r);
    default:
      return FormatKernelsText(r);
  }
}

}  // namespace profana::report
