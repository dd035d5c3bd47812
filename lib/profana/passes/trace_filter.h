// FilterTrace: the selection every command applies before its analysis (--steps, --window,
// --thread, --device, --stream, --name, --exclude). It returns a smaller Trace with the same
// strings, threads and stacks, so every pass runs unchanged on it. Rules (docs/semantics.md,
// "Filters"):
//  * Host events (everything that is not device activity) are selected by time (they overlap a
//    chosen ProfilerStep#N window and the --window), by thread, and by name. A --name match keeps
//    the event and everything it encloses on its thread; an --exclude match drops the event and
//    everything it encloses. Events are kept whole, never clipped.
//  * Device activity follows the runtime call that launched it (joined on "correlation"): a kernel
//    is kept when its launch passed the time, thread and exclude rules. Without a launch in the
//    trace it is judged by its own interval. --name also keeps device activity whose own name
//    matches; --exclude drops it. --device and --stream select device activity only.
//  * [memory] records are kept inside the time selection, on the chosen threads, of the chosen
//    device (CPU records always pass --device). Name rules do not apply to them.
//  * The profiler's own span (cat "Trace") is always kept, so times stay relative to the same
//    origin with and without filters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profana/base/status.h"
#include "profana/model/launch_index.h"
#include "profana/model/trace.h"

namespace profana::passes {

struct TraceFilter {
  std::vector<std::pair<int64_t, int64_t>> steps;  // inclusive ranges of N in ProfilerStep#N
  bool skip_first_step = false;
  std::optional<int64_t> window_start_ns;  // relative to the trace's metadata.origin
  std::optional<int64_t> window_end_ns;
  std::string window;                // the --window text as written, for messages
  std::vector<std::string> threads;  // tid or thread name
  std::vector<int32_t> devices;
  std::vector<std::string> streams;  // stream number ("7") or its name ("stream 7")
  std::string name;                  // RE2 regex, searched anywhere in the name
  std::string exclude;
  // Device activity with no launch in the trace is kept only on these devices (empty: on any).
  // Not a command-line filter: splitting a trace by process (job/process_split.h) gives such
  // activity to the process that owns its device.
  std::vector<int32_t> unlaunched_devices;

  bool empty() const {
    return steps.empty() && !skip_first_step && !window_start_ns && !window_end_ns &&
           threads.empty() && devices.empty() && streams.empty() && name.empty() && exclude.empty();
  }
};

// The parsers of the filters' option values. Bad text is kInvalidArgument, whose message begins
// with the text and says what was expected; the caller puts the option's name before it.

// "3-5", "7", "3-5,9".
Result<std::vector<std::pair<int64_t, int64_t>>> ParseStepRanges(const std::string& text);
// "START:END" from the trace start, each a duration (base/duration.h: "100ms", "2.5s", "250us"),
// a bare number in microseconds; either side may be empty ("100:", ":2500", "1.2ms:").
struct FilterWindow {
  std::optional<int64_t> start_ns;
  std::optional<int64_t> end_ns;
};
Result<FilterWindow> ParseWindow(std::string_view text);

// An accelerator as the command line names it: "cuda:0", "hip:1" (torch.device's spelling, any
// accelerator type but cpu) or a bare index "0". Device activity is numbered by index only, so
// the type names the device for the reader and is not checked against the trace. Anything
// else ("cpu", "cuda", "-1", "0x") is kInvalidArgument.
Result<int32_t> ParseDeviceIndex(std::string_view text);

// Selects in place. Errors (kInvalidArgument): a bad regex, --steps on a trace without
// ProfilerStep#N markers, or steps that select nothing.
// `launches`, when given, is a LaunchIndex over the trace's events as they are (a caller that has
// one saves building it again).
Status FilterTrace(const TraceFilter& filter, Trace* trace, const LaunchIndex* launches = nullptr);

}  // namespace profana::passes
