#include "fixtures.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "profana/importers/importer.h"
#include "profana/job/source_hash.h"
#include "profana/model/trace_builder.h"
#include "test_util.h"

namespace profana::test {

Trace SmallTrace() {
  TraceBuilder b;
  b.metadata().format = TraceFormat::kKinetoJson;
  b.metadata().devices = {"GPU \"0\""};
  ThreadId cpu = b.Thread(1, 1), gpu = b.Thread(0, 7);
  b.SetThreadName(cpu, b.Intern("main"));
  TraceBuilder::Event op;
  op.trace_name = b.Intern("aten::mm");
  op.category = b.Intern("cpu_op");
  op.thread = cpu;
  op.start_ns = 1000;
  op.end_ns = 9000;
  op.stack = b.InternCallStack(b.Intern("inner.py(2): f;outer.py(1): <module>"));
  b.AddEvent(op);
  TraceBuilder::Event launch = op;
  launch.trace_name = b.Intern("cudaLaunchKernel");
  launch.category = b.Intern("cuda_runtime");
  launch.kind = ActivityKind::kRuntime;
  launch.start_ns = 2000;
  launch.end_ns = 3000;
  launch.correlation = 5;
  launch.stack = {};
  b.AddEvent(launch);
  TraceBuilder::Event kernel = launch;
  kernel.trace_name = b.Intern("gemm");
  kernel.category = b.Intern("kernel");
  kernel.kind = ActivityKind::kKernel;
  kernel.thread = gpu;
  kernel.start_ns = 4000;
  kernel.end_ns = 6000;
  kernel.device = 0;
  b.AddEvent(kernel);
  TraceBuilder::Memory m;
  m.ts_ns = 1500;
  m.thread = cpu;
  m.bytes = 64;
  b.AddMemory(m);
  b.AddFlow(5, 2000, cpu, b.Intern("ac2g"), true);
  b.AddFlow(5, 4000, gpu, b.Intern("ac2g"), false);
  b.diagnostics().Add(DiagnosticKind::kUnknownPhase, 12, 3, "ph \"Q\"");
  return std::move(b).Finish();
}

std::vector<std::string> TraceFilesInTestData() {
  std::vector<std::string> files;
  for (const char* dir : {"oracle", "traces", "bad"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(TestData(dir))) {
      std::string p = e.path().string(), f = e.path().filename().string();
      bool trace = std::string(dir) == "oracle"
                       ? (f == "trace.json" || f == "trace.kineto_like.json")
                       : f.find(".json") != std::string::npos;
      if (e.is_regular_file() && trace) files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> RealTraceFiles() {
  std::vector<std::string> files;
  for (const char* dir : {"traces", "live"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(TestData(dir))) {
      std::string f = e.path().filename().string();
      if (!e.is_regular_file() || f.find(".md") != std::string::npos) continue;
      if (std::string(dir) == "live" && f != "trace.json.gz") continue;
      files.push_back(e.path().string());
    }
  std::sort(files.begin(), files.end());
  return files;
}

BuiltTimeline BuildTimeline(const std::string& relative) {
  auto trace = LoadTrace(TestData(relative));
  REQUIRE(trace.ok());
  BuiltTimeline b{std::move(trace->trace), {}, {}};
  b.events = passes::BuildFunctionEvents(b.trace);
  b.timeline = passes::BuildMemoryTimeline(b.trace, b.events);
  return b;
}

job::RankSummary SummarizeAsRank(const std::string& file, int64_t rank) {
  auto loaded = LoadTrace(file);
  REQUIRE(loaded.ok());
  passes::FunctionEventList events = passes::BuildFunctionEvents(loaded->trace, std::nullopt);
  job::SummaryOptions so;
  so.table = so.shape_table = so.steps = so.kernels = so.collectives = so.memory = true;
  job::RankSummary s = job::SummarizeRank(loaded->trace, events, file, so);
  auto hash = job::SourceHash(file);
  REQUIRE(hash.ok());
  s.sources.front().hash = *hash;
  job::SetRank(&s, rank);
  return s;
}

const std::vector<job::RankSummary>& DlrmRankSummaries() {
  static const std::vector<job::RankSummary> ranks = [] {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(TestData("traces/param/dlrm_kineto")))
      files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() == 8);
    std::vector<job::RankSummary> out;
    for (const std::string& f : files) {
      auto loaded = LoadTrace(f);
      REQUIRE(loaded.ok());
      out.push_back(SummarizeAsRank(f, loaded->trace.metadata.rank));
    }
    return out;
  }();
  return ranks;
}

job::CollectiveCall CollectiveCallOf(job::CollectiveKind kind, int64_t start_us, int64_t end_us,
                                     std::string group, int64_t bytes, int64_t group_size) {
  job::CollectiveCall c;
  c.kind = kind;
  c.label = job::CollectiveKindName(kind);
  c.group = std::move(group);
  c.start_ns = start_us * 1000;
  c.end_ns = end_us * 1000;
  c.bytes = bytes;
  c.group_size = group_size;
  return c;
}

std::string BuildNvprofDatabase(const std::string& name, const std::string& extra_sql) {
  std::string path = TempPath(name) + ".nvvp";
  std::string sql = ReadFile(TestData("nvprof/small.sql"));
  REQUIRE(BuildSqliteDatabase(sql + "\n" + extra_sql, path) == "");
  return path;
}

}  // namespace profana::test
