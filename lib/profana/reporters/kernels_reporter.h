// The report of `profana kernels`: per kernel name (or per launching op, per runtime/driver call,
// per transfer kind) the category, count, total, share of the total, mean, median, minimum,
// maximum and standard deviation, sorted by total time, longest first, or as --sort asks (ties by
// name). Text,
// Markdown, CSV and JSON (schema "profana.kernels/1", docs/json.md). Formatting only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profana/base/row_limit.h"
#include "profana/base/status.h"
#include "profana/job/kernel_stats.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

enum class KernelView : uint8_t { kKernels, kByOp, kApi, kTransfers };
const char* KernelViewName(KernelView v);  // "kernels", "ops", "api", "transfers"

// --sort: total time (the default), count, mean, min or max time (largest first), or name (A-Z).
enum class KernelSort : uint8_t { kTotal, kCount, kMean, kMin, kMax, kName };
// "total" (also "time", "total_time"), "count" (also "calls"), "mean", "min", "max", "name".
Result<KernelSort> ParseKernelSort(std::string_view text);
std::vector<std::string> KernelSortNames();

struct KernelsReport {
  std::vector<std::string> inputs;
  std::vector<int64_t> ranks;
  const job::KernelStats* stats = nullptr;
  KernelView view = KernelView::kKernels;
  bool full_names = false;  // text and Markdown shorten kernel names unless set
  int64_t row_limit = DefaultRowLimit(RowKind::kSums);  // -1: every row
  KernelSort sort = KernelSort::kTotal;
};

std::string FormatKernelsText(const KernelsReport& r);
std::string FormatKernelsMarkdown(const KernelsReport& r);
std::string FormatKernelsCsv(const KernelsReport& r);
std::string FormatKernelsJson(const KernelsReport& r);

// The report in `format` (text, markdown, csv or json): the one choice of printer.
std::string FormatKernelsAs(OutputFormat format, const KernelsReport& r);

}  // namespace profana::report
