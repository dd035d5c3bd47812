#include "profana/job/critical_path_input.h"

#include "profana/base/input_name.h"

namespace profana::job {

Result<std::unique_ptr<TraceCriticalPaths>> CriticalPathsOfInput(const JobInput& input,
                                                                 const LoadRequest& load,
                                                                 const passes::CpRequest& request,
                                                                 bool need_file,
                                                                 std::vector<LoadNote>* notes) {
  const std::string& path = input.path;
  auto out = std::make_unique<TraceCriticalPaths>();
  PROFANA_ASSIGN_OR_RETURN(LoadedInput loaded, LoadInput(input, load, notes));
  out->trace = std::move(loaded.trace);
  InputLimits limits;
  limits.max_bytes = load.load.limits.max_bytes;
  if (Result<std::optional<json::SourceFile>> read =
          json::ReadSourceFile(*loaded.file, out->trace, limits);
      read.ok())
    out->file = std::move(*read);
  else
    notes->push_back({LoadNote::Level::kWarning, read.status().message()});
  if (need_file && !out->file)
    return Status(ErrorCode::kInvalidArgument,
                  InputName(path) +
                      ": --overlay writes a Chrome-trace JSON file back, and needs "
                      "one (a file, not standard input)");
  PROFANA_ASSIGN_OR_RETURN(
      out->result,
      passes::ComputeCriticalPaths(out->trace, out->file ? &out->file->events : nullptr, request));
  return out;
}

}  // namespace profana::job
