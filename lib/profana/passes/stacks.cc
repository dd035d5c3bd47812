#include "profana/passes/stacks.h"

#include <cmath>
#include <unordered_map>

#include "profana/model/trace_builder.h"
#include "profana/passes/backward_stacks.h"
#include "profana/passes/event_times.h"

namespace profana::passes {
namespace {

// The pass's own frame trie: (parent, frame) -> node. Past kMaxStackFrames every frame folds
// into one [deeper frames] node (frame id 0) under the cut stack.
class FrameTrie {
 public:
  explicit FrameTrie(StackTable* table) : t_(table) {}
  StackId Intern(StackId parent, StringId frame) {
    uint32_t depth = t_->depth[parent.value];
    if (depth > kMaxStackFrames) return parent;
    if (depth == kMaxStackFrames) frame = StringId(0);
    uint64_t key = (static_cast<uint64_t>(parent.value) << 32) | frame.value;
    auto [it, inserted] = nodes_.try_emplace(key, StackId(static_cast<uint32_t>(t_->size())));
    if (inserted) {
      t_->parent.push_back(parent);
      t_->frame.push_back(frame);
      t_->depth.push_back(t_->depth[parent.value] + 1);
    }
    return it->second;
  }

 private:
  StackTable* t_;
  std::unordered_map<uint64_t, StackId> nodes_;
};

bool HasPythonFunctions(const Trace& trace) {
  for (ActivityKind k : trace.events.kind)
    if (k == ActivityKind::kPythonFunction) return true;
  return false;
}

// The "Call stack" stacks (already propagated), copied into the pass's trie.
std::vector<StackId> CallStacks(const Trace& trace, const FunctionEventList& events,
                                FrameTrie* trie) {
  std::vector<StackId> mapped(trace.stacks.size(), StackId(0));
  for (uint32_t n = 1; n < trace.stacks.size(); ++n)  // parents are interned before children
    mapped[n] = trie->Intern(mapped[trace.stacks.parent[n].value], trace.stacks.frame[n]);
  std::vector<StackId> out(events.size());
  for (size_t i = 0; i < events.size(); ++i) out[i] = mapped[events.stack[i].value];
  return out;
}

// Stacks rebuilt from python_function events: an op's frames are the Python calls open around it
// on its thread, innermost last in the trie. Both sequences are in (start, -end) order, so one
// merge with a stack of open calls per thread does it.
std::vector<StackId> PythonFunctionStacks(const Trace& trace, const FunctionEventList& events,
                                          FrameTrie* trie) {
  const EventTable& ev = trace.events;
  struct Open {
    int64_t end_ns;
    StackId node;
  };
  std::unordered_map<uint32_t, std::vector<Open>> open;
  auto top = [&](uint32_t thread, int64_t start, int64_t end) -> std::vector<Open>& {
    std::vector<Open>& s = open[thread];
    while (!s.empty() && (start >= s.back().end_ns || end > s.back().end_ns)) s.pop_back();
    return s;
  };
  std::vector<StackId> out(events.size(), StackId(0));
  size_t p = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    // Python calls starting before the op (or with it and ending no earlier) open first.
    for (; p < ev.size(); ++p) {
      if (ev.start_ns[p] > events.start_ns[i] ||
          (ev.start_ns[p] == events.start_ns[i] && ev.end_ns[p] < events.end_ns[i]))
        break;
      if (ev.kind[p] != ActivityKind::kPythonFunction) continue;
      std::vector<Open>& s = top(ev.thread[p].value, ev.start_ns[p], ev.end_ns[p]);
      StackId parent = s.empty() ? StackId(0) : s.back().node;
      StackId node =
          KeepStackEntry(trace.str(ev.name[p])) ? trie->Intern(parent, ev.trace_name[p]) : parent;
      s.push_back({ev.end_ns[p], node});
    }
    if (events.device_type[i] != DeviceType::kCPU) continue;
    std::vector<Open>& s = top(events.thread[i].value, events.start_ns[i], events.end_ns[i]);
    out[i] = s.empty() ? StackId(0) : s.back().node;
  }
  PropagateBackwardStacks(trace, events, &out);
  return out;
}

int64_t Truncate(double us) { return static_cast<int64_t>(std::trunc(us)); }

}  // namespace

bool ParseStackSource(std::string_view text, StackSource* source) {
  if (text == "auto")
    *source = StackSource::kAuto;
  else if (text == "python")
    *source = StackSource::kPython;
  else if (text == "ops")
    *source = StackSource::kOps;
  else if (text == "both")
    *source = StackSource::kBoth;
  else
    return false;
  return true;
}

bool ParseStackMetric(std::string_view text, StackMetric* metric) {
  if (text == "self_cpu" || text == "self_cpu_time_total")
    *metric = StackMetric::kSelfCpu;
  else if (text == "self_cuda" || text == "self_cuda_time_total")
    *metric = StackMetric::kSelfCuda;
  else
    return false;
  return true;
}

StackSamples ComputeStackSamples(const Trace& trace, const FunctionEventList& events,
                                 StackSource source, StackMetric metric) {
  StackSamples out;
  FrameTrie trie(&out.trie);
  for (DeviceType d : events.device_type) out.has_device_activity |= d != DeviceType::kCPU;
  bool call_stacks = trace.stacks.size() > 1;
  bool python_functions = !call_stacks && HasPythonFunctions(trace);
  if (source == StackSource::kAuto)
    source = call_stacks || python_functions ? StackSource::kPython : StackSource::kOps;
  out.source = source;

  std::vector<StackId> python;
  if (source != StackSource::kOps) {
    python = call_stacks        ? CallStacks(trace, events, &trie)
             : python_functions ? PythonFunctionStacks(trace, events, &trie)
                                : std::vector<StackId>(events.size(), StackId(0));
  }
  EventTimes times(trace, events);
  std::unordered_map<uint32_t, size_t> folded;  // [deeper frames] node -> its one sample
  auto add = [&](StackId node, double us, int64_t ns) {
    if (out.trie.depth[node.value] > kMaxStackFrames) {
      auto [it, first] = folded.try_emplace(node.value, out.stack.size());
      if (!first) {
        out.weight_us[it->second] += Truncate(us);
        out.weight_ns[it->second] += ns;
        return;
      }
    }
    out.stack.push_back(node);
    out.weight_us.push_back(Truncate(us));
    out.weight_ns.push_back(ns);
  };

  if (source == StackSource::kPython) {
    // export_stacks: every event with a stack and a non-zero metric, in event order.
    for (size_t i = 0; i < events.size(); ++i) {
      if (python[i].value == 0) continue;
      EventTime t = times[i];
      if (metric == StackMetric::kSelfCpu)
        add(python[i], t.self_cpu_us, t.self_cpu_ns);
      else
        add(python[i], t.self_cuda_us, t.self_cuda_ns);
    }
    return out;
  }

  // The op path of every CPU event, on top of its root op's Python stack for "both".
  std::vector<StackId> op_node(events.size(), StackId(0));
  for (size_t i = 0; i < events.size(); ++i) {
    if (events.device_type[i] != DeviceType::kCPU) continue;
    FnEventId p = events.parent[i];
    StackId base =
        p.valid() ? op_node[p.value] : (source == StackSource::kBoth ? python[i] : StackId(0));
    op_node[i] = trie.Intern(base, events.name[i]);
  }
  if (metric == StackMetric::kSelfCpu) {
    for (size_t i = 0; i < events.size(); ++i)
      if (events.device_type[i] == DeviceType::kCPU) {
        EventTime t = times[i];
        add(op_node[i], t.self_cpu_us, t.self_cpu_ns);
      }
    return out;
  }
  // Device time: each activity under the op that launched it; the rest under one root frame.
  const EventTable& ev = trace.events;
  auto us = [&](uint32_t e) {
    return (ev.end_ns[e] - events.origin_ns) / 1000.0 -
           (ev.start_ns[e] - events.origin_ns) / 1000.0;
  };
  std::vector<uint8_t> linked(ev.size(), 0);
  for (size_t i = 0; i < events.size(); ++i) {
    for (uint32_t k = events.kernel_begin[i]; k < events.kernel_begin[i + 1]; ++k) {
      uint32_t e = events.kernel_index[k].value;
      linked[e] = 1;
      add(trie.Intern(op_node[i], ev.name[e]), us(e), ev.end_ns[e] - ev.start_ns[e]);
    }
  }
  for (size_t i = 0; i < events.size(); ++i) {
    if (events.device_type[i] == DeviceType::kCPU || linked[events.source[i].value]) continue;
    if (out.orphan_root.value == 0) {
      // A root frame of its own, outside the trie's map so no op name can meet it.
      out.orphan_root = StackId(static_cast<uint32_t>(out.trie.size()));
      out.trie.parent.push_back(StackId(0));
      out.trie.frame.push_back(StringId(0));
      out.trie.depth.push_back(1);
    }
    uint32_t e = events.source[i].value;
    add(trie.Intern(out.orphan_root, ev.name[e]), us(e), ev.end_ns[e] - ev.start_ns[e]);
  }
  return out;
}

}  // namespace profana::passes
