#include "profana/passes/stacks.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "profana/base/flat_hash_map.h"
#include "profana/base/named_values.h"
#include "profana/model/trace_builder.h"
#include "profana/passes/backward_stacks.h"
#include "profana/passes/event_times.h"
#include "profana/passes/python_calls.h"

namespace profana::passes {
namespace {

bool HasPythonFunctions(const Trace& trace) {
  for (ActivityKind k : trace.events.kind)
    if (k == ActivityKind::kPythonFunction) return true;
  return false;
}

// The "Call stack" stacks (already propagated), copied into the pass's trie, with those the list
// added (verbose traces: FunctionEventList::added_stacks).
std::vector<StackId> CallStacks(const Trace& trace, const FunctionEventList& events,
                                FrameTrie* trie) {
  const StackTable& added = events.added_stacks;
  std::vector<StackId> mapped(trace.stacks.size() + added.size() - 1, StackId(0));
  for (uint32_t n = 1; n < trace.stacks.size(); ++n)  // parents are interned before children
    mapped[n] = trie->Intern(mapped[trace.stacks.parent[n].value], trace.stacks.frame[n]);
  for (uint32_t k = 1; k < added.size(); ++k)
    mapped[trace.stacks.size() + k - 1] =
        trie->Intern(mapped[added.parent[k].value], added.frame[k]);
  std::vector<StackId> out(events.size());
  for (size_t i = 0; i < events.size(); ++i) out[i] = mapped[events.stack[i].value];
  return out;
}

// Stacks rebuilt from python_function events (OpenPythonCalls, python_calls.h). Runtime calls
// are not on the chain; they take the stack of the op they are linked to (in PyTorch a linked
// call's tree parent is its op): the cpu_op credited with their device work, else the innermost
// cpu_op enclosing them (Kineto links a call to the cpu_op on top of its thread's correlation
// stack, never to a label); a call outside every cpu_op keeps the Python calls open at its start.
std::vector<StackId> PythonFunctionStacks(const Trace& trace, const FunctionEventList& events,
                                          FrameTrie* trie) {
  const EventTable& ev = trace.events;
  std::vector<StackId> out = OpenPythonCalls(trace, events, trie);
  std::vector<uint8_t> is_call(events.size(), 0);
  for (size_t i = 0; i < events.size(); ++i) {
    // Device events get none: PyTorch gives them stacks only with verbose=True, and then the file
    // has "Call stack" strings (CallStacks).
    if (events.device_type[i] != DeviceType::kCPU) out[i] = StackId(0);
    EventId source = events.source[i];
    is_call[i] = events.device_type[i] == DeviceType::kCPU && source.valid() &&
                 IsRuntimeOrDriver(ev.kind[source.value]);
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

namespace {

constexpr NamedValue<StackSource> kStackSources[] = {{"auto", StackSource::kAuto},
                                                     {"python", StackSource::kPython},
                                                     {"ops", StackSource::kOps},
                                                     {"both", StackSource::kBoth}};
constexpr NamedValue<StackMetric> kStackMetrics[] = {
    {"self_cpu", StackMetric::kSelfCpu},
    {"self_cuda", StackMetric::kSelfCuda},
    {"self_device", StackMetric::kSelfCuda},
    {"self_cpu_time_total", StackMetric::kSelfCpu},
    {"self_cuda_time_total", StackMetric::kSelfCuda},
    {"self_device_time_total", StackMetric::kSelfCuda}};

}  // namespace

Result<StackSource> ParseStackSource(std::string_view text) {
  return ParseNamedValue(text, "source", kStackSources);
}

std::vector<std::string> StackSourceNames() { return ListedNames(kStackSources); }

Result<StackMetric> ParseStackMetric(std::string_view text) {
  return ParseNamedValue(text, "metric", kStackMetrics);
}

std::vector<std::string> StackMetricNames() { return ListedNames(kStackMetrics); }

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
  out.rebuilt_python_stacks = source != StackSource::kOps && python_functions;
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

PythonStackSources FindPythonStackSources(const Trace& trace) {
  PythonStackSources out;
  out.call_stacks = trace.stacks.size() > 1;
  for (ActivityKind k : trace.events.kind)
    out.python_functions += k == ActivityKind::kPythonFunction;
  return out;
}

size_t CountPythonStacks(const Trace& trace, const FunctionEventList& events) {
  StackTable table;
  FrameTrie trie(&table);
  std::vector<StackId> stacks;
  if (trace.stacks.size() > 1)
    stacks = CallStacks(trace, events, &trie);
  else if (HasPythonFunctions(trace))
    stacks = PythonFunctionStacks(trace, events, &trie);
  std::vector<uint8_t> seen(table.size(), 0);
  size_t distinct = 0;
  for (StackId s : stacks)
    if (s.value != 0 && !seen[s.value]) seen[s.value] = 1, ++distinct;
  return distinct;
}

}  // namespace profana::passes
