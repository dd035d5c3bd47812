// Summary files on the command line: a summary laid out again (jq -c) reads as the same one, and
// merge refuses a source it would count twice.
#include "profana/job/summary_file.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "fixtures.h"
#include "profana/job/input_kind.h"
#include "test_util.h"

using namespace profana;
using profana::test::Run;
using profana::test::TestData;

TEST_CASE("summaries: a summary laid out again (jq -c, a tab after the colon) is one",
          "[summary]") {
  std::string text = job::FormatSummary(test::DlrmRankSummaries()[3]);
  // jq -c: no whitespace outside strings.
  std::string compact;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      compact += c;
      if (c == '\\')
        compact += text[++i];
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      compact += c;
      in_string = true;
    } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
      compact += c;
    }
  }
  REQUIRE(compact.size() < text.size());
  CHECK(compact.rfind("{\"schema\":\"profana.summary/", 0) == 0);
  std::string tabbed = text;
  tabbed.replace(tabbed.find("\"schema\": "), 10, "\"schema\":\t");
  for (const std::string& laid_out : {compact, tabbed}) {
    CHECK(job::LooksLikeSummary(laid_out));
    std::string path =
        (std::filesystem::temp_directory_path() / ("profana_laid_out_" + std::to_string(getpid()) +
                                                   std::to_string(laid_out.size()) + ".pfs"))
            .string();
    { std::ofstream(path, std::ios::binary) << laid_out; }
    CHECK(job::InputKindOf(path) == job::InputKind::kSummary);
    auto back = job::ReadSummaryFile(path);
    REQUIRE(back.ok());
    CHECK(job::FormatSummary(*back) == text);
    auto steps = Run({"steps", path});
    CHECK(steps.code == 0);
    auto merged = Run({"merge", path});
    CHECK(merged.code == 0);
    CHECK(merged.out == text);
    std::filesystem::remove(path);
  }
  CHECK(!job::LooksLikeSummary("{\"schema\":\"profana.database/1\"}"));
  // One sniff tells the kinds of input apart: a trace, a summary, an allocator snapshot.
  CHECK(job::InputKindOf(test::TestData("job/two_ranks/rank0.json")) == job::InputKind::kTrace);
  CHECK(job::InputKindOf(test::TestData("live/snapshot_resnet_amp/snapshot.pickle.gz")) ==
        job::InputKind::kSnapshot);
  CHECK(job::InputKindOf("-") == job::InputKind::kTrace);
  CHECK(!job::LooksLikeSummary("[{\"schema\":\"profana.summary/1\"}]"));
}

TEST_CASE("merge refuses a source it would count twice, naming both files", "[summary]") {
  // rank3.pfs and a copy under another name; job.pfs already holds rank 3's source.
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("profana-merge-twice-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string rank3 =
      TestData("traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz");
  std::string rank4 =
      TestData("traces/param/dlrm_kineto/worker4_step_12.1694128201547.pt.trace.json.gz");
  std::string a = (dir / "rank3.pfs").string(), b = (dir / "again.pfs").string();
  std::string c = (dir / "rank4.pfs").string(), job = (dir / "job.pfs").string();
  REQUIRE(Run({"summarize", "-q", rank3, "-o", a}).code == 0);
  REQUIRE(Run({"summarize", "-q", rank4, "-o", c}).code == 0);
  fs::copy_file(a, b);
  auto twice = Run({"merge", a, b, "-o", job});
  CHECK(twice.code == 2);
  CHECK(twice.err.find(a + " and " + b + " both hold " + rank3 + " (same content)") !=
        std::string::npos);
  CHECK(!fs::exists(job));
  REQUIRE(Run({"merge", a, c, "-o", job}).code == 0);
  auto again = Run({"merge", job, a});
  CHECK(again.code == 2);
  CHECK(again.err.find(job + " and " + a + " both hold " + rank3) != std::string::npos);
  fs::remove_all(dir);
}
