// Reports of `profana advise`: the findings ranked by their estimated saving, each with its rule
// id, evidence, saving (bounded by the critical path) and fix. Text (the top N), Markdown, CSV
// (one row per finding) and JSON (schema profana.advise/1, docs/schema/advise.schema.json).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/job/advice/advice.h"
#include "profana/job/advice/advise_inputs.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

std::string FormatAdviceText(const job::AdviceReport& r, int64_t top);
std::string FormatAdviceMarkdown(const job::AdviceReport& r);
std::string FormatAdviceCsv(const job::AdviceReport& r);
std::string FormatAdviceJson(const job::AdviceReport& r);

// The report in `format` (text, markdown, csv or json): the one choice of printer; text shows
// the `top` findings.
std::string FormatAdviceAs(OutputFormat format, const job::AdviceReport& r, int64_t top);

}  // namespace profana::report
