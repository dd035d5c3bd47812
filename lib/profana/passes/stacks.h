// ComputeStackSamples: weighted call stacks for flamegraphs, from any trace.
//
// One sample per FunctionEvent (or per device activity, for op stacks of device time), in
// function_events order, with its stack as a node of a frame trie of the pass's own (frames are
// StringIds of the trace's pool). Where the stacks come from:
//  * python: the recorded Python stack, from "Call stack" strings or rebuilt from the
//    python_function events enclosing the op on its thread (newer traces), after backward-stack
//    propagation. This is PyTorch's export_stacks.
//  * ops: the CPU op tree itself, root op ... op; for device time, the launched activity is the
//    leaf frame, and activities no op launched hang under "[no launching op]".
//  * both: the Python frames, then the op path.
//  * auto: python when the trace recorded any Python stack, else ops.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/status.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

enum class StackSource { kAuto, kPython, kOps, kBoth };
enum class StackMetric { kSelfCpu, kSelfCuda };

// "auto", "python", "ops", "both"; an unknown name is kInvalidArgument listing them.
Result<StackSource> ParseStackSource(std::string_view text);
std::vector<std::string> StackSourceNames();
// "self_cpu", "self_cuda", and PyTorch's "self_cpu_time_total", "self_cuda_time_total"; the device
// time also as "self_device" and "self_device_time_total" (PyTorch 2.x's export_stacks reads a
// metric's "cuda" as "device").
Result<StackMetric> ParseStackMetric(std::string_view text);
std::vector<std::string> StackMetricNames();

// Stacks deeper than this many frames are cut: the frames below are folded into one
// "[deeper frames]" frame, and the samples ending there are summed into one. A trace nested a
// million ops deep would otherwise print a million lines of up to a million frames each.
constexpr uint32_t kMaxStackFrames = 1024;

struct StackSamples {
  StackTable trie;             // node 0 = empty stack; frames root first
  std::vector<StackId> stack;  // per sample: its innermost frame's node
  // Per sample: the metric as PyTorch's export_stacks writes it, int() of float microseconds;
  // and exactly, in nanoseconds.
  std::vector<int64_t> weight_us;
  std::vector<int64_t> weight_ns;
  StackSource source = StackSource::kPython;  // what kAuto resolved to
  // The Python stacks were rebuilt from python_function events: the trace was recorded without
  // verbose=True, and PyTorch 2.x's own export_stacks of it is empty (PythonStackSources).
  bool rebuilt_python_stacks = false;
  StackId orphan_root;  // the "[no launching op]" frame, 0 if none
  static constexpr std::string_view kOrphanFrame = "[no launching op]";
  static constexpr std::string_view kDeeperFrame =
      "[deeper frames]";  // at depth kMaxStackFrames + 1
  bool has_device_activity = false;
};

StackSamples ComputeStackSamples(const Trace& trace, const FunctionEventList& events,
                                 StackSource source, StackMetric metric);

// Where a trace's Python stacks come from. PyTorch 2.x writes "Call stack" on ops only when it
// ran with experimental_config=_ExperimentalConfig(verbose=True) (1.x did with with_stack); with
// with_stack alone it writes python_function events, and its own FunctionEvents (so
// export_stacks, and tables grouped by stack) then have no stacks at all, while profana rebuilds
// them from those events.
struct PythonStackSources {
  bool call_stacks = false;       // ops carry "Call stack" args
  uint64_t python_functions = 0;  // python_function events
};
PythonStackSources FindPythonStackSources(const Trace& trace);

// The distinct non-empty Python stacks the function events have, as `stacks --stacks python`
// gives them ("Call stack" strings, else rebuilt from python_function events).
size_t CountPythonStacks(const Trace& trace, const FunctionEventList& events);

}  // namespace profana::passes
