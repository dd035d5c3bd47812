#include "profana/job/summary_merge.h"

#include <map>
#include <string>

#include "fmt/format.h"
#include "profana/base/input_buffer.h"
#include "profana/base/input_name.h"
#include "profana/job/summary_file.h"

namespace profana::job {

Result<RankSummary> MergeSummaryFiles(const std::vector<JobInput>& inputs) {
  RankSummary merged;
  // Which input brought each source and rank in, to name both files when one comes twice.
  std::map<std::string, std::string> by_hash;
  std::map<int64_t, std::string> by_rank;
  InputLimits limits;
  limits.could_start = LooksLikeSummary;
  for (const JobInput& in : inputs) {
    auto not_summary = [&] {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}: not a summary file (make one with profana summarize)",
                                InputName(in.path)));
    };
    if (in.path == "-") return not_summary();
    // Read through the file the expansion holds open.
    Result<std::shared_ptr<InputFile>> file = OpenJobInput(in);
    Result<InputBuffer> input =
        file.ok() ? ReadInput(**file, limits) : Result<InputBuffer>(file.status());
    // A file that cannot be read whole is a summary's error only when its first bytes say so.
    if (!input.ok())
      return file.ok() && LooksLikeSummary((*file)->Head(256)) ? input.status() : not_summary();
    if (!LooksLikeSummary(input->view())) return not_summary();
    PROFANA_ASSIGN_OR_RETURN(RankSummary s, ParseSummary(input->view(), in.path));
    for (const SourceInfo& src : s.sources) {
      if (!src.hash.empty()) {
        // One file's sources may share a hash: the processes of one export, one rank each.
        auto [it, added] = by_hash.emplace(src.hash, in.path);
        if (!added && it->second != in.path)
          return Status(ErrorCode::kInvalidArgument,
                        fmt::format("{} and {} both hold {} (same content): merging would count "
                                    "it twice",
                                    it->second, in.path, src.path));
      }
      auto [it, added] = by_rank.emplace(src.rank, in.path);
      if (!added)
        return Status(ErrorCode::kInvalidArgument,
                      fmt::format("{} and {} both hold rank {}", it->second, in.path, src.rank));
    }
    if (Status st = Merge(&merged, s); !st.ok())
      return Status(st.code(), fmt::format("merging {}: {}", in.path, st.message()));
  }
  return merged;
}

}  // namespace profana::job
