// The inputs of a whole-job command: FILE, DIR or GLOB arguments expanded into trace files, the
// rank of each, and the --ranks selection. Rules (docs/commands.md, "Several traces"):
//  * a directory stands for the traces directly inside it (not its subfolders), sorted by name;
//    a file is a trace when an importer claims its first bytes (after gunzip), or a summary
//    file (profana summarize);
//  * a glob (an argument with * ? or [ that names no file) stands for its matches, sorted;
//  * a rank is the header's distributedInfo.rank, else a number in the file name (rank3,
//    rank-3, worker_3, or _3. before an extension), else the input's position in the expanded
//    list; two inputs of one rank are an error naming both.
// Nothing here reads a whole trace: the header rank comes from the first bytes of the file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profana/base/input_file.h"
#include "profana/base/status.h"

namespace profana::job {

struct JobInput {
  std::string path;
  size_t order = 0;                    // position in the expanded list
  std::optional<int64_t> header_rank;  // distributedInfo.rank, when the first bytes hold it
  std::optional<int64_t> name_rank;    // from the file name
  // The file, still open from the expansion's look at its head, for the load to read (null:
  // the load opens the path). Only so many are held at once (FilesHeldOpen).
  std::shared_ptr<InputFile> file;
};

// An input named by its path alone, which its load opens.
inline JobInput InputOfPath(std::string path) {
  JobInput input;
  input.path = std::move(path);
  return input;
}

// The input's file: the one the expansion held open, else the path opened now.
Result<std::shared_ptr<InputFile>> OpenJobInput(const JobInput& input);

// Expands the arguments in order; a directory or glob contributes its sorted files. "-" (standard
// input) stays as given. `opened`: the file of a named argument a sniff already opened
// (SniffedInputs::summary), read rather than opened again. Errors: a missing path, an unmatched
// glob, a directory with no trace.
Result<std::vector<JobInput>> ExpandInputs(const std::vector<std::string>& args,
                                           std::shared_ptr<InputFile> opened = nullptr);

// The arguments, told apart by one open of the file a single argument names.
struct SniffedInputs {
  // The one trace they name, when they are exactly one path that is not a directory, a glob or a
  // summary file: commands then keep their single-trace behaviour and output. Its file stays open
  // for the load (JobInput::file; null when it cannot be opened: the load says why). nullopt: the
  // arguments are a job.
  std::optional<JobInput> single;
  // A job of one summary file: that file, still open, for ExpandInputs.
  std::shared_ptr<InputFile> summary;
  // The file the sniff opened, either way: what ExpandInputs reads should the input be read as a
  // job after all.
  std::shared_ptr<InputFile> opened() const { return single ? single->file : summary; }
};
SniffedInputs SniffInputs(const std::vector<std::string>& args);
// SniffInputs(args).single.
std::optional<JobInput> SingleTraceInput(const std::vector<std::string>& args);

// The rank a file name carries, if any: "rank3", "rank-3", "Rank_3", "worker3", "worker-3" (the
// first such word wins), else "_3." or "-3." (the last such number before a dot).
std::optional<int64_t> RankFromFileName(std::string_view path);

// distributedInfo.rank from the first bytes of a trace file (gunzipped, the first 256 KiB);
// nullopt when they do not hold it (the loaded trace still may).
std::optional<int64_t> PeekHeaderRank(std::string_view head);

// --ranks: "0-3,7" (ranges inclusive, in any order, overlapping allowed).
class RankSelection {
 public:
  static Result<RankSelection> Parse(std::string_view text);
  bool all() const { return ranges_.empty(); }
  bool Contains(int64_t rank) const;

 private:
  std::vector<std::pair<int64_t, int64_t>> ranges_;  // empty = every rank
};

// The rank an input ends up with once its trace is loaded: the trace's own distributedInfo.rank
// (metadata_rank >= 0), else the header peek, else the file name, else the order.
int64_t ResolveRank(const JobInput& input, int64_t metadata_rank);

}  // namespace profana::job
