// Reports of `profana advise`: the findings ranked by their estimated saving, each with its rule
// id, evidence, saving (bounded by the critical path) and fix. Text (the top N), Markdown, CSV
// (one row per finding) and JSON (schema profana.advise/1, docs/schema/advise.schema.json).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/job/advice/advice.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

struct AdviceReport {
  std::vector<std::string> inputs;
  std::vector<int64_t> ranks;    // the ranks read; empty for one trace without a rank
  int64_t critical_path_ns = 0;  // the bound: the analysed steps' critical paths, all ranks
  int64_t steps_wall_ns = 0;
  std::vector<job::Finding> findings;  // ranked
};

std::string FormatAdviceText(const AdviceReport& r, int64_t top);
std::string FormatAdviceMarkdown(const AdviceReport& r);
std::string FormatAdviceCsv(const AdviceReport& r);
std::string FormatAdviceJson(const AdviceReport& r);

// The report in `format` (text, markdown, csv or json): the one choice of printer; text shows
// the `top` findings.
std::string FormatAdviceAs(OutputFormat format, const AdviceReport& r, int64_t top);

}  // namespace profana::report
