#include "profana/passes/trace_filter.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <memory>

#include "fmt/format.h"
#include "profana/base/duration.h"
#include "profana/model/event_roles.h"
#include "profana/model/launch_index.h"
#include "profana/passes/empty_selection.h"
#include "profana/passes/name_matcher.h"
#include "profana/passes/step_marker.h"

namespace profana::passes {
namespace {

struct Interval {
  int64_t start, end;  // [start, end)
};

bool ParseInt(std::string_view s, int64_t* v) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size();
}

// Keeps the rows of a table whose keep flag is set, in order.
template <typename Table>
void Compact(Table* table, const std::vector<uint8_t>& keep) {
  size_t kept = static_cast<size_t>(
      std::count_if(keep.begin(), keep.end(), [](uint8_t k) { return k != 0; }));
  ForEachColumn(*table, [&](const char*, auto& column) {
    using Values = std::decay_t<decltype(column)>;
    if (column.is_uniform()) {  // the one value stays, for fewer rows
      column = Values::Uniform(kept, column[0]);
      return;
    }
    auto& v = column.owned();
    size_t out = 0;
    for (size_t i = 0; i < v.size(); ++i)
      if (keep[i]) v[out++] = v[i];
    v.resize(out);
  });
}

// Keeps the device args rows that the kept events name, renumbered in their order.
void CompactDeviceArgs(Trace* t) {
  DeviceArgsTable& d = t->device_args;
  std::vector<uint8_t> keep(d.size(), 0);
  for (uint32_t row : t->events.device_args)
    if (row != kNoDeviceArgs) keep[row] = 1;
  std::vector<uint32_t> renumbered(d.size(), kNoDeviceArgs);
  uint32_t next = 0;
  for (size_t r = 0; r < d.size(); ++r)
    if (keep[r]) renumbered[r] = next++;
  if (next == d.size()) return;
  Compact(&d, keep);
  if (t->events.device_args.is_uniform()) return;  // no rows named: nothing to renumber
  for (uint32_t& row : t->events.device_args.owned())
    if (row != kNoDeviceArgs) row = renumbered[row];
}

// The chosen ProfilerStep windows intersected with --window, merged and sorted; nullopt when
// nothing selects by time.
Result<std::optional<std::vector<Interval>>> TimeSelection(const TraceFilter& f, const Trace& t) {
  std::optional<Interval> window;
  if (f.window_start_ns || f.window_end_ns) {
    int64_t origin = t.metadata.origin.ns;
    // origin + offset, held at the ends of int64 rather than wrapping: trace times lie within
    // +-2^62 ns, so a start past the end keeps nothing and an end past it keeps everything, as
    // the same bound written any other way would.
    auto at = [origin](int64_t offset) {
      int64_t sum;
      if (__builtin_add_overflow(origin, offset, &sum)) return offset < 0 ? INT64_MIN : INT64_MAX;
      return sum;
    };
    window = Interval{f.window_start_ns ? at(*f.window_start_ns) : INT64_MIN,
                      f.window_end_ns ? at(*f.window_end_ns) : INT64_MAX};
  }
  std::vector<Interval> out;
  if (!f.steps.empty() || f.skip_first_step) {
    struct Step {
      int64_t n;
      Interval at;
    };
    std::vector<Step> steps;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
      int64_t n = StepNumberOf(t, i);
      if (n >= 0) steps.push_back({n, {t.events.start_ns[i], t.events.end_ns[i]}});
    }
    if (steps.empty())
      return Status(ErrorCode::kInvalidArgument, "--steps/--skip-first-step: " + NoStepsHint(t));
    int64_t first = steps[0].n, last = steps[0].n;
    for (const Step& s : steps) first = std::min(first, s.n), last = std::max(last, s.n);
    for (const Step& s : steps) {
      if (f.skip_first_step && s.n == first) continue;
      bool chosen = f.steps.empty();
      for (auto [lo, hi] : f.steps) chosen = chosen || (s.n >= lo && s.n <= hi);
      if (chosen) out.push_back(s.at);
    }
    if (out.empty())
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("--steps selects no step: the trace has ProfilerStep#{} to #{}",
                                first, last));
  } else if (window) {
    out.push_back(*window);
  } else {
    return std::optional<std::vector<Interval>>();
  }
  if (window) {
    for (Interval& i : out) i = {std::max(i.start, window->start), std::min(i.end, window->end)};
    out.erase(
        std::remove_if(out.begin(), out.end(), [](const Interval& i) { return i.start >= i.end; }),
        out.end());
  }
  std::sort(out.begin(), out.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::vector<Interval> merged;
  for (const Interval& i : out) {
    if (!merged.empty() && i.start <= merged.back().end)
      merged.back().end = std::max(merged.back().end, i.end);
    else
      merged.push_back(i);
  }
  return std::optional<std::vector<Interval>>(std::move(merged));
}

// [start, end) overlaps a selected interval; a zero-length event counts as the point start.
bool Overlaps(const std::vector<Interval>& sel, int64_t start, int64_t end) {
  auto it = std::upper_bound(sel.begin(), sel.end(), start,
                             [](int64_t s, const Interval& i) { return s < i.end; });
  return it != sel.end() && it->start < std::max(end, start + 1);
}

std::vector<uint8_t> ThreadSelection(const TraceFilter& f, const Trace& t) {
  std::vector<uint8_t> ok(t.threads.size(), f.threads.empty() ? 1 : 0);
  for (size_t i = 0; i < t.threads.size() && !f.threads.empty(); ++i) {
    const ThreadInfo& th = t.threads[i];
    std::string tid = th.tid_text.value ? std::string(t.str(th.tid_text)) : std::to_string(th.tid);
    for (const std::string& want : f.threads)
      if (want == tid || want == std::to_string(th.tid) ||
          (th.name.value && want == t.str(th.name)))
        ok[i] = 1;
  }
  return ok;
}

// Device tracks: "7" and "stream 7" both name stream 7.
std::vector<uint8_t> StreamSelection(const TraceFilter& f, const Trace& t) {
  std::vector<uint8_t> ok(t.threads.size(), f.streams.empty() ? 1 : 0);
  for (size_t i = 0; i < t.threads.size() && !f.streams.empty(); ++i) {
    const ThreadInfo& th = t.threads[i];
    for (const std::string& want : f.streams)
      if (want == std::to_string(th.tid) || want == fmt::format("stream {}", th.tid) ||
          (th.tid_text.value && want == t.str(th.tid_text)))
        ok[i] = 1;
  }
  return ok;
}

}  // namespace

Result<std::vector<std::pair<int64_t, int64_t>>> ParseStepRanges(const std::string& text) {
  std::vector<std::pair<int64_t, int64_t>> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string_view part(text.data() + pos,
                          (comma == std::string::npos ? text.size() : comma) - pos);
    size_t dash = part.find('-');
    int64_t lo = 0, hi = 0;
    bool ok = dash == std::string_view::npos
                  ? ParseInt(part, &lo) && ((hi = lo), true)
                  : ParseInt(part.substr(0, dash), &lo) && ParseInt(part.substr(dash + 1), &hi);
    if (!ok || lo < 0 || hi < lo)
      return Status(
          ErrorCode::kInvalidArgument,
          fmt::format("\"{}\": expected step numbers and ranges like 3-5 or 3-5,9", text));
    out.emplace_back(lo, hi);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

Result<FilterWindow> ParseWindow(std::string_view text) {
  auto bad = [&] {
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("\"{}\": expected START:END from the trace start, each a number of "
                    "microseconds or a duration such as 1.5ms, 250us, 2s (either may be empty)",
                    text));
  };
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) return bad();
  FilterWindow w;
  for (auto [side, at] : {std::pair{text.substr(0, colon), &w.start_ns},
                          std::pair{text.substr(colon + 1), &w.end_ns}}) {
    if (side.empty()) continue;
    Result<int64_t> ns = ParseDuration(side, DurationUnit::kUs);
    if (!ns.ok()) return bad();
    *at = *ns;
  }
  if (w.start_ns && w.end_ns && *w.end_ns <= *w.start_ns) return bad();
  return w;
}

Result<int32_t> ParseDeviceIndex(std::string_view text) {
  auto bad = [&] {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: expected a device such as cuda:0, hip:1 or 0", text));
  };
  std::string_view index = text;
  size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    std::string_view type = text.substr(0, colon);
    if (type.empty() || type == "cpu") return bad();
    for (char c : type)
      if (!(c >= 'a' && c <= 'z')) return bad();
    index.remove_prefix(colon + 1);
  }
  int64_t v = 0;
  if (!ParseInt(index, &v) || v < 0 || v > INT32_MAX) return bad();
  return static_cast<int32_t>(v);
}

Status FilterTrace(const TraceFilter& f, Trace* trace, const LaunchIndex* index) {
  if (f.empty()) return Status::Ok();
  Trace& t = *trace;
  const EventTable& ev = t.events;
  NameMatcher name, exclude;
  PROFANA_RETURN_IF_ERROR(name.Compile(f.name, "--name", t.strings.size()));
  PROFANA_RETURN_IF_ERROR(exclude.Compile(f.exclude, "--exclude", t.strings.size()));
  // Used in place (a moved-out optional<vector> trips GCC 12's -Wmaybe-uninitialized).
  Result<std::optional<std::vector<Interval>>> selection = TimeSelection(f, t);
  if (!selection.ok()) return selection.status();
  const std::optional<std::vector<Interval>>& time = *selection;
  std::vector<uint8_t> thread_ok = ThreadSelection(f, t);
  std::vector<uint8_t> stream_ok = StreamSelection(f, t);
  if (SelectsNoTrack(f, thread_ok, stream_ok))
    return Status(ErrorCode::kInvalidArgument,
                  EmptySelectionMessage(f, t, thread_ok, stream_ok, true));

  // Host events, one sweep per thread: an event inherits its enclosing event's name verdicts.
  enum : uint8_t { kTimeOk = 1, kThreadOk = 2, kNameOk = 4, kExcluded = 8 };
  struct Open {
    int64_t end;
    uint8_t flags;
  };
  std::vector<std::vector<Open>> open(t.threads.size());
  bool name_matched = false;
  std::vector<uint8_t> flags(ev.size(), 0);
  std::optional<LaunchIndex> own_index;
  const LaunchIndex& launches = index ? *index : own_index.emplace(ev);
  for (uint32_t i = 0; i < ev.size(); ++i) {
    ActivityKind kind = ev.kind[i];
    if (IsDeviceActivity(kind)) continue;
    std::vector<Open>& stack = open[ev.thread[i].value];
    while (!stack.empty() && stack.back().end <= ev.start_ns[i]) stack.pop_back();
    uint8_t inherited = !stack.empty() && stack.back().end >= ev.end_ns[i] ? stack.back().flags : 0;
    uint8_t fl = 0;
    if (!time || Overlaps(*time, ev.start_ns[i], ev.end_ns[i])) fl |= kTimeOk;
    if (thread_ok[ev.thread[i].value]) fl |= kThreadOk;
    if (!name.active() || (inherited & kNameOk) || name.Matches(t, ev.trace_name[i])) fl |= kNameOk;
    name_matched = name_matched || (name.active() && (fl & kNameOk));
    if (exclude.active() && ((inherited & kExcluded) || exclude.Matches(t, ev.trace_name[i])))
      fl |= kExcluded;
    flags[i] = fl;
    stack.push_back({ev.end_ns[i], fl});
  }

  std::vector<uint8_t> keep(ev.size(), 0);
  bool had_events = false, kept_events = false, had_device = false, kept_device = false;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    uint8_t fl = flags[i];
    had_events = had_events || ev.kind[i] != ActivityKind::kTraceSpan;
    had_device = had_device || IsDeviceActivity(ev.kind[i]);
    if (IsDeviceActivity(ev.kind[i])) {
      if (std::optional<EventId> launch = launches.Launch(ev.correlation[i])) {
        fl = flags[launch->value] & (kTimeOk | kThreadOk | kExcluded);
        if (flags[launch->value] & kNameOk) fl |= kNameOk;
      } else {
        if (!f.unlaunched_devices.empty() &&
            std::find(f.unlaunched_devices.begin(), f.unlaunched_devices.end(), ev.device[i]) ==
                f.unlaunched_devices.end())
          continue;
        fl = kThreadOk;
        if (!time || Overlaps(*time, ev.start_ns[i], ev.end_ns[i])) fl |= kTimeOk;
        if (!name.active()) fl |= kNameOk;
      }
      if (name.active() && name.Matches(t, ev.trace_name[i])) {
        fl |= kNameOk;
        name_matched = true;
      }
      if (exclude.active() && exclude.Matches(t, ev.trace_name[i])) fl |= kExcluded;
      bool device_ok = f.devices.empty() || std::find(f.devices.begin(), f.devices.end(),
                                                      ev.device[i]) != f.devices.end();
      if (!device_ok || !stream_ok[ev.thread[i].value]) continue;
    }
    keep[i] = ev.kind[i] == ActivityKind::kTraceSpan || fl == (kTimeOk | kThreadOk | kNameOk);
    kept_events = kept_events || (keep[i] && ev.kind[i] != ActivityKind::kTraceSpan);
    kept_device = kept_device || (keep[i] && IsDeviceActivity(ev.kind[i]));
  }
  // A selection that keeps nothing of a trace that has events (or no device activity of one that
  // has some, for --device and --stream) is a mistake, a thread or name that is not there: say
  // what the trace has rather than print empty results.
  bool device_filter = !f.devices.empty() || !f.streams.empty();
  if ((had_events && !kept_events) || (device_filter && had_device && !kept_device))
    return Status(ErrorCode::kInvalidArgument,
                  EmptySelectionMessage(f, t, thread_ok, stream_ok, name_matched));
  Compact(&t.events, keep);
  CompactDeviceArgs(&t);

  const MemoryTable& mem = t.memory;
  keep.assign(mem.size(), 0);
  for (size_t i = 0; i < mem.size(); ++i) {
    bool device_ok =
        f.devices.empty() || mem.device_type[i] == 0 ||
        std::find(f.devices.begin(), f.devices.end(), mem.device_id[i]) != f.devices.end();
    keep[i] = device_ok && thread_ok[mem.thread[i].value] &&
              (!time || Overlaps(*time, mem.ts_ns[i], mem.ts_ns[i]));
  }
  Compact(&t.memory, keep);

  const FlowTable& flows = t.flows;
  keep.assign(flows.size(), 0);
  for (size_t i = 0; i < flows.size(); ++i)
    keep[i] = thread_ok[flows.thread[i].value] &&
              (!time || Overlaps(*time, flows.ts_ns[i], flows.ts_ns[i]));
  Compact(&t.flows, keep);
  // The span is always kept; without one, the origin is the first event kept.
  WorkOutTimeOrigin(&t);
  return Status::Ok();
}

}  // namespace profana::passes
