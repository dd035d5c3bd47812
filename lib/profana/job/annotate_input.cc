#include "profana/job/annotate_input.h"

#include "profana/base/input_name.h"
#include "profana/job/trace_events.h"

namespace profana::job {

Result<std::unique_ptr<AnnotatedInput>> LoadAnnotatedInput(const std::string& path,
                                                           const LoadRequest& load,
                                                           passes::LinkRule link,
                                                           std::vector<LoadNote>* notes) {
  auto out = std::make_unique<AnnotatedInput>();
  PROFANA_ASSIGN_OR_RETURN(LoadedInput loaded, LoadInput(path, load, notes));
  out->trace = std::move(loaded.trace);
  InputLimits limits;
  limits.max_bytes = load.load.limits.max_bytes;
  std::optional<json::SourceFile> file;
  if (loaded.file) {
    PROFANA_ASSIGN_OR_RETURN(file, json::ReadSourceFile(*loaded.file, out->trace, limits));
  }
  if (!file)
    return Status(ErrorCode::kInvalidArgument,
                  InputName(path) +
                      ": --annotate writes a Chrome-trace JSON file back, and "
                      "needs one (a file, not standard input)");
  out->file = std::move(*file);
  PROFANA_ASSIGN_OR_RETURN(out->events,
                           BuildTraceEvents(out->trace, loaded.function_index, path, link, notes));
  return out;
}

}  // namespace profana::job
