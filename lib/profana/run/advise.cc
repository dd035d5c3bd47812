#include "profana/run/advise.h"

#include "profana/job/advice/advise_inputs.h"
#include "profana/reporters/advise_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunAdvise(const AdviseArgs& a, Session& session) {
  job::AdviceOptions options;
  options.small_kernel_ns = a.small_kernel_ns;
  std::vector<job::LoadNote> notes;
  Result<job::AdviceRun> run = job::AdviseInputs(
      a.inputs, LoadRequestWithProgress(a.common, session), a.common.link, options, &notes);
  session.Notes(notes);
  PROFANA_RETURN_IF_ERROR(run.status());
  session.Read(run->paths);
  return session.Emit(report::FormatAdviceAs(a.common.format, run->report, a.top));
}

}  // namespace profana::run
