#include "profana/reporters/stacks_reporter.h"

#include <algorithm>
#include <charconv>

#include "fmt/format.h"
#include "profana/base/int_sum.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/reporters/flamegraph_svg.h"

namespace profana::report {
namespace {

int64_t Weight(const passes::StackSamples& s, size_t i, StackUnit unit) {
  return unit == StackUnit::kMicros ? s.weight_us[i] : s.weight_ns[i];
}

}  // namespace

Status WriteCollapsed(const StringPool& strings, const passes::StackSamples& samples,
                      StackUnit unit, FrameLabels labels, OutputSink* sink) {
  passes::StackText text(strings, samples, true);
  bool relabel = labels.fold_instances || labels.short_paths;
  ChunkedOutput out(sink);
  char number[24];
  for (size_t i = 0; i < samples.stack.size(); ++i) {
    int64_t w = Weight(samples, i, unit);
    if (w <= 0 || samples.stack[i].value == 0) continue;
    const std::string& stack = text.Get(samples.stack[i]);
    auto end = std::to_chars(number, number + sizeof(number), w).ptr;
    std::string& line = *out.text();
    if (relabel)
      line.append(RelabelStack(stack, labels));
    else
      line.append(stack);
    line.append(1, ' ');
    line.append(number, end).append(1, '\n');
    out.MaybeFlush();
  }
  return out.Finish();
}

std::string FormatCollapsed(const StringPool& strings, const passes::StackSamples& samples,
                            StackUnit unit) {
  std::string out;
  StringSink sink(&out);
  static_cast<void>(WriteCollapsed(strings, samples, unit, {}, &sink));  // a string takes all
  return out;
}

std::map<std::string, int64_t> StacksInUnit(const std::map<std::string, int64_t>& merged_ns,
                                            StackUnit unit) {
  if (unit == StackUnit::kNanos) return merged_ns;
  std::map<std::string, int64_t> out;
  for (const auto& [stack, ns] : merged_ns)
    if (int64_t us = ns / 1000 + (ns % 1000 >= 500); us > 0) out.emplace_hint(out.end(), stack, us);
  return out;
}

std::string FormatMerged(const std::map<std::string, int64_t>& merged) {
  std::string out;
  for (const auto& [stack, weight] : merged) out += fmt::format("{} {}\n", stack, weight);
  return out;
}

std::string FormatDiff(const std::map<std::string, int64_t>& base,
                       const std::map<std::string, int64_t>& next) {
  std::map<std::string, std::pair<int64_t, int64_t>> both;
  for (const auto& [s, w] : base) both[s].first = w;
  for (const auto& [s, w] : next) both[s].second = w;
  std::string out;
  for (const auto& [s, w] : both) out += fmt::format("{} {} {}\n", s, w.first, w.second);
  return out;
}

const char* StackSourceName(passes::StackSource s) {
  switch (s) {
    case passes::StackSource::kPython:
      return "python";
    case passes::StackSource::kOps:
      return "ops";
    case passes::StackSource::kBoth:
      return "both";
    case passes::StackSource::kAuto:
      return "auto";
  }
  return "auto";
}

std::string FormatStacksJson(const std::string& input, passes::StackMetric metric,
                             passes::StackSource source, StackUnit unit,
                             const std::map<std::string, int64_t>& merged,
                             const std::vector<int64_t>& ranks) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.stacks/1");
  w.Key("input").String(input);
  if (!ranks.empty()) {
    w.Key("ranks").BeginArray();
    for (int64_t r : ranks) w.Int(r);
    w.EndArray();
  }
  w.Key("metric").String(metric == passes::StackMetric::kSelfCuda ? "self_cuda" : "self_cpu");
  w.Key("source").String(StackSourceName(source));
  w.Key("unit").String(unit == StackUnit::kNanos ? "ns" : "us");
  int64_t total = 0;
  for (const auto& [s, weight] : merged) total = SatAdd(total, weight);
  w.Key("total").Int(total);
  w.Key("stacks").BeginArray();
  for (const auto& [stack, weight] : merged) {
    w.BeginObject();
    w.Key("frames").BeginArray();
    size_t pos = 0;
    while (pos <= stack.size()) {
      size_t end = stack.find(';', pos);
      if (end == std::string::npos) end = stack.size();
      w.String(std::string_view(stack).substr(pos, end - pos));
      pos = end + 1;
    }
    w.EndArray();
    w.Key("weight").Int(weight);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

StacksText ShapeStacks(const StringPool& strings, const passes::StackSamples& samples, bool merged,
                       bool display) {
  StacksText out;
  out.source = samples.source;
  if (merged) out.merged = passes::MergeStacks(strings, samples);
  if (display) out.display = passes::MergeStacks(strings, samples, false);
  return out;
}

void FoldStackInstances(StacksText* s) { s->merged = RelabelStacks(s->merged, {true, false}); }

std::string StacksSvg(const StacksText& run, const StacksText* base, const std::string& title,
                      FrameLabels labels) {
  auto named = [&](const StacksText& s) {
    return RelabelStacks(s.display.empty() ? s.merged : s.display, labels);
  };
  if (!base) return FormatFlamegraphSvg(named(run), title);
  std::map<std::string, int64_t> before = named(*base);
  return FormatFlamegraphSvg(named(run), title, &before);
}

std::string FormatStacksAs(OutputFormat format, const StacksText& stacks, const std::string& input,
                           passes::StackMetric metric, StackUnit unit,
                           const std::vector<int64_t>& ranks) {
  std::map<std::string, int64_t> merged = StacksInUnit(stacks.merged, unit);
  if (format == OutputFormat::kJson)
    return FormatStacksJson(input, metric, stacks.source, unit, merged, ranks);
  return FormatMerged(merged);
}

std::string EmptyStacksReason(const passes::StackSamples& samples, passes::StackMetric metric) {
  if (metric == passes::StackMetric::kSelfCuda && !samples.has_device_activity)
    return "no device activity (no kernel, memcpy or memset): no self_cuda stacks";
  if (samples.stack.empty() && samples.source == passes::StackSource::kPython)
    return "no Python stacks recorded (profile with with_stack=True, or use --stacks ops)";
  return "";
}

std::string StacksOriginNote(const passes::StackSamples& samples) {
  if (!samples.rebuilt_python_stacks) return "";
  return "recorded without experimental_config=_ExperimentalConfig(verbose=True): PyTorch 2.x's "
         "export_stacks writes an empty file for it; these Python stacks are rebuilt from its "
         "python_function events";
}

std::map<std::string, int64_t> StacksByRank(const std::vector<job::RankSummary>& ranks) {
  std::map<std::string, int64_t> out;
  for (const job::RankSummary& s : ranks)
    for (const auto& [stack, weight] : s.stacks)
      out[fmt::format("rank {};{}", s.rank(), stack)] += weight;
  return out;
}

std::string FlamegraphTitle(const std::string& input, const std::string& metric,
                            passes::StackSource source) {
  return fmt::format("{} ({}, {} stacks)", input, metric, StackSourceName(source));
}

}  // namespace profana::report
