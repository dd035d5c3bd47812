#include "profana/reporters/kernels_reporter.h"

#include <algorithm>
#include <map>

#include "fmt/format.h"
#include "profana/job/rank_summary.h"
#include "profana/reporters/grid.h"
#include "profana/reporters/job_header.h"

namespace profana::report {
namespace {

struct Row {
  std::string name;
  const char* category = nullptr;  // null for API calls
  job::DurationStats stats;
};

// The rows of the view, longest total first, ties by name.
std::vector<Row> RowsOf(const KernelsReport& r) {
  std::vector<Row> rows;
  const job::KernelStats& s = *r.stats;
  switch (r.view) {
    case KernelView::kKernels:
    case KernelView::kByOp:
      for (const auto& [name, k] : r.view == KernelView::kKernels ? s.kernels : s.by_op)
        rows.push_back({name, job::KernelCategoryName(k.category), k.duration});
      break;
    case KernelView::kApi:
      for (const auto& [name, d] : s.api) rows.push_back({name, nullptr, d});
      break;
    case KernelView::kTransfers: {
      std::map<job::KernelCategory, job::DurationStats> kinds;
      for (const auto& [name, k] : s.kernels)
        if (job::IsTransfer(k.category)) kinds[k.category].Merge(k.duration);
      for (const auto& [c, d] : kinds)
        rows.push_back({job::KernelCategoryName(c), job::KernelCategoryName(c), d});
      break;
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.stats.sum() > b.stats.sum();  // names are already in order: ties stay by name
  });
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

Grid MakeGrid(const KernelsReport& r, const std::vector<Row>& rows, bool machine) {
  Grid g;
  bool has_category = r.view == KernelView::kKernels || r.view == KernelView::kByOp;
  if (machine) {
    g.headers = {"name",    "category",  "count",  "total_us", "share_pct",
                 "mean_us", "median_us", "min_us", "max_us",   "stddev_us"};
  } else {
    g.headers = {"Time %", "Total (us)", "Count",   "Mean (us)", "Median",
                 "Min",    "Max",        "Std dev", "Category",  NameHeader(r.view)};
    g.left = {false, false, false, false, false, false, false, false, true, true};
  }
  int64_t total = TotalOf(rows);
  size_t n = r.row_limit < 0 ? rows.size() : std::min<size_t>(rows.size(), r.row_limit);
  // Shortened names that several kernels share get " [k/n]" in the order of the rows, so rows
  // stay told apart (--full-names shows what they are).
  bool shorten = !machine && !r.full_names && r.view == KernelView::kKernels;
  std::vector<std::string> names(rows.size());
  std::map<std::string, std::pair<int, int>> seen;  // short name -> (rows so far, rows in all)
  for (size_t i = 0; i < rows.size(); ++i) {
    names[i] = shorten ? job::ShortKernelName(rows[i].name) : rows[i].name;
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
                                      MicrosText(d.sum()),
                                      fmt::format("{}", d.count()),
                                      Fixed(d.mean() / 1000.0, 3),
                                      Fixed(d.Quantile(0.5) / 1000.0, 3),
                                      MicrosText(d.min()),
                                      MicrosText(d.max()),
                                      Fixed(d.stddev() / 1000.0, 3)};
    if (machine) {
      g.AddRow({name, category, cells[2], cells[1], cells[0], cells[3], cells[4], cells[5],
                cells[6], cells[7]});
    } else {
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
  if (r.row_limit >= 0 && static_cast<size_t>(r.row_limit) < rows.size())
    shown = fmt::format("; the {} longest of {} rows shown", r.row_limit, rows.size());
  return fmt::format("{} {} on {} rank{} ({}): {} us in total{}", count, what, r.ranks.size(),
                     r.ranks.size() == 1 ? "" : "s", job::FormatRankList(r.ranks),
                     MicrosText(TotalOf(rows)), shown);
}

}  // namespace

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
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

}  // namespace profana::report
