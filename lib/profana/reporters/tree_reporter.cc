#include "profana/reporters/tree_reporter.h"

#include <algorithm>
#include <iterator>

#include "fmt/format.h"
#include "profana/reporters/json_writer.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/terminal_text.h"
#include "profana/reporters/track_labels.h"

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

// Indentation stops growing at kMaxIndent levels and deeper lines say their depth, so a trace
// nested 100,000 ops deep prints in linear, not quadratic, space.
constexpr int kMaxIndent = 64;
void AppendIndent(std::string* out, int depth) {
  out->append(static_cast<size_t>(std::min(depth, kMaxIndent)) * 2, ' ');
  if (depth > kMaxIndent) fmt::format_to(std::back_inserter(*out), "[depth {}] ", depth);
}

// An op's name; a step keeps its number (ProfilerStep#12, not key_averages' ProfilerStep*).
std::string_view OpName(const Trace& t, const passes::FunctionEventList& e, uint32_t i) {
  std::string_view name = t.str(e.name[i]);
  if (name == "ProfilerStep*" && e.source[i] != passes::kSynthetic)
    return t.str(t.events.trace_name[e.source[i].value]);
  return name;
}

// Kernels shorter than --min-time are hidden as ops are.
bool KernelShown(const Trace& t, uint32_t ev, const TreeReportOptions& a) {
  return (t.events.end_ns[ev] - t.events.start_ns[ev]) / 1000.0 >= a.min_time_us;
}

}  // namespace

// One line per op, appended in place: millions of lines, so no string is made per line.
Status WriteTreeText(const Trace& t, const passes::FunctionEventList& e,
                     const passes::EventTimes& times,
                     const std::vector<passes::ThreadRoots>& threads, const TreeReportOptions& a,
                     OutputSink* sink) {
  ChunkedOutput chunks(sink);
  std::string& out = *chunks.text();
  auto us = [](int64_t ns) { return ns / 1000.0; };
  for (const auto& [thread, roots] : threads) {
    bool labelled = false;  // a thread whose ops are all hidden is left out
    Walk(
        e, roots,
        [&](uint32_t i, int depth) -> Visited {
          chunks.MaybeFlush();
          passes::EventTime x;
          times.Exact(i, &x);
          if (us(x.cpu_total_ns) < a.min_time_us) return kSkipped;
          if (!labelled) out += Printable(ThreadLabel(t, thread)) + "\n";
          labelled = true;
          AppendIndent(&out, depth);
          out += Printable(OpName(t, e, i));
          out += "  total ";
          AppendTime(&out, us(x.cpu_total_ns));
          out += ", self ";
          AppendTime(&out, us(x.self_cpu_ns));
          if (x.cuda_total_ns) {
            out += ", device ";
            AppendTime(&out, us(x.cuda_total_ns));
          }
          if (e.input_shapes[i].value) {
            out += "  ";
            out += Printable(t.str(e.input_shapes[i]));
          }
          out += "\n";
          for (uint32_t k = e.kernel_begin[i]; k < e.kernel_begin[i + 1]; ++k) {
            uint32_t ev = e.kernel_index[k].value;
            if (!KernelShown(t, ev, a)) continue;
            AppendIndent(&out, depth);
            out += "  -> ";
            out += Printable(t.str(t.events.name[ev]));
            out += "  ";
            AppendTime(&out, us(t.events.end_ns[ev] - t.events.start_ns[ev]));
            out += " on ";
            out += Printable(StreamLabel(t, ev));
            out += "\n";
          }
          return a.depth < 0 || depth < a.depth ? kDescend : kShown;
        },
        [](uint32_t) {});
  }
  return chunks.Finish();
}

Status WriteTreeJson(const Trace& t, const passes::FunctionEventList& e,
                     const passes::EventTimes& times,
                     const std::vector<passes::ThreadRoots>& threads, const TreeReportOptions& a,
                     OutputSink* sink) {
  // The writer keeps its nesting state apart from the text, so the text can be written out and
  // cleared between any two values.
  ChunkedOutput chunks(sink);
  JsonWriter w(chunks.text());
  w.BeginObject();
  w.Key("schema").String("profana.tree/1");
  w.Key("input").String(a.input);
  w.Key("threads").BeginArray();
  for (const auto& [thread, roots] : threads) {
    // A thread whose ops are all hidden is left out, as in text.
    bool any = false;
    for (uint32_t root : roots) {
      passes::EventTime x;
      times.Exact(root, &x);
      any = any || x.cpu_total_ns / 1000.0 >= a.min_time_us;
    }
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
          w.Key("name").String(OpName(t, e, i));
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
            if (!KernelShown(t, ev, a)) continue;
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

}  // namespace profana::report
