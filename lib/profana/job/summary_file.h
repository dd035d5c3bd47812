// Summary files (profana.summary/1, docs/summary-format.md): a RankSummary written as JSON, so a
// rank's trace can be summarised on one machine and merged on another. Everything is written in
// a canonical order (sources by rank, rows by origin, maps by key) with exact integers, so equal
// summaries are equal bytes, whatever merge tree made them.
#pragma once

#include <string>
#include <string_view>

#include "profana/base/input_file.h"
#include "profana/base/status.h"
#include "profana/job/rank_summary.h"

namespace profana::job {

inline constexpr std::string_view kSummarySchema = "profana.summary/1";

// True when the first bytes of a file are a summary's (its schema key comes first).
bool LooksLikeSummary(std::string_view first_bytes);

std::string FormatSummary(const RankSummary& summary);

// Reads a whole summary file (plain or gzipped).
Result<RankSummary> ReadSummaryFile(const std::string& path);
Result<RankSummary> ReadSummaryFile(const InputFile& file);

// Reads a summary; `name` is how errors name the file. Refuses another major version, and any
// field of the wrong type or out of range, naming its place ("table[3].count").
Result<RankSummary> ParseSummary(std::string_view text, const std::string& name);

}  // namespace profana::job
