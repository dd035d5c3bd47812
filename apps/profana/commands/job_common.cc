#include "profana/commands/job_common.h"

#include <sstream>

#include "fmt/format.h"
#include "profana/job/job_inputs.h"
#include "spdlog/sinks/ostream_sink.h"

namespace profana::app {

void AddJobInputs(CLI::App* command, JobArgs* a, const std::string& what, bool by_rank) {
  command
      ->add_option("FILE", a->inputs,
                   what +
                       ": trace files, directories (the traces inside, sorted) or globs; one "
                       "rank each; - reads standard input")
      ->required();
  command->add_option("--ranks", a->ranks,
                      "Only these ranks of the inputs: 0-3,7 (a rank is distributedInfo.rank, else "
                      "a number in the file name, else the position)");
  command
      ->add_option("--jobs", a->jobs,
                   "Traces read at once (each held until summarised; default: the cores this "
                   "process may use)")
      ->check(CLI::NonNegativeNumber);
  if (by_rank)
    command->add_flag("--by-rank", a->by_rank, "One block per rank instead of the ranks summed");
}

bool IsSingleTraceRun(const JobArgs& a) {
  return a.ranks.empty() && !a.by_rank && job::IsSingleTrace(a.inputs);
}

Result<job::JobSummary> LoadJob(const JobArgs& a, const CommonOptions& options, Context& ctx,
                                const RankReducer& reduce) {
  if (options.verbose) ctx.log->set_level(spdlog::level::debug);
  job::RankSelection selection;
  if (!a.ranks.empty()) {
    PROFANA_ASSIGN_OR_RETURN(selection, job::RankSelection::Parse(a.ranks));
  }
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::JobInput> inputs, job::ExpandInputs(a.inputs));
  // Each input writes its warnings and --verbose lines to its own buffers.
  struct Output {
    std::string err;
    std::ostringstream log;
  };
  std::vector<Output> outputs(inputs.size());
  Stopwatch clock;
  auto summarize = [&](const job::JobInput& in) -> Result<job::RankSummary> {
    Output& o = outputs[in.order];
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(o.log);
    sink->set_pattern("%v");
    auto logger = std::make_shared<spdlog::logger>("profana", sink);
    logger->set_level(ctx.log->level());
    Context local{nullptr, &o.err, nullptr, logger};
    PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(in.path, options, local));
    passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
    return reduce(trace, events, in.path);
  };
  Result<job::JobSummary> job =
      job::SummarizeJob(inputs, selection, static_cast<size_t>(a.jobs), summarize);
  for (Output& o : outputs) {
    std::istringstream lines(o.log.str());
    for (std::string line; std::getline(lines, line);) ctx.log->debug("{}", line);
    ctx.err->append(o.err);
  }
  if (job.ok())
    ctx.log->debug("{} input{} read and summarised in {:.1f} ms (peak RSS {:.0f} MB)",
                   inputs.size(), inputs.size() == 1 ? "" : "s", clock.Lap(), PeakRssMb());
  return job;
}

Trace StringsOnlyTrace(StringPool strings, const std::string& format) {
  Trace t;
  t.strings = std::move(strings);
  t.metadata.format = format;
  return t;
}

}  // namespace profana::app
