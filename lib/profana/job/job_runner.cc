#include "profana/job/job_runner.h"

#include <algorithm>
#include <map>
#include <optional>

#include "fmt/format.h"
#include "profana/base/worker_pool.h"

namespace profana::job {

Result<JobSummary> SummarizeJob(const std::vector<JobInput>& inputs, const RankSelection& ranks,
                                size_t workers, const Summarizer& summarize) {
  // A rank the header already names, outside the selection, is not read at all.
  std::vector<const JobInput*> todo;
  std::vector<int64_t> found;  // every input's rank, for the message when none is selected
  for (const JobInput& in : inputs) {
    if (!in.header_rank || ranks.Contains(*in.header_rank))
      todo.push_back(&in);
    else
      found.push_back(*in.header_rank);
  }
  std::vector<std::optional<Result<RankSummary>>> results(todo.size());
  if (workers == 0) workers = AvailableCores();
  RunOnWorkers(todo.size(), workers, [&](size_t i) { results[i].emplace(summarize(*todo[i])); });

  std::map<int64_t, size_t> by_rank;  // rank -> index into todo
  for (size_t i = 0; i < todo.size(); ++i) {
    if (!results[i]->ok()) return results[i]->status();
    RankSummary& s = **results[i];
    int64_t rank = ResolveRank(*todo[i], s.rank());
    for (SourceInfo& src : s.sources) src.rank = rank;
    for (RankStep& step : s.steps) step.rank = rank;
    found.push_back(rank);
    if (!ranks.Contains(rank)) continue;
    auto [it, added] = by_rank.emplace(rank, i);
    if (!added)
      return Status(
          ErrorCode::kInvalidArgument,
          fmt::format("{} and {} are both rank {} (a rank comes from distributedInfo.rank, "
                      "else the file name, else the order; --ranks selects)",
                      todo[it->second]->path, todo[i]->path, rank));
  }
  if (by_rank.empty()) {
    std::sort(found.begin(), found.end());
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--ranks keeps none of the {} input{} (their ranks: {})",
                              inputs.size(), inputs.size() == 1 ? "" : "s", FormatRankList(found)));
  }
  JobSummary job;
  job.ranks.reserve(by_rank.size());
  for (const auto& [rank, i] : by_rank) job.ranks.push_back(std::move(**results[i]));
  return job;
}

}  // namespace profana::job
