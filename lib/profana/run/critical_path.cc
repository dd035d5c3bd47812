#include "profana/run/critical_path.h"

#include <algorithm>

#include "profana/base/ends_with.h"
#include "profana/base/gzip_writer.h"
#include "profana/base/output_file.h"
#include "profana/job/critical_path_input.h"
#include "profana/job/critical_path_waits.h"
#include "profana/job/job_inputs.h"
#include "profana/reporters/critical_path_overlay.h"
#include "profana/reporters/critical_path_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {
namespace {

// One trace: its critical paths (job/critical_path_input.h), and the overlay when asked.
Result<report::CpRank> RunOne(const CriticalPathArgs& a, const passes::CpRequest& request,
                              const job::JobInput& input, Session& session,
                              job::RankPathComm* comm) {
  const std::string& path = input.path;
  session.Read(path);
  std::vector<job::LoadNote> notes;
  Result<std::unique_ptr<job::TraceCriticalPaths>> read = job::CriticalPathsOfInput(
      input, LoadRequestWithProgress(a.common, session), request, !a.overlay.empty(), &notes);
  session.Notes(notes);
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
    session.Debug("overlay: {} critical events and {} critical edges marked in {}",
                  counts.marked_events, counts.flow_pairs, a.overlay);
  }
  if (comm) *comm = job::PathCommOf(cp.trace, cp.result);
  return report::MakeCpRank(InputName(path), cp.trace, cp.trace.metadata, cp.result);
}

}  // namespace

Status RunCriticalPath(const CriticalPathArgs& a, Session& session) {
  passes::CpRequest request = a.request;
  request.top_events = static_cast<size_t>(a.events);
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::JobInput> inputs, job::ExpandInputs(a.inputs));
  if (!a.overlay.empty() && inputs.size() != 1)
    return Status(ErrorCode::kInvalidArgument, "--overlay takes one trace, not a job");
  if (!a.overlay.empty()) session.Read(a.overlay);
  std::vector<report::CpRank> ranks;
  std::vector<job::RankPathComm> comm(inputs.size());
  bool job = inputs.size() > 1;
  for (size_t i = 0; i < inputs.size(); ++i) {
    PROFANA_ASSIGN_OR_RETURN(report::CpRank r,
                             RunOne(a, request, inputs[i], session, job ? &comm[i] : nullptr));
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
  return session.Emit(report::FormatCriticalPathAs(a.common.format, ranks));
}

}  // namespace profana::run
