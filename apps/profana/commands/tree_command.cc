// profana tree: the CPU op tree per thread, with self and total time, the device activity each op
// launched, and input shapes. Walked iteratively: traces can nest very deep.
#include <algorithm>
#include <iterator>

#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"
#include "profana/reporters/json_writer.h"
#include "profana/reporters/number_format.h"

namespace profana::app {
namespace {

struct TreeArgs {
  CommonOptions common;
  std::string file;
  int depth = -1;
  std::string thread;
  double min_time_us = 0;
};

std::string ThreadLabel(const Trace& t, ThreadId id) {
  const ThreadInfo& info = t.threads[id.value];
  std::string tid =
      info.tid_text.value ? std::string(t.str(info.tid_text)) : std::to_string(info.tid);
  std::string pid =
      info.pid_text.value ? std::string(t.str(info.pid_text)) : std::to_string(info.pid);
  std::string label = fmt::format("thread {} (pid {})", tid, pid);
  if (info.name.value) label += fmt::format(" \"{}\"", t.str(info.name));
  return label;
}

bool ThreadMatches(const Trace& t, ThreadId id, const std::string& wanted) {
  if (wanted.empty()) return true;
  const ThreadInfo& info = t.threads[id.value];
  std::string tid =
      info.tid_text.value ? std::string(t.str(info.tid_text)) : std::to_string(info.tid);
  return wanted == tid || (info.name.value && wanted == t.str(info.name));
}

// The roots of each thread, threads in order of their first root.
std::vector<std::pair<ThreadId, std::vector<uint32_t>>> RootsByThread(
    const Trace& t, const passes::FunctionEventList& e, const TreeArgs& a) {
  std::vector<std::pair<ThreadId, std::vector<uint32_t>>> threads;
  std::vector<int32_t> slot(t.threads.size(), -1);
  for (uint32_t i = 0; i < e.size(); ++i) {
    if (e.device_type[i] != passes::DeviceType::kCPU || e.parent[i] >= 0) continue;
    if (!ThreadMatches(t, e.thread[i], a.thread)) continue;
    int32_t& s = slot[e.thread[i].value];
    if (s < 0) {
      s = static_cast<int32_t>(threads.size());
      threads.push_back({e.thread[i], {}});
    }
    threads[s].second.push_back(i);
  }
  return threads;
}

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
      uint32_t c = e.child_index[f.next_child++];
      int depth = f.depth + 1;
      Visited v = visit(c, depth);
      if (v == kDescend)
        stack.push_back({c, e.child_begin[c], depth});
      else if (v == kShown)
        leave(c);
    }
  }
}

std::string StreamLabel(const Trace& t, uint32_t event) {
  const ThreadInfo& info = t.threads[t.events.thread[event].value];
  std::string stream =
      info.tid_text.value ? std::string(t.str(info.tid_text)) : fmt::format("stream {}", info.tid);
  int32_t device = t.events.device[event];
  return device >= 0 ? fmt::format("device {} {}", device, stream) : stream;
}

// Indentation stops growing at kMaxIndent levels and deeper lines say their depth, so a trace
// nested 100,000 ops deep prints in linear, not quadratic, space.
constexpr int kMaxIndent = 64;
void AppendIndent(std::string* out, int depth) {
  out->append(static_cast<size_t>(std::min(depth, kMaxIndent)) * 2, ' ');
  if (depth > kMaxIndent) fmt::format_to(std::back_inserter(*out), "[depth {}] ", depth);
}

// One line per op, appended in place: millions of lines, so no string is made per line.
std::string Text(const Trace& t, const passes::FunctionEventList& e, const TreeArgs& a) {
  using report::AppendTime;
  std::string out;
  out.reserve(e.size() * 64);
  passes::EventTimes times(t, e);
  auto us = [](int64_t ns) { return ns / 1000.0; };
  for (const auto& [thread, roots] : RootsByThread(t, e, a)) {
    out += ThreadLabel(t, thread) + "\n";
    Walk(
        e, roots,
        [&](uint32_t i, int depth) -> Visited {
          passes::EventTime x;
          times.Exact(i, &x);
          if (us(x.cpu_total_ns) < a.min_time_us) return kSkipped;
          AppendIndent(&out, depth);
          out += t.str(e.name[i]);
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
            out += t.str(e.input_shapes[i]);
          }
          out += "\n";
          for (uint32_t k = e.kernel_begin[i]; k < e.kernel_begin[i + 1]; ++k) {
            uint32_t ev = e.kernel_index[k];
            AppendIndent(&out, depth);
            out += "  -> ";
            out += t.str(t.events.name[ev]);
            out += "  ";
            AppendTime(&out, us(t.events.end_ns[ev] - t.events.start_ns[ev]));
            out += " on ";
            out += StreamLabel(t, ev);
            out += "\n";
          }
          return a.depth < 0 || depth < a.depth ? kDescend : kShown;
        },
        [](uint32_t) {});
  }
  return out;
}

std::string Json(const Trace& t, const passes::FunctionEventList& e, const TreeArgs& a) {
  std::string out;
  report::JsonWriter w(&out);
  passes::EventTimes times(t, e);
  w.BeginObject();
  w.Key("schema").String("profana.tree/1");
  w.Key("input").String(a.file);
  w.Key("threads").BeginArray();
  for (const auto& [thread, roots] : RootsByThread(t, e, a)) {
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
          passes::EventTime x;
          times.Exact(i, &x);
          if (x.cpu_total_ns / 1000.0 < a.min_time_us) return kSkipped;
          w.BeginObject();
          w.Key("name").String(t.str(e.name[i]));
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
            uint32_t ev = e.kernel_index[k];
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
  return out;
}

Status RunTree(const TreeArgs& a, Context& ctx) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx));
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
  return Emit(
      a.common.format == OutputFormat::kJson ? Json(trace, events, a) : Text(trace, events, a),
      a.common, ctx);
}

}  // namespace

void RegisterTreeCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<TreeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "tree", "The CPU op tree per thread: total and self time, launched kernels, shapes");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  cmd->add_option("--depth", args->depth, "Show at most N levels (1 = top-level ops only)")
      ->check(WholeNumber<int>("--depth", 1));
  cmd->add_option("--thread", args->thread, "Only this thread (its tid, or its name)");
  cmd->add_option("--min-time", args->min_time_us,
                  "Hide ops (and what they contain) under US microseconds")
      ->check(NonNegativeNumber("--min-time"));
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunTree);
}

}  // namespace profana::app
