#include "profana/passes/python_calls.h"

#include <algorithm>
#include <map>

#include "profana/base/flat_hash_map.h"
#include "profana/model/trace_builder.h"
#include "profana/passes/backward_stacks.h"

namespace profana::passes {

std::vector<StackId> OpenPythonCalls(const Trace& trace, const FunctionEventList& events,
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
  // A GPU user annotation has no link: its parent is whatever ran on the thread of its CPU label
  // (the one with its External id) when the annotation began on the device.
  FlatHashMap<int64_t, uint32_t> label_thread(64);
  for (size_t e = 0; e < ev.size(); ++e)
    if (ev.kind[e] == ActivityKind::kUserAnnotation && ev.external_id[e] != kNoId)
      label_thread.try_emplace(ev.external_id[e], ev.thread[e].value);
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
    EventId source = events.source[i];
    if (events.device_type[i] != DeviceType::kCPU) {
      if (!source.valid() || ev.kind[source.value] != ActivityKind::kGpuUserAnnotation) continue;
      const uint32_t* label = label_thread.find(ev.external_id[source.value]);
      if (!label) continue;
      std::vector<Open>& c = chain_at(*label, events.start_ns[i]);
      out[i] = c.empty() ? StackId(0) : c.back().node;
      continue;
    }
    std::vector<Open>& c = chain_at(events.thread[i].value, events.start_ns[i]);
    out[i] = c.empty() ? StackId(0) : c.back().node;
    if (!source.valid() || IsRuntimeOrDriver(ev.kind[source.value])) continue;
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
  return out;
}

}  // namespace profana::passes
