// The report of `profana steps`: one row per (rank, step, device) with the step's wall time, the
// device time split into computation, exposed communication, exposed memcpy/memset and idle, the
// share of communication hidden behind computation and the host thread's time outside ops; then
// the statistics of each over every row and the slowest step and rank. Text, Markdown, CSV (the
// rows only) and JSON (schema "profana.steps/1", docs/json.md). Formatting only.
#pragma once

#include <string>
#include <vector>

#include "profana/job/rank_summary.h"
#include "profana/job/step_statistics.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

struct StepsReport {
  std::vector<std::string> inputs;  // as given on the command line
  std::vector<int64_t> ranks;
  const std::vector<job::RankStep>* steps = nullptr;  // in (rank, step) order
  job::StepsOverview overview;
};

std::string FormatStepsText(const StepsReport& r);
std::string FormatStepsMarkdown(const StepsReport& r);
std::string FormatStepsCsv(const StepsReport& r);
std::string FormatStepsJson(const StepsReport& r);

// The report in `format` (text, markdown, csv or json): the one choice of printer.
std::string FormatStepsAs(OutputFormat format, const StepsReport& r);

}  // namespace profana::report
