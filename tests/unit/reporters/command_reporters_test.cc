// The formatting the commands hand to reporters: a whole job's table blocks (combined, per rank
// as text, one CSV, a JSON array), a job's per-rank stacks, why stacks are empty, which output
// `stacks` prints, the memory views each format needs, convert's target from a file name, and
// the first bytes a budget file may start with. Hand-made inputs; expected values in comments.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "profana/base/input_buffer.h"
#include "profana/base/output_sink.h"
#include "profana/importers/importer.h"
#include "profana/io/convert_target.h"
#include "profana/job/rank_summary.h"
#include "profana/passes/budget.h"
#include "profana/passes/function_events.h"
#include "profana/passes/stacks.h"
#include "profana/reporters/job_table_reporter.h"
#include "profana/reporters/memory_output.h"
#include "profana/reporters/stacks_reporter.h"
#include "test_util.h"

using namespace profana;

namespace {

// One rank with one row "aten::mm": 2 calls, 30 us total, 10 us self, from FILE.
job::RankSummary OneRowRank(int64_t rank, const std::string& file) {
  job::RankSummary s;
  s.sources.push_back({file, rank, -1, "kineto", 0, {}, ""});
  passes::AverageRow row;
  row.key = s.strings.Intern("aten::mm");
  row.count = 2;
  row.cpu_total_us = 30;
  row.self_cpu_us = 10;
  row.cpu_total_ns = 30000;
  row.self_cpu_ns = 10000;
  s.rows.push_back(row);
  return s;
}

std::vector<job::RankSummary> TwoRanks() {
  std::vector<job::RankSummary> parts;
  parts.push_back(OneRowRank(0, "r0.json"));
  parts.push_back(OneRowRank(3, "r3.json"));
  return parts;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a job's table by rank: titled text blocks, one CSV header, a JSON array",
          "[reporters]") {
  report::RowsContext options;
  std::vector<std::string> inputs = {"dir"};
  std::string text =
      report::FormatJobTable(report::OutputFormat::kText, TwoRanks(), true, inputs, {}, options);
  CHECK(text.rfind("rank 0: r0.json\n", 0) == 0);  // the first title starts the output
  CHECK(Count(text, "\nrank 3: r3.json\n") == 1);  // after a blank line
  CHECK(Count(text, "aten::mm") == 2);
  std::string csv =
      report::FormatJobTable(report::OutputFormat::kCsv, TwoRanks(), true, inputs, {}, options);
  // The header once, then one row per rank: three lines.
  CHECK(Count(csv, "\n") == 3);
  CHECK(Count(csv, "aten::mm") == 2);
  CHECK(csv.find("rank") == std::string::npos);
  std::string json =
      report::FormatJobTable(report::OutputFormat::kJson, TwoRanks(), true, inputs, {}, options);
  CHECK(json.rfind("[\n", 0) == 0);
  CHECK(json.substr(json.size() - 2) == "]\n");
  CHECK(Count(json, "\"rank\": 0") + Count(json, "\"rank\":0") == 1);
  CHECK(Count(json, "\"rank\": 3") + Count(json, "\"rank\":3") == 1);
}

TEST_CASE("a job's table combined: one block titled with the ranks", "[reporters]") {
  job::RankSummary both = OneRowRank(0, "r0.json");
  both.sources.push_back({"r3.json", 3, -1, "kineto", 0, {}, ""});
  both.sources.push_back({"r1.json", 1, -1, "nvprof", 0, {}, ""});
  std::vector<job::RankSummary> parts;
  parts.push_back(std::move(both));
  std::string text = report::FormatJobTable(report::OutputFormat::kText, std::move(parts), false,
                                            {"a", "b"}, {}, {});
  // Ranks 0, 1, 3 sorted; a run of two is written as two ranks (a run of three would be 0-2).
  CHECK(text.rfind("3 ranks (0,1,3), summed\n", 0) == 0);
}

TEST_CASE("a job's stacks by rank sit under a rank N root frame", "[reporters]") {
  std::vector<job::RankSummary> ranks(2);
  ranks[0].sources.push_back({"a", 0, -1, "kineto", 0, {}, ""});
  ranks[0].stacks = {{"main;mm", 5}};
  ranks[1].sources.push_back({"b", 2, -1, "kineto", 0, {}, ""});
  ranks[1].stacks = {{"main;mm", 7}, {"main", 1}};
  std::map<std::string, int64_t> by_rank = report::StacksByRank(ranks);
  std::map<std::string, int64_t> expected = {
      {"rank 0;main;mm", 5}, {"rank 2;main;mm", 7}, {"rank 2;main", 1}};
  CHECK(by_rank == expected);
  CHECK(report::FormatMerged(by_rank) == "rank 0;main;mm 5\nrank 2;main 1\nrank 2;main;mm 7\n");
}

TEST_CASE("why stacks are empty, and which stacks text is printed", "[reporters]") {
  passes::StackSamples none;
  none.source = passes::StackSource::kPython;
  CHECK(report::EmptyStacksReason(none, passes::StackMetric::kSelfCpu) ==
        "no Python stacks recorded (profile with with_stack=True, or use --stacks ops)");
  CHECK(report::EmptyStacksReason(none, passes::StackMetric::kSelfCuda) ==
        "no device activity (no kernel, memcpy or memset): no self_cuda stacks");
  none.source = passes::StackSource::kOps;
  CHECK(report::EmptyStacksReason(none, passes::StackMetric::kSelfCpu).empty());

  report::StacksText t;
  // Merges hold nanoseconds; in microseconds each stack's sum is rounded once, and a stack that
  // rounds to nothing is left out.
  t.merged = {{"a;b", 6500}, {"a;c", 7499}, {"a;d", 499}};
  auto as = [&](report::OutputFormat f) {
    return report::FormatStacksAs(f, t, "x.json", passes::StackMetric::kSelfCpu,
                                  report::StackUnit::kMicros, {});
  };
  CHECK(as(report::OutputFormat::kText) == "a;b 7\na;c 7\n");
  CHECK(as(report::OutputFormat::kJson).find("\"profana.stacks/1\"") != std::string::npos);
  CHECK(report::FlamegraphTitle("x.json", "self_cpu", passes::StackSource::kOps) ==
        "x.json (self_cpu, ops stacks)");
}

TEST_CASE("memory views per format; convert targets; a budget's first bytes", "[reporters]") {
  CHECK(report::MemoryViewParts(report::OutputFormat::kText) ==
        (passes::kMemoryReport | passes::kMemoryOps));
  CHECK(report::MemoryViewParts(report::OutputFormat::kCsv) == passes::kMemoryTimeline);
  CHECK(report::MemoryViewParts(report::OutputFormat::kHtml) ==
        (passes::kMemoryReport | passes::kMemoryTimeline));

  CHECK(io::ConvertTargetFromName("out.pfa") == "native");
  CHECK(io::ConvertTargetFromName("a/b.txt") == "text");
  CHECK(io::ConvertTargetFromName("t.json.gz") == "json.gz");
  CHECK(io::ConvertTargetFromName("t.json") == "json");
  CHECK(io::ConvertTargetFromName("t.gz").empty());
  CHECK(io::ConvertTargetFromName("").empty());

  CHECK(passes::CouldStartBudget("\xEF\xBB\xBF  \n{\"rules\""));
  CHECK(passes::CouldStartBudget("   "));  // more bytes may follow
  CHECK_FALSE(passes::CouldStartBudget(std::string(4, '\0')));
  CHECK_FALSE(passes::CouldStartBudget("[1]"));
}

namespace {

// Records each write: how export_stacks' lines reach the output.
class ChunkSink final : public profana::OutputSink {
 public:
  profana::Status Write(std::string_view bytes) override {
    text.append(bytes);
    largest = std::max(largest, bytes.size());
    ++writes;
    return profana::Status::Ok();
  }
  std::string text;
  size_t largest = 0, writes = 0;
};

}  // namespace

namespace {

struct TraceSamples {
  profana::LoadedTrace loaded;
  passes::StackSamples samples;
};

TraceSamples SamplesOf(const std::string& file, passes::StackSource source) {
  auto loaded = profana::LoadTrace(profana::test::TestData(file));
  REQUIRE(loaded.ok());
  TraceSamples out{std::move(*loaded), {}};
  auto events = passes::BuildFunctionEvents(out.loaded.trace);
  out.samples =
      passes::ComputeStackSamples(out.loaded.trace, events, source, passes::StackMetric::kSelfCpu);
  return out;
}

}  // namespace

TEST_CASE("export_stacks' lines are written as they are made, in chunks of about 1 MiB",
          "[reporters]") {
  // PyTorch 2.x's export_stacks of a real MI300X trace (testdata/pytorch2), byte for byte.
  TraceSamples rocm =
      SamplesOf("traces/tracelens/perf_model/normalization/normalization_layer_test.json.gz",
                passes::StackSource::kPython);
  ChunkSink small;
  REQUIRE(report::WriteCollapsed(rocm.loaded.trace.strings, rocm.samples,
                                 report::StackUnit::kMicros, {}, &small)
              .ok());
  auto want = profana::ReadInput(profana::test::TestData(
      "pytorch2/rocm_mi300_memory_stack/stacks_verbose_self_cpu_time_total.txt.gz"));
  REQUIRE(want.ok());
  CHECK(small.text == want->view());
  CHECK(small.writes == 1);
  // A 2021 ResNet-50 trace with stacks: 27 MB of lines, a line per sample with a weight.
  TraceSamples resnet = SamplesOf(
      "traces/kineto/be239c04/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
      passes::StackSource::kAuto);
  ChunkSink sink;
  REQUIRE(report::WriteCollapsed(resnet.loaded.trace.strings, resnet.samples,
                                 report::StackUnit::kMicros, {}, &sink)
              .ok());
  size_t lines = 0;
  for (size_t i = 0; i < resnet.samples.stack.size(); ++i)
    lines += resnet.samples.weight_us[i] > 0 && resnet.samples.stack[i].value != 0;
  CHECK(Count(sink.text, "\n") == lines);
  CHECK(sink.text.size() > 20 * ChunkedOutput::kChunkBytes);
  CHECK(sink.writes > 20);
  CHECK(sink.largest < ChunkedOutput::kChunkBytes + 64 * 1024);
  // Labels (--fold-instances; short paths) relabel each line's stack as it is written.
  for (report::FrameLabels labels : {report::FrameLabels{true, false}, {false, true}}) {
    ChunkSink relabelled;
    REQUIRE(report::WriteCollapsed(resnet.loaded.trace.strings, resnet.samples,
                                   report::StackUnit::kMicros, labels, &relabelled)
                .ok());
    CHECK(relabelled.text == report::RelabelLines(sink.text, labels));
    if (labels.short_paths) CHECK(relabelled.text.size() < sink.text.size());
  }
}
