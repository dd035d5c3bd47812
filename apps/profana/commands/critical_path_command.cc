// profana critical-path: HTA's critical path of each step (or one step, or an annotation's
// instance) of a trace, or of every rank of a job; what-if predictions; the overlay trace.
#include <algorithm>

#include "profana/base/gzip_writer.h"
#include "profana/base/output_file.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/job/critical_path_input.h"
#include "profana/job/critical_path_waits.h"
#include "profana/job/job_inputs.h"
#include "profana/passes/critical_path/critical_path.h"
#include "profana/reporters/critical_path_overlay.h"
#include "profana/reporters/critical_path_reporter.h"

namespace profana::app {
namespace {

struct CriticalPathArgs {
  CommonOptions common;
  std::vector<std::string> inputs;
  int64_t events = 0;  // -n: its default is AddRowLimitOption's
  std::string overlay;
  bool overlay_all_edges = false;
  passes::CpRequest request;  // the window asked for (--step, --annotation), --what-if, ...
};

bool EndsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// One trace: its critical paths (job/critical_path_input.h), and the overlay when asked.
Result<report::CpRank> RunOne(const CriticalPathArgs& a, const passes::CpRequest& request,
                              const job::JobInput& input, Context& ctx, job::RankPathComm* comm) {
  const std::string& path = input.path;
  ctx.inputs.push_back(path);
  std::vector<job::LoadNote> notes;
  Result<std::unique_ptr<job::TraceCriticalPaths>> read = job::CriticalPathsOfInput(
      input, LoadRequestWithProgress(a.common, ctx), request, !a.overlay.empty(), &notes);
  PrintNotes(notes, ctx);
  PROFANA_RETURN_IF_ERROR(read.status());
  const job::TraceCriticalPaths& cp = **read;
  if (!a.overlay.empty()) {
    report::OverlayCounts counts;
    std::string doc =
        report::WriteCriticalPathOverlay(cp.file->bytes.view(), cp.file->events, cp.trace,
                                         cp.result.windows, a.overlay_all_edges, &counts);
    if (EndsWith(a.overlay, ".gz")) {
      PROFANA_ASSIGN_OR_RETURN(doc, GzipBytes(doc));
    }
    PROFANA_RETURN_IF_ERROR(WriteFileReplacing(a.overlay, doc));
    ctx.log.Debug("overlay: {} critical events and {} critical edges marked in {}",
                  counts.marked_events, counts.flow_pairs, a.overlay);
  }
  if (comm) *comm = job::PathCommOf(cp.trace, cp.result);
  return report::MakeCpRank(InputName(path), cp.trace, cp.result);
}

Status RunCriticalPath(const CriticalPathArgs& a, Context& ctx) {
  passes::CpRequest request = a.request;
  request.top_events = static_cast<size_t>(a.events);
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::JobInput> inputs, job::ExpandInputs(a.inputs));
  if (!a.overlay.empty() && inputs.size() != 1)
    return Status(ErrorCode::kInvalidArgument, "--overlay takes one trace, not a job");
  if (!a.overlay.empty()) ctx.inputs.push_back(a.overlay);
  std::vector<report::CpRank> ranks;
  std::vector<job::RankPathComm> comm(inputs.size());
  bool job = inputs.size() > 1;
  for (size_t i = 0; i < inputs.size(); ++i) {
    PROFANA_ASSIGN_OR_RETURN(report::CpRank r,
                             RunOne(a, request, inputs[i], ctx, job ? &comm[i] : nullptr));
    if (job || r.rank < 0) r.rank = job::ResolveRank(inputs[i], r.rank);
    comm[i].rank = r.rank;
    ranks.push_back(std::move(r));
  }
  if (job) {
    // Collective waits on the paths, attributed to the rank that arrived last.
    size_t windows = 0;
    for (const report::CpRank& r : ranks) windows = std::max(windows, r.windows.size());
    job::CommWaits waits = job::JobCommWaits(comm, windows);
    for (size_t i = 0; i < ranks.size(); ++i)
      for (size_t w = 0; w < ranks[i].windows.size(); ++w)
        ranks[i].windows[w].comm_wait_by_rank = waits[i][w];
  }
  std::sort(ranks.begin(), ranks.end(),
            [](const report::CpRank& x, const report::CpRank& y) { return x.rank < y.rank; });
  return Emit(report::FormatCriticalPathAs(a.common.format, ranks), a.common, ctx);
}

}  // namespace

void RegisterCriticalPathCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CriticalPathArgs>();
  CLI::App* cmd = app.add_subcommand(
      "critical-path",
      "The chain of CPU ops, launches, kernels and synchronisations that sets each step's length "
      "(HTA's critical path), what would change it (--what-if), and an overlay trace");
  cmd->add_option("FILE", args->inputs,
                  "Trace file, or a directory or glob of a job's rank traces; - reads standard "
                  "input")
      ->required();
  // With both, --annotation wins: CLI11 runs the callbacks in the order the options are added.
  cmd->add_option_function<int64_t>(
         "--step",
         [args](int64_t n) {
           args->request.select = passes::CpRequest::Select::kStep;
           args->request.step = n;
         },
         "Only ProfilerStep#N (default: every step)")
      ->check(WholeNumber<int64_t>("--step", 0));
  cmd->add_option_function<std::string>(
      "--annotation",
      [args](const std::string& v) {
        args->request.select = passes::CpRequest::Select::kAnnotation;
        args->request.annotation = v;
      },
      "The window of an event whose name holds NAME (HTA's annotation); \"\" is the whole trace");
  cmd->add_option("--instance", args->request.instance,
                  "Which event --annotation means: 0 the first, in time order (default 0)")
      ->check(WholeNumber<int64_t>("--instance", 0));
  cmd->add_option("--data-load", args->request.data_load,
                  "User annotations whose names match this regex are ops on the path (HTA's "
                  "data_load_events)");
  AddParsedOption(
      cmd, "--what-if",
      [args](const std::string& text) -> Status {
        PROFANA_ASSIGN_OR_RETURN(passes::CpWhatIf w, passes::ParseWhatIf(text));
        args->request.what_if.push_back(std::move(w));
        return Status::Ok();
      },
      "KIND:REGEX=FACTOR (KIND kernel, op, sync or launch): rescale the matching edges and "
      "predict the step's length; repeat for several, applied in turn",
      true);
  AddRowLimitOption(cmd, &args->events, RowKind::kRanked, 0,
                    "How many of the path's events to list per window");
  cmd->add_option("--events", args->events, "How many of the path's events to list per window")
      ->check(WholeNumber<int64_t>("--events", 0))
      ->group("");  // hidden: command lines written with it keep working
  cmd->add_flag("--causal-launch-edges", args->request.causal_launch_edges,
                "Add a zero-weight edge from every launch call to its kernel (HTA's "
                "CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE; always on with --what-if)");
  cmd->add_option("--overlay", args->overlay,
                  "Write the trace back with \"critical\": 1 on the path's events and flow "
                  "arrows on its edges, as HTA does (.gz: gzipped); opens in Perfetto");
  cmd->add_flag("--overlay-all-edges", args->overlay_all_edges,
                "Draw every critical edge in the overlay, not only dependency, launch and sync "
                "edges");
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
  SetRun(cmd, ctx, args, RunCriticalPath);
}

}  // namespace profana::app
