#include "profana/job/job_runner.h"

#include <algorithm>
#include <map>
#include <optional>

#include "fmt/format.h"
#include "profana/base/worker_pool.h"

namespace profana::job {
namespace {

std::vector<int64_t> RanksOf(const RankSummary& s) {
  std::vector<int64_t> out;
  for (const SourceInfo& src : s.sources) out.push_back(src.rank);
  return out;
}

}  // namespace

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
  std::vector<std::optional<Result<std::vector<RankSummary>>>> results(todo.size());
  size_t cores = AvailableCores();
  if (workers == 0) workers = cores;
  // As many parser threads per trace as the process has cores would only add their buffers to the
  // peak, the cores being busy with the other traces (scripts/bench --job).
  size_t at_once = std::clamp<size_t>(std::min(workers, todo.size()), 1, cores);
  size_t cores_each = std::max<size_t>(cores / at_once, 1);
  RunOnWorkers(todo.size(), workers,
               [&](size_t i) { results[i].emplace(summarize(*todo[i], cores_each)); });

  // The summaries, each with the input it came from.
  std::vector<std::pair<size_t, RankSummary>> parts;
  for (size_t i = 0; i < todo.size(); ++i) {
    if (!results[i]->ok()) return results[i]->status();
    std::vector<RankSummary>& from_input = **results[i];
    for (size_t k = 0; k < from_input.size(); ++k) {
      RankSummary& s = from_input[k];
      // A summary file's ranks were settled when it was written (it may hold several); the
      // processes of one input follow its rank.
      if (!s.ranks_settled)
        SetRank(&s, from_input.size() == 1 ? ResolveRank(*todo[i], s.rank())
                                           : ResolveRank(*todo[i], -1) + static_cast<int64_t>(k));
      parts.emplace_back(i, std::move(s));
    }
  }
  std::map<int64_t, size_t> by_rank;  // rank -> index into parts
  std::vector<size_t> kept;           // indexes into parts
  for (size_t p = 0; p < parts.size(); ++p) {
    auto& [i, s] = parts[p];
    size_t selected = 0;
    for (const SourceInfo& src : s.sources) {
      found.push_back(src.rank);
      selected += ranks.Contains(src.rank);
    }
    if (selected == 0) continue;
    if (selected != s.sources.size())
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{} holds ranks {}, and --ranks keeps only some of them (a "
                                "summary of several ranks is kept or left whole)",
                                todo[i]->path, FormatRankList(RanksOf(s))));
    for (const SourceInfo& src : s.sources) {
      auto [it, added] = by_rank.emplace(src.rank, p);
      if (!added)
        return Status(
            ErrorCode::kInvalidArgument,
            fmt::format("{} and {} are both rank {} (a rank comes from distributedInfo.rank, "
                        "else the file name, else the order, and the processes of one file "
                        "follow its rank; --ranks selects)",
                        todo[parts[it->second].first]->path, todo[i]->path, src.rank));
    }
    kept.push_back(p);
  }
  if (by_rank.empty()) {
    std::sort(found.begin(), found.end());
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--ranks keeps none of the {} input{} (their ranks: {})",
                              inputs.size(), inputs.size() == 1 ? "" : "s", FormatRankList(found)));
  }
  JobSummary job;
  std::sort(kept.begin(), kept.end(),
            [&](size_t a, size_t b) { return parts[a].second.rank() < parts[b].second.rank(); });
  job.ranks.reserve(kept.size());
  for (size_t p : kept) job.ranks.push_back(std::move(parts[p].second));
  return job;
}

}  // namespace profana::job
