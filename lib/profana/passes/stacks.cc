#include "profana/passes/stacks.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "profana/base/flat_hash_map.h"
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

// Stacks rebuilt from python_function events, as PyTorch 2.x's event tree gives them
// (collection.cpp build_tree): per thread, a chain of open Python calls and ops in start order.
// Before each event, every open event that ended strictly before its start is finished, and
// finishing one finishes everything opened above it on the chain. The event's parent is then the
// top of the chain, and an op's stack is the Python calls under it on the chain: the calls open
// at its start, including one that returns before the op ends (the record_function it entered
// outlives it). An op with nothing open on its thread hangs under the top of its forward
// thread's chain (PyTorch's forward_tid fallback). Runtime calls are not on the chain; they take
// the stack of the op they are linked to (in PyTorch a linked call's tree parent is its op): the
// cpu_op credited with their device work, else the innermost cpu_op enclosing them (Kineto links
// a call to the cpu_op on top of its thread's correlation stack, never to a label); a call
// outside every cpu_op keeps the Python calls open at its start.
std::vector<StackId> PythonFunctionStacks(const Trace& trace, const FunctionEventList& events,
                                          FrameTrie* trie) {
  const EventTable& ev = trace.events;
  struct Open {
    int64_t end_ns;
    int64_t min_end_ns;  // the earliest end from the bottom of the chain up to this entry
    StackId node;        // the Python frames at and under this entry
  };
  std::vector<std::vector<Open>> chains(trace.threads.size());
  // The chain of a thread once everything that ended before `start` is finished.
  auto chain_at = [&](uint32_t thread, int64_t start) -> std::vector<Open>& {
    std::vector<Open>& c = chains[thread];
    // min_end_ns never rises up the chain: the first entry whose value is below start is the
    // outermost finished one, and it takes everything above it along.
    auto first = std::partition_point(c.begin(), c.end(),
                                      [&](const Open& o) { return o.min_end_ns >= start; });
    c.erase(first, c.end());
    return c;
  };
  auto push = [](std::vector<Open>& c, int64_t start, int64_t end, StackId node) {
    if (end <= start) return;  // zero-length events finish at once
    c.push_back({end, c.empty() ? end : std::min(end, c.back().min_end_ns), node});
  };
  ForwardThreads forward(trace, events);
  std::map<std::pair<int64_t, int64_t>, uint32_t> thread_of;  // (pid, thread number) -> thread
  for (uint32_t t = 0; t < trace.threads.size(); ++t)
    thread_of.try_emplace({trace.threads[t].pid, forward.Number(ThreadId(t))}, t);
  // The forward thread most ops of a thread name: an autograd engine thread's. Ops there that
  // record none (AccumulateGrad has no sequence number, so no "Fwd thread id" is written) were
  // made by the same forward thread.
  std::vector<int64_t> usual_forward(trace.threads.size(), -1);
  {
    std::map<std::pair<uint32_t, int64_t>, uint32_t> votes;
    for (size_t i = 0; i < events.size(); ++i)
      if (events.fwd_thread[i] > 0)
        ++votes[{events.thread[i].value, forward.Of(events.fwd_thread[i])}];
    std::vector<uint32_t> best(trace.threads.size(), 0);
    for (const auto& [key, n] : votes)
      if (key.second >= 0 && n > best[key.first]) {
        best[key.first] = n;
        usual_forward[key.first] = key.second;
      }
  }
  std::vector<StackId> out(events.size(), StackId(0));
  std::vector<uint8_t> is_call(events.size(), 0);
  size_t p = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    // Python calls starting before the event (or with it and ending no earlier) come first.
    for (; p < ev.size(); ++p) {
      if (ev.start_ns[p] > events.start_ns[i] ||
          (ev.start_ns[p] == events.start_ns[i] && ev.end_ns[p] < events.end_ns[i]))
        break;
      if (ev.kind[p] != ActivityKind::kPythonFunction) continue;
      std::vector<Open>& c = chain_at(ev.thread[p].value, ev.start_ns[p]);
      StackId parent = c.empty() ? StackId(0) : c.back().node;
      StackId node =
          KeepStackEntry(trace.str(ev.name[p])) ? trie->Intern(parent, ev.trace_name[p]) : parent;
      push(c, ev.start_ns[p], ev.end_ns[p], node);
    }
    if (events.device_type[i] != DeviceType::kCPU) continue;
    std::vector<Open>& c = chain_at(events.thread[i].value, events.start_ns[i]);
    out[i] = c.empty() ? StackId(0) : c.back().node;
    EventId source = events.source[i];
    if (source.valid() && IsRuntimeOrDriver(ev.kind[source.value])) {
      is_call[i] = 1;
      continue;
    }
    if (!source.valid()) continue;
    int64_t fwd_number = events.fwd_thread[i] > 0 ? forward.Of(events.fwd_thread[i])
                                                  : usual_forward[events.thread[i].value];
    if (c.empty() && fwd_number >= 0) {
      // An op with nothing open on its thread hangs under the current event of its forward
      // thread: the autograd engine's top-level ops under the Python call that ran backward().
      const ThreadInfo& own = trace.threads[events.thread[i].value];
      auto fwd = thread_of.find({own.pid, fwd_number});
      if (fwd != thread_of.end() && fwd->second != events.thread[i].value) {
        std::vector<Open>& f = chain_at(fwd->second, events.start_ns[i]);
        if (!f.empty()) out[i] = f.back().node;
      }
    }
    push(c, events.start_ns[i], events.end_ns[i], out[i]);
  }
  // Calls take their op's stack: the cpu_op credited with the work of their correlation id.
  FlatHashMap<int64_t, uint32_t> op_of_correlation(1024);
  for (uint32_t i = 0; i < events.size(); ++i)
    for (uint32_t k = events.kernel_begin[i]; k < events.kernel_begin[i + 1]; ++k) {
      int64_t corr = ev.correlation[events.kernel_index[k].value];
      if (corr != kNoId) op_of_correlation.try_emplace(corr, i);
    }
  for (size_t i = 0; i < events.size(); ++i) {
    if (!is_call[i]) continue;
    int64_t corr = ev.correlation[events.source[i].value];
    const uint32_t* op = corr != kNoId ? op_of_correlation.find(corr) : nullptr;
    // Kineto links calls to cpu_ops only, never to a record_function label.
    if (op && ev.kind[events.source[*op].value] == ActivityKind::kCpuOp) {
      out[i] = out[*op];
      continue;
    }
    // A call with no work to go by is linked to the innermost cpu_op open on its thread.
    for (FnEventId up = events.parent[i]; up.valid(); up = events.parent[up.value]) {
      EventId s = events.source[up.value];
      if (s.valid() && ev.kind[s.value] == ActivityKind::kCpuOp) {
        out[i] = out[up.value];
        break;
      }
    }
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
      // A Kineto overhead event lists its op's kernels too (PyTorch's id rule): count them once,
      // under the op, which comes first.
      if (linked[e]) continue;
      linked[e] = 1;
      add(trie.Intern(op_node[i], ev.name[e]), us(e), ev.end_ns[e] - ev.start_ns[e]);
    }
  }
  for (size_t i = 0; i < events.size(); ++i) {
    if (events.device_type[i] == DeviceType::kCPU || linked[events.source[i].value]) continue;
    // A GPU user annotation spans device work, it is none itself.
    if (ev.kind[events.source[i].value] == ActivityKind::kGpuUserAnnotation) continue;
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
