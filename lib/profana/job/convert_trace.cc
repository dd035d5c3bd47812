#include "profana/job/convert_trace.h"

#include "fmt/format.h"
#include "profana/base/gzip_writer.h"
#include "profana/base/stopwatch.h"
#include "profana/io/chrome_trace_writer.h"
#include "profana/io/native_text.h"
#include "profana/io/native_writer.h"
#include "profana/job/job_inputs.h"
#include "profana/passes/function_events.h"

namespace profana::job {

Result<std::string> ConvertTrace(const std::string& path, const LoadRequest& load,
                                 const std::string& to, bool index, std::vector<LoadNote>* notes) {
  std::optional<JobInput> single = SingleTraceInput({path});
  if (!single)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("convert: {} is several traces: only a database (-o FILE.sqlite) "
                              "holds a whole job",
                              path));
  PROFANA_ASSIGN_OR_RETURN(LoadedInput loaded, LoadInput(*single, load, notes));
  const Trace& trace = loaded.trace;
  // A native input's index, written out again as it is unless a new one is made.
  std::optional<FunctionEventIndex>& function_index = loaded.function_index;
  auto note = [notes](std::string text) {
    notes->push_back({LoadNote::Level::kDebug, std::move(text)});
  };
  Stopwatch clock;
  if (to == "native" && index) {
    function_index =
        passes::MakeFunctionEventIndex(trace, passes::BuildFunctionEvents(trace, function_index));
    note(fmt::format("convert: function event index of {} events in {:.1f} ms",
                     function_index->source.size(), clock.Lap()));
  }
  std::string bytes = to == "native" ? native::WriteNative(trace, function_index)
                      : to == "text" ? native::WriteNativeText(trace)
                                     : io::WriteChromeTrace(trace);
  note(fmt::format("convert: wrote {} bytes of {} in {:.1f} ms", bytes.size(), to, clock.Lap()));
  if (to == "json.gz") {
    PROFANA_ASSIGN_OR_RETURN(bytes, GzipBytes(bytes));
    note(fmt::format("convert: gzipped to {} bytes in {:.1f} ms", bytes.size(), clock.Lap()));
  }
  return bytes;
}

}  // namespace profana::job
