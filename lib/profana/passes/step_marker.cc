#include "profana/passes/step_marker.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "fmt/format.h"
#include "profana/model/event_roles.h"
#include "profana/passes/name_matcher.h"

namespace profana::passes {
namespace {

// Calls visit(event) for each op or annotation that no other op or annotation on its thread
// encloses and that `keep` accepts. Events come sorted by (start, -end), so an enclosing event
// comes first: one open end per thread suffices.
template <typename Keep, typename Visit>
void ForEachOutermost(const Trace& t, Keep keep, Visit visit) {
  std::vector<int64_t> open_until(t.threads.size(), INT64_MIN);
  const EventTable& ev = t.events;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsOpOrAnnotation(ev.kind[e]) || !keep(e)) continue;
    int64_t& until = open_until[ev.thread[e].value];
    if (ev.start_ns[e] < until) continue;  // inside an earlier one on this thread
    until = ev.end_ns[e];
    visit(e);
  }
}

}  // namespace

Status MarkSteps(const std::string& regex, Trace* trace) {
  Trace& t = *trace;
  NameMatcher matcher;
  PROFANA_RETURN_IF_ERROR(matcher.Compile(regex, "--step-marker", t.strings.size()));
  std::vector<uint32_t> steps;
  ForEachOutermost(
      t, [&](uint32_t e) { return matcher.Matches(t, t.events.name[e]); },
      [&](uint32_t e) { steps.push_back(e); });
  if (steps.empty())
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--step-marker {}: no op or annotation matches", regex));
  std::vector<uint32_t> old_steps;
  for (uint32_t e = 0; e < t.events.size(); ++e)
    if (StepNumberOf(t, e) >= 0) old_steps.push_back(e);
  std::stable_sort(steps.begin(), steps.end(), [&](uint32_t a, uint32_t b) {
    return t.events.start_ns[a] < t.events.start_ns[b];
  });
  std::vector<StringId>& trace_name = t.events.trace_name.owned();
  for (uint32_t e : old_steps) trace_name[e] = t.events.name[e];  // ProfilerStep*: no number
  for (size_t n = 0; n < steps.size(); ++n)
    trace_name[steps[n]] = t.strings.Intern(fmt::format("ProfilerStep#{}", n));
  return Status::Ok();
}

bool HasStepMarkers(const Trace& t) {
  for (uint32_t e = 0; e < t.events.size(); ++e)
    if (StepNumberOf(t, e) >= 0) return true;
  return false;
}

std::string NoStepsHint(const Trace& t) {
  // Counted by StringId of the name; annotations (record_function, NVTX) first, since a training
  // loop marks its iterations with them, and only without a repeated one the ops.
  std::unordered_map<uint32_t, int64_t> count[2];
  ForEachOutermost(
      t, [](uint32_t) { return true; },
      [&](uint32_t e) {
        bool annotation = t.events.kind[e] == ActivityKind::kUserAnnotation;
        ++count[annotation ? 0 : 1][t.events.name[e].value];
      });
  uint32_t best = 0;
  int64_t most = 1;
  for (const auto& counts : count) {
    for (const auto& [name, n] : counts)
      if (n > most || (n == most && name < best)) best = name, most = n;
    if (most >= 2) break;
  }
  if (most < 2) return "no ProfilerStep#N markers";
  std::string_view range = t.str(StringId(best));
  std::string pattern;  // the name as a regex matching itself
  for (char c : range) {
    if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos) pattern += '\\';
    pattern += c;
  }
  return fmt::format(
      "no ProfilerStep#N markers; \"{}\" is the most repeated top-level range ({} times): try "
      "--step-marker '{}'",
      range, most, pattern);
}

}  // namespace profana::passes
