// Advice: findings about a trace (or a job), each from one rule with a stable id, with its
// evidence, an estimated saving and a one-line fix, ranked by the saving. A rule is a pure
// function of the analyses (AdviceContext) to at most one finding; the rules are one table
// (AdviceRules), which names each rule's source (HTA, the TensorBoard plugin's performance
// recommendations, Nsight Systems' expert rules). A saving never exceeds the critical path of
// the steps it was measured over: no change can shorten a step by more than its longest chain.
// Definitions: docs/advise.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/collective_analysis.h"
#include "profana/job/step_breakdown.h"
#include "profana/model/launch_index.h"
#include "profana/model/trace.h"
#include "profana/passes/budget.h"
#include "profana/passes/critical_path/critical_path.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_streams.h"

namespace profana::job {

// One contributor to a finding: an op, kernel or call, with how often and how long.
struct FindingItem {
  std::string name;
  int64_t count = 0;
  int64_t ns = 0;
};

struct Finding {
  std::string rule;            // the rule's id ("host-sync")
  int64_t rank = -1;           // the rank it was found on; -1 for a single trace or the whole job
  int64_t count = 0;           // occurrences (calls, kernels, copies, steps)
  int64_t raw_saving_ns = 0;   // the rule's own estimate
  int64_t saving_ns = 0;       // bounded by the critical path
  std::string evidence;        // one sentence with the numbers
  std::vector<int64_t> steps;  // ProfilerStep#N where it was seen
  std::vector<FindingItem> items;  // the main contributors, largest first
};

struct AdviceOptions {
  int64_t small_kernel_ns = 10'000;  // small-kernels: kernels shorter than this
  double min_share = 0.05;           // share-based rules fire at or above this share
  int64_t max_items = 5;             // contributors listed per finding
};

// What the rules read, made once per trace.
struct AdviceContext {
  const Trace* trace = nullptr;
  const passes::FunctionEventList* events = nullptr;
  const LaunchIndex* launches = nullptr;
  std::vector<StepRow> steps;  // empty without ProfilerStep#N
  passes::IdleBreakdown idle;
  passes::CriticalPathResult critical_path;  // per step (or the whole trace)
  int64_t critical_path_ns = 0;              // the paths' total: the bound of every saving
  int64_t steps_wall_ns = 0;                 // the steps' total wall (the trace's span without)
  AdviceOptions options;

  // Whether a host time lies in a step (always, without steps).
  bool InSteps(int64_t ts) const;
  // The step whose window holds ts (-1: none).
  int64_t StepAt(int64_t ts) const;
};

struct AdviceRule {
  const char* id;
  const char* title;   // what the finding says, in a few words
  const char* fix;     // the one-line fix
  const char* source;  // the rule it follows: "Nsight Systems cuda_memcpy_sync", ...
  // Null for a rule measured on a whole job (straggler).
  bool (*run)(const AdviceContext& context, Finding* finding);
};

// The rules, in the order they are documented. Ids are part of the interface.
const std::vector<AdviceRule>& AdviceRules();
const AdviceRule* FindAdviceRule(const std::string& id);

// Builds the context of one trace: function events, steps, idle breakdown, critical paths.
// `source` (may be null) holds the trace file's cuda_sync waits for the critical path.
AdviceContext MakeAdviceContext(const Trace& trace, const passes::FunctionEventList& events,
                                const LaunchIndex& launches, const SourceEvents* source,
                                const AdviceOptions& options);

// Every runnable rule on one trace; findings with their savings bounded, largest first.
std::vector<Finding> AdviseTrace(const AdviceContext& context, int64_t rank);

// The job rules (straggler) on a job's collectives, bounded by the job's critical path total.
std::vector<Finding> AdviseJob(const CollectivesResult& collectives, int64_t critical_path_ns);

// Largest saving first; ties by rule id, then rank.
void RankFindings(std::vector<Finding>* findings);

// The budget rules on advice (advise.<rule>.saving_ms in ms, advise.<rule>.count): each the sum
// over the findings of its rule (every rank), 0 when the rule did not fire. kInvalidArgument for a
// rule id that is not in the table, or one that cannot run yet.
Result<std::vector<passes::RuleResult>> EvaluateAdviceRules(
    const std::vector<Finding>& findings, const std::vector<passes::BudgetRule>& rules);

}  // namespace profana::job
