// The lines of `profana tree`'s text: a group of ops as one line (with " xN" when folded) and
// its kernels' lines, and a thread's label. The walk (tree_reporter.cc) decides the groups and
// records them in batches; the text of a batch, three times the walk's work (times summed over
// the members, numbers, names, kernels), is made by two formatter threads where there are two
// cores, and the batches are written to the sink in order. A few batches are in flight at most:
// memory does not grow with the tree.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "profana/base/output_sink.h"
#include "profana/base/status.h"
#include "profana/model/trace_names.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"
#include "profana/reporters/tree_reporter.h"

namespace profana::report {

// "ProfilerStep*" as the trace's pool holds it, for TreeOpNameId (StringId 0 when no event has it).
StringId StepNameId(const StringPool& strings);
// An op's name; a step keeps its number (ProfilerStep#12, not key_averages' ProfilerStep*). Ids
// are compared, not text: a pool holds each string once.
inline StringId TreeOpNameId(TraceNames t, const passes::FunctionEventList& e, uint32_t i,
                             StringId step_name) {
  StringId name = e.name[i];
  if (name == step_name && name.value != 0 && e.source[i] != passes::kSynthetic)
    return t.events.trace_name[e.source[i].value];
  return name;
}
// Kernels shorter than --min-time are hidden as ops are.
inline bool TreeKernelShown(TraceNames t, uint32_t ev, const TreeReportOptions& a) {
  return (t.events.end_ns[ev] - t.events.start_ns[ev]) / 1000.0 >= a.min_time_us;
}

class TreeTextLines {
 public:
  // Reads the trace's names, the list and the times until Finish: keep them alive and unchanged.
  TreeTextLines(TraceNames t, const passes::FunctionEventList& e, const passes::EventTimes& times,
                const TreeReportOptions& a, OutputSink* sink);
  ~TreeTextLines();
  TreeTextLines(const TreeTextLines&) = delete;
  TreeTextLines& operator=(const TreeTextLines&) = delete;

  // The line of the group of `k` members (equal subtrees), shown as `count` folded siblings, at
  // `depth`, and its kernels' lines.
  void Group(const uint32_t* members, uint32_t k, uint32_t count, int depth);
  // A thread's label line.
  void Label(ThreadId thread);
  // Writes what is left; the status of the whole output (the sink's first failed write).
  Status Finish();

 private:
  struct Text;  // a formatter's own: the caches of names and labels, scratch
  // Groups recorded in order, then their text, made by whichever formatter took the batch.
  struct Batch {
    std::vector<uint32_t> records;
    std::string text;
    bool done = false;
  };
  void Format(Text* text, Batch* batch);
  void Hand();
  void WriteDone(std::unique_lock<std::mutex>* lock);
  void Run(Text* text);

  OutputSink* sink_;
  Status status_;
  std::vector<std::unique_ptr<Text>> texts_;  // one per formatter thread, or one used here
  std::vector<std::unique_ptr<Batch>> storage_;
  std::vector<Batch*> free_;
  Batch* current_ = nullptr;  // being recorded
  // Handed over: in_flight_ in order (written out from the front once done), todo_ not yet taken.
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Batch*> in_flight_, todo_;
  bool stopping_ = false;
};

}  // namespace profana::report
