#include "profana/reporters/tree_reporter.h"

#include <algorithm>
#include <exception>

#include "profana/base/json_writer.h"
#include "profana/base/pipeline.h"
#include "profana/reporters/track_labels.h"
#include "profana/reporters/tree_text_lines.h"

namespace profana::report {
namespace {

// What visit() did with a node: skipped it, showed it alone, or showed it and wants its children.
enum Visited { kSkipped, kShown, kDescend };

// Pre-order walk with an explicit stack; leave(i) follows every node visit() did not skip.
template <typename Visit, typename Leave>
void Walk(const passes::FunctionEventList& e, const std::vector<uint32_t>& roots, Visit visit,
          Leave leave) {
  struct Frame {
    uint32_t node;
    uint32_t next_child;
    int depth;
  };
  std::vector<Frame> stack;
  for (uint32_t root : roots) {
    Visited v = visit(root, 1);
    if (v != kDescend) {
      if (v == kShown) leave(root);
      continue;
    }
    stack.push_back({root, e.child_begin[root], 1});
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next_child == e.child_begin[f.node + 1]) {
        leave(f.node);
        stack.pop_back();
        continue;
      }
      uint32_t c = e.child_index[f.next_child++].value;
      int depth = f.depth + 1;
      Visited v = visit(c, depth);
      if (v == kDescend)
        stack.push_back({c, e.child_begin[c], depth});
      else if (v == kShown)
        leave(c);
    }
  }
}

constexpr uint32_t kHidden = UINT32_MAX;

// Hash-consing of shown subtrees: two subtrees get the same id exactly when their keys are
// equal, and a key holds a node's name, shapes, shown kernels (name, stream) and the ids of its
// shown children in order. So equal ids mean equal subtrees, compared exactly, in time linear in
// the tree (no hash is trusted without comparing the keys).
class SubtreeIds {
 public:
  uint32_t Intern(const std::vector<uint32_t>& key) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the words, then a murmur finaliser
    for (uint32_t w : key) h = (h ^ w) * 1099511628211ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    if ((begin_.size() + 1) * 2 > slots_.size()) Grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.id == kHidden) {
        slot = {h, static_cast<uint32_t>(begin_.size() - 1)};
        arena_.insert(arena_.end(), key.begin(), key.end());
        begin_.push_back(static_cast<uint32_t>(arena_.size()));
        return slot.id;
      }
      if (slot.hash == h && std::equal(key.begin(), key.end(), arena_.begin() + begin_[slot.id],
                                       arena_.begin() + begin_[slot.id + 1]))
        return slot.id;
    }
  }

 private:
  // Open addressing, at most half full: a probe reads one slot, not a list of nodes.
  struct Slot {
    uint64_t hash = 0;
    uint32_t id = kHidden;
  };
  void Grow() {
    std::vector<Slot> slots(std::max<size_t>(slots_.size() * 2, 1024));
    size_t mask = slots.size() - 1;
    for (const Slot& s : slots_) {
      if (s.id == kHidden) continue;
      size_t i = s.hash & mask;
      while (slots[i].id != kHidden) i = (i + 1) & mask;
      slots[i] = s;
    }
    slots_.swap(slots);
  }

  std::vector<uint32_t> arena_;
  std::vector<uint32_t> begin_{0};  // id -> its key's start in arena_; one more, its end
  std::vector<Slot> slots_;
};

// The subtree id of every shown node of `roots` (kHidden for the rest), after --min-time and
// --depth.
void IdentifySubtrees(TraceNames t, const passes::FunctionEventList& e,
                      const passes::EventTimes& times, const std::vector<uint32_t>& roots,
                      const TreeReportOptions& a, SubtreeIds* ids, std::vector<uint32_t>* id_of) {
  std::vector<uint32_t> key;
  std::vector<uint32_t>& out = *id_of;
  const StringId step_name = StepNameId(t.strings);
  Walk(
      e, roots,
      [&](uint32_t i, int depth) -> Visited {
        if (times.CpuTotalNs(i) / 1000.0 < a.min_time_us) return kSkipped;
        return a.depth < 0 || depth < a.depth ? kDescend : kShown;
      },
      [&](uint32_t i) {
        key.clear();
        key.push_back(TreeOpNameId(t, e, i, step_name).value);
        key.push_back(e.input_shapes[i].value);
        for (uint32_t k = e.kernel_begin[i]; k < e.kernel_begin[i + 1]; ++k) {
          uint32_t ev = e.kernel_index[k].value;
          if (!TreeKernelShown(t, ev, a)) continue;
          key.push_back(1);  // marks a kernel, apart from the children below
          key.push_back(t.events.name[ev].value);
          key.push_back(t.events.thread[ev].value);
          key.push_back(static_cast<uint32_t>(t.events.device[ev]));
        }
        key.push_back(0);
        for (uint32_t c = e.child_begin[i]; c < e.child_begin[i + 1]; ++c) {
          uint32_t child = e.child_index[c].value;
          if (out[child] != kHidden) key.push_back(out[child]);
        }
        out[i] = ids->Intern(key);
      });
}

}  // namespace

// One line per op, appended in place: millions of lines, so no string is made per line.
//
// Folding: a run of consecutive shown siblings with the same subtree id is one group, printed
// once with " xN" (N, the run's length). A group's children are again grouped: position j of
// every member's children lines up (the members' subtrees are equal), so a child group holds
// the j-th children of all members, and a run of equal positions folds as one. The times of a
// group's line are sums over all its members. Without folding every group has one member, and
// the lines are those of a plain pre-order walk.
Status WriteTreeText(TraceNames t, const passes::FunctionEventList& e,
                     const passes::EventTimes& times,
                     const std::vector<passes::ThreadRoots>& threads, const TreeReportOptions& a,
                     OutputSink* sink) {
  TreeTextLines lines(t, e, times, a, sink);
  std::vector<uint32_t> id_of(e.size(), kHidden);
  // Ids are compared between siblings only, so each thread of the trace has its own table, and
  // the next thread's ids are worked out on a helper while this one prints (UseInOrder).
  struct Identified {
    SubtreeIds ids;
    std::exception_ptr failed;  // make must not throw: an allocation that failed is kept here
  };
  std::vector<Identified> identified(2);
  // Groups on the path from the root, with their members and their members' shown children,
  // all in one arena: members [begin, begin + k), then k rows of `width` children each.
  struct Frame {
    uint32_t begin;
    uint32_t k;
    uint32_t width;
    uint32_t next;  // the next child position to print
    int depth;
  };
  std::vector<uint32_t> arena;
  std::vector<Frame> stack;
  auto same = [&](uint32_t x, uint32_t y) { return a.fold && id_of[x] == id_of[y]; };

  // The group of members arena[begin, begin + k) as one line (with its kernels) and, when it
  // shows children, its frame.
  auto print_group = [&](uint32_t begin, uint32_t k, uint32_t count, int depth) {
    lines.Group(&arena[begin], k, count, depth);
    // The members' shown children, a row each.
    uint32_t rows = static_cast<uint32_t>(arena.size());
    for (uint32_t m = 0; m < k; ++m) {
      uint32_t member = arena[begin + m];
      for (uint32_t c = e.child_begin[member]; c < e.child_begin[member + 1]; ++c) {
        uint32_t child = e.child_index[c].value;
        if (id_of[child] != kHidden) arena.push_back(child);
      }
    }
    uint32_t width = (static_cast<uint32_t>(arena.size()) - rows) / k;
    if (width == 0) {
      arena.resize(begin);
      return;
    }
    stack.push_back({begin, k, width, 0, depth});
  };

  auto identify = [&](size_t k, size_t slot) {
    Identified& done = identified[slot];
    try {
      done.ids = SubtreeIds();
      done.failed = nullptr;
      IdentifySubtrees(t, e, times, threads[k].roots, a, &done.ids, &id_of);
    } catch (...) {
      done.failed = std::current_exception();
    }
  };
  auto print = [&](size_t k, size_t slot) {
    if (identified[slot].failed) std::rethrow_exception(identified[slot].failed);
    const auto& [thread, roots] = threads[k];
    // The shown roots, as the children of one member-less group at depth 0.
    arena.clear();
    for (uint32_t root : roots)
      if (id_of[root] != kHidden) arena.push_back(root);
    if (arena.empty()) return;  // a thread whose ops are all hidden is left out
    lines.Label(thread);
    stack.push_back({0, 1, static_cast<uint32_t>(arena.size()), 0, 0});
    // A member-less frame's children start at its begin; others after their k members.
    auto row_start = [](const Frame& f) { return f.depth == 0 ? f.begin : f.begin + f.k; };
    while (!stack.empty()) {
      Frame f = stack.back();
      if (f.next == f.width) {
        stack.pop_back();
        arena.resize(f.depth == 0 ? 0 : f.begin);
        continue;
      }
      uint32_t rows = row_start(f);
      uint32_t j = f.next;
      uint32_t run = 1;
      while (j + run < f.width && same(arena[rows + j + run], arena[rows + j])) ++run;
      stack.back().next = j + run;
      uint32_t begin = static_cast<uint32_t>(arena.size());
      for (uint32_t m = 0; m < f.k; ++m)
        for (uint32_t q = 0; q < run; ++q) arena.push_back(arena[rows + m * f.width + j + q]);
      print_group(begin, f.k * run, run, f.depth + 1);
    }
  };
  UseInOrder(e.size(), threads.size(), identified.size(), identify, print);
  return lines.Finish();
}

Status WriteTreeJson(TraceNames t, const passes::FunctionEventList& e,
                     const passes::EventTimes& times,
                     const std::vector<passes::ThreadRoots>& threads, const TreeReportOptions& a,
                     OutputSink* sink) {
  // The writer keeps its nesting state apart from the text, so the text can be written out and
  // cleared between any two values.
  ChunkedOutput chunks(sink);
  JsonWriter w(chunks.text());
  const StringId step_name = StepNameId(t.strings);
  w.BeginObject();
  w.Key("schema").String("profana.tree/1");
  w.Key("input").String(a.input);
  w.Key("threads").BeginArray();
  for (const auto& [thread, roots] : threads) {
    // A thread whose ops are all hidden is left out, as in text.
    bool any = false;
    for (uint32_t root : roots) any = any || times.CpuTotalNs(root) / 1000.0 >= a.min_time_us;
    if (!any) continue;
    const ThreadInfo& info = t.threads[thread.value];
    w.BeginObject();
    w.Key("pid");
    if (info.pid_text.value)
      w.String(t.str(info.pid_text));
    else
      w.Int(info.pid);
    w.Key("tid");
    if (info.tid_text.value)
      w.String(t.str(info.tid_text));
    else
      w.Int(info.tid);
    w.Key("name").String(t.str(info.name));
    w.Key("roots").BeginArray();
    Walk(
        e, roots,
        [&](uint32_t i, int depth) -> Visited {
          chunks.MaybeFlush();
          passes::EventTime x;
          times.Exact(i, &x);
          if (x.cpu_total_ns / 1000.0 < a.min_time_us) return kSkipped;
          w.BeginObject();
          w.Key("name").String(t.str(TreeOpNameId(t, e, i, step_name)));
          w.Key("start_us").Micros(e.start_ns[i] - e.origin_ns);
          w.Key("total_us").Micros(x.cpu_total_ns);
          w.Key("self_us").Micros(x.self_cpu_ns);
          w.Key("device_total_us").Micros(x.cuda_total_ns);
          w.Key("device_self_us").Micros(x.self_cuda_ns);
          w.Key("input_shapes");
          if (e.input_shapes[i].value)
            w.String(t.str(e.input_shapes[i]));
          else
            w.Null();
          w.Key("kernels").BeginArray();
          for (uint32_t k = e.kernel_begin[i]; k < e.kernel_begin[i + 1]; ++k) {
            uint32_t ev = e.kernel_index[k].value;
            if (!TreeKernelShown(t, ev, a)) continue;
            w.BeginObject();
            w.Key("name").String(t.str(t.events.name[ev]));
            w.Key("device").Int(t.events.device[ev]);
            w.Key("stream").String(StreamLabel(t, ev));
            w.Key("start_us").Micros(t.events.start_ns[ev] - e.origin_ns);
            w.Key("dur_us").Micros(t.events.end_ns[ev] - t.events.start_ns[ev]);
            w.EndObject();
          }
          w.EndArray();
          w.Key("children").BeginArray();
          return a.depth < 0 || depth < a.depth ? kDescend : kShown;
        },
        [&](uint32_t) {
          w.EndArray();
          w.EndObject();
        });
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return chunks.Finish();
}

Status WriteTreeAs(OutputFormat format, TraceNames names, const passes::FunctionEventList& events,
                   const passes::EventTimes& times, const std::vector<passes::ThreadRoots>& threads,
                   const TreeReportOptions& options, OutputSink* sink) {
  return format == OutputFormat::kJson
             ? WriteTreeJson(names, events, times, threads, options, sink)
             : WriteTreeText(names, events, times, threads, options, sink);
}

}  // namespace profana::report
