// The job pipelines read the file their sniff (or expansion) opened, never the path again. Each
// case copies its inputs, sniffs or expands the copies, removes them from their folder, and only
// then runs the pipeline: a reader that opened a path again would find nothing. The results are
// compared with the same pipeline run on the original files.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "profana/job/advice/advise_inputs.h"
#include "profana/job/analysed_traces.h"
#include "profana/job/budget_job.h"
#include "profana/job/diff_job.h"
#include "profana/job/job_inputs.h"
#include "profana/job/run_job.h"
#include "profana/job/source_hash.h"
#include "test_util.h"

namespace {

using namespace profana;
using profana::test::TestData;

// A copy of the test data file `relative`, under a temporary name.
std::string CopyOf(const std::string& relative, const std::string& name) {
  std::string path = test::TempPath(name);
  test::WriteFile(path, test::ReadFile(TestData(relative)));
  return path;
}

void Remove(const std::string& path) { REQUIRE(std::remove(path.c_str()) == 0); }

// Counts what AnalyseInputs hands over.
class CountingSink : public job::AnalysedTraceSink {
 public:
  Status AddTraceEvents(const Trace& trace, const passes::FunctionEventList&,
                        const job::TraceAnalyses&, int64_t, const std::string&) override {
    events += trace.events.size();
    return Status::Ok();
  }
  Status AddTraceAnalyses(const Trace&, const passes::FunctionEventList&, const job::TraceAnalyses&,
                          int64_t, const std::string&) override {
    ++traces;
    return Status::Ok();
  }
  size_t traces = 0, events = 0;
};

constexpr const char* kDlrm =
    "traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz";

}  // namespace

TEST_CASE("AnalyseInputs reads the file its sniff opened: a trace loaded, a summary refused",
          "[job][input_file]") {
  std::string trace = CopyOf("job/two_ranks/rank0.json", "analysed_once.json");
  job::SniffedInputs sniffed = job::SniffInputs({trace});
  Remove(trace);
  CountingSink sink;
  std::vector<job::LoadNote> notes;
  auto read =
      job::AnalyseInputs({trace}, std::move(sniffed), {}, passes::LinkRule::kAuto, &sink, &notes);
  REQUIRE(read.ok());
  CHECK(*read == std::vector<std::string>{trace});
  CountingSink original;
  REQUIRE(job::AnalyseInputs({TestData("job/two_ranks/rank0.json")}, {}, passes::LinkRule::kAuto,
                             &original, &notes)
              .ok());
  CHECK(sink.traces == 1);
  CHECK(sink.events == original.events);
  CHECK(sink.events > 0);

  std::string summary = test::TempPath("analysed_once_summary.json");
  test::WriteFile(summary, "{\"schema\": \"profana.summary/1\"}");
  job::SniffedInputs sniffed_summary = job::SniffInputs({summary});
  REQUIRE(sniffed_summary.summary);
  Remove(summary);
  auto refused = job::AnalyseInputs({summary}, std::move(sniffed_summary), {},
                                    passes::LinkRule::kAuto, &sink, &notes);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message() ==
        summary + " is a summary file (profana summarize): a database holds traces");
}

TEST_CASE("diff --by-rank reads each side from the file OpenDiffSide opened", "[job][input_file]") {
  std::string base = CopyOf("job/two_ranks/rank0.json", "by_rank_rank0.json");
  std::string next = CopyOf("job/two_ranks/worker1.json", "by_rank_worker1.json");
  job::DiffSide base_side = job::OpenDiffSide(base), next_side = job::OpenDiffSide(next);
  Remove(base);
  Remove(next);
  job::JobRequest request;
  request.workers = 1;
  std::vector<job::LoadNote> notes;
  auto run = job::DiffInputsByRank(base_side, next_side, request, {}, &notes);
  REQUIRE(run.ok());
  auto original = job::DiffInputsByRank(job::OpenDiffSide(TestData("job/two_ranks/rank0.json")),
                                        job::OpenDiffSide(TestData("job/two_ranks/worker1.json")),
                                        request, {}, &notes);
  REQUIRE(original.ok());
  CHECK(run->paths == std::vector<std::string>{base, next});
  REQUIRE(run->diffs.size() == original->diffs.size());
  REQUIRE(run->diffs.size() == 2);  // rank 0 in BASE only, rank 1 in NEW only
  for (size_t i = 0; i < run->diffs.size(); ++i) {
    CHECK(run->diffs[i].rank == original->diffs[i].rank);
    CHECK(run->diffs[i].diff.rows.size() == original->diffs[i].diff.rows.size());
    CHECK(run->diffs[i].diff.added == original->diffs[i].diff.added);
    CHECK(run->diffs[i].diff.removed == original->diffs[i].diff.removed);
  }
  CHECK(run->diffs[0].diff.removed > 0);
  CHECK(run->diffs[1].diff.added > 0);
}

TEST_CASE("check --budget measures its rules and its advice on the file its sniff opened",
          "[job][input_file]") {
  std::string budget_text = test::ReadFile(TestData("budgets/dlrm-pass.json"));
  size_t end = budget_text.rfind(']');
  REQUIRE(end != std::string::npos);
  budget_text.insert(end, R"(, {"metric": "advise.host-sync.saving_ms", "max": 0.001},
                            {"metric": "advise.sync-memset.count", "max": 0})");
  auto budget = passes::ParseBudget(budget_text, "budget.json");
  REQUIRE(budget.ok());
  REQUIRE(budget->rules.size() == 9);

  std::string trace = CopyOf(kDlrm, "budget_once.json.gz");
  job::SniffedInputs sniffed = job::SniffInputs({trace});
  Remove(trace);
  job::JobRequest request;
  std::vector<job::LoadNote> notes;
  auto run = job::MeasureBudget(trace, std::move(sniffed), "budget.json", *budget, request, &notes);
  REQUIRE(run.ok());
  auto original = job::MeasureBudget(TestData(kDlrm), "budget.json", *budget, request, &notes);
  REQUIRE(original.ok());
  REQUIRE(run->results.size() == 9);
  REQUIRE(original->results.size() == 9);
  for (size_t i = 0; i < 9; ++i) {
    INFO(i);
    CHECK(run->results[i].rule.metric == original->results[i].rule.metric);
    CHECK(run->results[i].value == original->results[i].value);
    CHECK(run->results[i].passed == original->results[i].passed);
  }
  // dlrm-pass's rules hold; the trace's host synchronisation fails the advice rule.
  CHECK(run->results[0].passed);
  CHECK(run->results[7].rule.metric == passes::BudgetMetric::kAdviceSaving);
  CHECK(run->results[7].rule.advice == "host-sync");
  CHECK_FALSE(run->results[7].passed);
  CHECK(run->paths == std::vector<std::string>{trace, trace});
}

TEST_CASE("a job's inputs expanded once are read by its job and its advice alike",
          "[job][input_file]") {
  std::string dir = test::TempPath("expanded_once");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char* name : {"rank0.json", "worker1.json"})
    test::WriteFile(dir + "/" + name,
                    test::ReadFile(TestData(std::string("job/two_ranks/") + name)));
  auto inputs = job::ExpandInputs({dir});
  REQUIRE(inputs.ok());
  REQUIRE(inputs->size() == 2);
  for (const job::JobInput& in : *inputs) REQUIRE(in.file);  // held open for the load
  std::filesystem::remove_all(dir);

  job::JobRequest request = job::TableJobRequest({}, {}, /*steps=*/true);
  request.inputs = {dir};
  request.workers = 1;
  std::vector<job::LoadNote> notes;
  auto run = job::RunJob(request, *inputs, &notes);
  REQUIRE(run.ok());
  request.inputs = {TestData("job/two_ranks")};
  auto original = job::RunJob(request, &notes);
  REQUIRE(original.ok());
  CHECK(run->job.RankList() == std::vector<int64_t>{0, 1});
  CHECK(run->job.RankList() == original->job.RankList());

  auto advice = job::AdviseInputs({dir}, *inputs, {}, passes::LinkRule::kAuto, {}, &notes);
  REQUIRE(advice.ok());
  auto advice_original =
      job::AdviseInputs({TestData("job/two_ranks")}, {}, passes::LinkRule::kAuto, {}, &notes);
  REQUIRE(advice_original.ok());
  CHECK(advice->report.ranks == std::vector<int64_t>{0, 1});
  CHECK(advice->report.findings.size() == advice_original->report.findings.size());
  CHECK(advice->report.critical_path_ns == advice_original->report.critical_path_ns);
  CHECK(advice->report.critical_path_ns > 0);
}

TEST_CASE("a summary's source hash is of the file its load read", "[job][input_file]") {
  for (const char* relative : {"job/two_ranks/rank0.json", kDlrm}) {
    INFO(relative);
    std::string copy = CopyOf(relative, "hashed_once");
    auto file = InputFile::Open(copy);
    REQUIRE(file.ok());
    CHECK_FALSE(file->Head(64).empty());  // read before: the hash starts at the first byte still
    Remove(copy);
    auto hash = job::SourceHash(*file);
    REQUIRE(hash.ok());
    auto original = job::SourceHash(TestData(relative));
    REQUIRE(original.ok());
    CHECK(*hash == *original);
    CHECK(hash->size() == 32);
  }
}
