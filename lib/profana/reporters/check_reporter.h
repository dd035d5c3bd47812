// The reports of `profana check`: each rule of a budget or a baseline with its value and limits,
// or each trace validation check, as text or JSON (schema "profana.check/1", docs/json.md), and
// the one-line list of failures the failed check's message carries. Formatting only:
// passes/budget and passes/trace_validation measure.
#pragma once

#include <string>
#include <vector>

#include "profana/model/trace_names.h"
#include "profana/passes/budget.h"
#include "profana/passes/trace_validation.h"

namespace profana::report {

// What was checked, as the reports name it: "budget FILE", "baseline FILE, at most 5% slower".
std::string BudgetMode(const std::string& budget);
std::string BaselineMode(const std::string& baseline, double max_regression);

std::string FormatCheckText(const std::string& file, const std::string& mode,
                            const std::vector<passes::RuleResult>& results);
std::string FormatCheckJson(const std::string& file, const std::string& mode,
                            const std::vector<passes::RuleResult>& results);
// "step_time is 14.455ms (limit <= 12.000ms); ...": the failed rules; empty when all passed.
std::string RuleFailures(const std::vector<passes::RuleResult>& results);

// Validation checks read as rules with a limit of 0 (informational counts have none). The text
// names the first offending event of each.
std::string FormatValidationText(const std::string& file,
                                 const std::vector<passes::ValidationCheck>& checks,
                                 TraceNames names);
std::string FormatValidationJson(const std::string& file,
                                 const std::vector<passes::ValidationCheck>& checks);
// "549 device_without_launch, 31 overlapping_device_activity"; empty when all passed.
std::string ValidationFailures(const std::vector<passes::ValidationCheck>& checks);

// A check's report (text, or JSON when `json`) and the one-line list of its failures (empty
// when everything held), for the failed check's message. `count` says only how many failed
// ("2 of 3 rules failed"), for the message when the text report, which lists them, is printed
// just before it: each failure is then printed once.
struct CheckReport {
  std::string text;
  std::string failures;
  std::string count;
};
CheckReport ReportRules(bool json, const std::string& file, const std::string& mode,
                        const std::vector<passes::RuleResult>& results);
CheckReport ReportValidation(bool json, const std::string& file,
                             const std::vector<passes::ValidationCheck>& checks, TraceNames names);

}  // namespace profana::report
