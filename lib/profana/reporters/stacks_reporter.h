// Collapsed ("folded") stack text for flamegraph tools: PyTorch's export_stacks lines, the
// merged form (one line per distinct stack, sorted), and the two-column differential form.
// Frames are written root first, with " ;\t\n" turned into "_" as export_stacks does.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "profana/base/output_sink.h"
#include "profana/base/string_pool.h"
#include "profana/job/rank_summary.h"
#include "profana/passes/stack_text.h"
#include "profana/reporters/frame_labels.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

// How weights are printed. export_stacks' lines in kMicros are PyTorch's: each event's time cut
// to whole microseconds. Every merge (--merge, --diff, JSON, a job, the SVG) sums exact
// nanoseconds, and kMicros rounds each stack's sum once (StacksInUnit).
enum class StackUnit { kMicros, kNanos };

// One line per sample with a positive weight, in sample order: export_stacks, byte for byte.
// Written to `sink` as it is made (a line per event runs to hundreds of MB on traces with
// stacks); `labels` relabel every stack (--fold-instances).
// Frames are StringIds of `strings`, the pool of the trace the samples came from.
Status WriteCollapsed(const StringPool& strings, const passes::StackSamples& samples,
                      StackUnit unit, FrameLabels labels, OutputSink* sink);
std::string FormatCollapsed(const StringPool& strings, const passes::StackSamples& samples,
                            StackUnit unit);
// A merge (nanoseconds) in `unit`: microseconds rounded to the nearest, stacks that round to
// nothing left out.
std::map<std::string, int64_t> StacksInUnit(const std::map<std::string, int64_t>& merged_ns,
                                            StackUnit unit);
std::string FormatMerged(const std::map<std::string, int64_t>& merged);
// "stack weight_base weight_new" for every stack in either, sorted (difffolded.pl's format).
std::string FormatDiff(const std::map<std::string, int64_t>& base,
                       const std::map<std::string, int64_t>& next);

// One trace's stacks merged as the commands print them (for --merge, --diff, JSON, a whole job
// and the SVG) when `merged` is asked for, in nanoseconds. export_stacks' lines are written by
// WriteCollapsed.
struct StacksText {
  std::map<std::string, int64_t> merged;
  std::map<std::string, int64_t> display;  // the merge with real spaces, for the SVG (`display`)
  passes::StackSource source = passes::StackSource::kAuto;  // where the stacks came from
};
StacksText ShapeStacks(const StringPool& strings, const passes::StackSamples& samples, bool merged,
                       bool display = false);

// --fold-instances: numbered module instances folded into one frame (FoldInstance) in the merge;
// the display merge is left to StacksSvg.
void FoldStackInstances(StacksText* stacks);

// The flamegraph SVG of `run` (a differential from `base` when given): frames named from the
// display merge where there is one (real spaces), else the merge, relabelled by `labels`.
std::string StacksSvg(const StacksText& run, const StacksText* base, const std::string& title,
                      FrameLabels labels);

// What `stacks` prints for a merged result (the differential and export_stacks' lines aside):
// JSON or the merge's lines, in `unit`. `input` and `ranks` name what the JSON describes.
std::string FormatStacksAs(OutputFormat format, const StacksText& stacks, const std::string& input,
                           passes::StackMetric metric, StackUnit unit,
                           const std::vector<int64_t>& ranks);

// Why the samples hold nothing to draw, for a warning: no device activity for self_cuda, or no
// Python stacks recorded. Empty when there is no such reason.
// Where the Python stacks came from, when a user comparing with PyTorch's file must know: stacks
// rebuilt from python_function events, for which PyTorch 2.x's export_stacks writes nothing.
// "" otherwise.
std::string StacksOriginNote(const passes::StackSamples& samples);
std::string EmptyStacksReason(const passes::StackSamples& samples, passes::StackMetric metric);

// A whole job's stacks, each rank's under a "rank N" root frame (--by-rank), so that one
// flamegraph shows the ranks side by side.
std::map<std::string, int64_t> StacksByRank(const std::vector<job::RankSummary>& ranks);

// The flamegraph's title: "INPUT (METRIC, SOURCE stacks)".
std::string FlamegraphTitle(const std::string& input, const std::string& metric,
                            passes::StackSource source);

// "python", "ops", "both", "auto": as --stacks names the source.
const char* StackSourceName(passes::StackSource source);

// The merged stacks (weights in `unit`) as JSON (schema "profana.stacks/1", docs/json.md): each
// stack's frames, root first, and its weight. `ranks`: the ranks a whole job's stacks were summed
// over (none for one trace).
std::string FormatStacksJson(const std::string& input, passes::StackMetric metric,
                             passes::StackSource source, StackUnit unit,
                             const std::map<std::string, int64_t>& merged,
                             const std::vector<int64_t>& ranks = {});

}  // namespace profana::report
