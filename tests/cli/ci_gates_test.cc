// Filters, diff, tree and budgets on the command line, on real traces: the HTA trace_diff pair
// (6 steps each) and the DLRM ranks of facebookresearch/param.
#include <catch2/catch.hpp>
#include <sstream>

#include "fmt/format.h"
#include "profana/passes/budget.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_filter.h"
#include "simdjson.h"
#include "test_util.h"

using namespace profana;

namespace {

const char* kDiffControl = "traces/hta/trace_diff/control/control.json.gz";
const char* kDiffTest = "traces/hta/trace_diff/test/test.json.gz";

}  // namespace

TEST_CASE("devices are written the same way in filters, memory and budgets", "[filter]") {
  CHECK(*passes::ParseDeviceIndex("3") == 3);
  CHECK(*passes::ParseDeviceIndex("cuda:0") == 0);
  CHECK(*passes::ParseDeviceIndex("hip:1") == 1);
  for (const char* bad : {"", "cpu:0", "cuda", "cuda:", ":1", "-1", "0x1", "CUDA:0", "cuda:1a"})
    CHECK_FALSE(passes::ParseDeviceIndex(bad).ok());
  // The HTA control trace runs on device 3 (filter-table-stream-device keeps it with --device 3).
  auto bare = test::Run({"table", test::TestData(kDiffControl), "--device", "3", "-n", "5"});
  auto named = test::Run({"table", test::TestData(kDiffControl), "--device", "cuda:3", "-n", "5"});
  REQUIRE(bare.code == 0);
  CHECK(named.out == bare.out);
  auto bad = test::Run({"table", test::TestData(kDiffControl), "--device", "gpu3"});
  CHECK(bad.code == 2);
  CHECK(bad.err == "profana: error: --device gpu3: expected a device such as cuda:0, hip:1 or 0\n");
}

TEST_CASE("memory and budgets take a bare device index where it is unambiguous", "[budget]") {
  // df_index_resolver records memory on cpu, cuda:0 and cuda:1 (docs/commands.md shows cuda:1).
  const std::string trace =
      test::TestData("traces/hta/df_index_resolver/df_index_resolver.json.gz");
  auto named = test::Run({"memory", trace, "--device", "cuda:1", "-n", "2", "-q"});
  auto bare = test::Run({"memory", trace, "--device", "1", "-n", "2", "-q"});
  REQUIRE(named.code == 0);
  CHECK(bare.out == named.out);
  CHECK(bare.out.find("== cuda:1 ==") != std::string::npos);
  // gpu_idle_share names its device either way: device 3 of the HTA control trace.
  Trace control = test::LoadTestTrace(kDiffControl);
  passes::FunctionEventList e = passes::BuildFunctionEvents(control, std::nullopt);
  auto measure = [&](const char* device) {
    auto budget = passes::ParseBudget(
        fmt::format(R"({{"rules": [{{"metric": "gpu_idle_share", "device": "{}", "max": 1}}]}})",
                    device),
        "b.json");
    REQUIRE(budget.ok());
    auto results = passes::EvaluateBudget(control, e, *budget);
    REQUIRE(results.ok());
    return results->front().value;
  };
  double share = measure("3");
  CHECK(share > 0);
  CHECK(share < 1);
  CHECK(measure("cuda:3") == share);
}

TEST_CASE("diff takes table's --max-name-width and --no-truncate", "[diff]") {
  // CompiledFunctionBackward (24 characters) is the second row of the HTA pair, by self time.
  auto run = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {
        "diff", test::TestData(kDiffControl), test::TestData(kDiffTest), "-n", "3", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::Run(args);
  };
  auto narrow = run({"--max-name-width", "20"});
  REQUIRE(narrow.code == 0);
  CHECK(narrow.out.find("\nCompiledFunctionB...  cpu ") != std::string::npos);  // 17 + "..."
  auto whole = run({"--no-truncate"});
  CHECK(whole.out.find("\nCompiledFunctionBackward ") != std::string::npos);
  CHECK(whole.out.find("CompiledFunctionB...") == std::string::npos);
  // Whole names in the Added list too (the default cuts them at 48 characters), kernel names
  // shortened as `kernels` does unless --full-names.
  CHECK(whole.out.find("Added (32): CompiledFunctionBackward, CompiledFunction, void "
                       "split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_"
                       "per_row_1<...>(...), ") != std::string::npos);
  auto full = run({"--no-truncate", "--full-names"});
  CHECK(full.out.find("Added (32): CompiledFunctionBackward, CompiledFunction, void "
                      "split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_"
                      "per_row_1<float, float, float, 5ul>(") != std::string::npos);
  // The shortened kernel rows of the text: "Memcpy DtoD (Device -> Device)" is "Memcpy DtoD
  // (...)"; JSON keeps the name whole
  // (a row among the first 10 by self time).
  auto ten = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {
        "diff", test::TestData(kDiffControl), test::TestData(kDiffTest), "-n", "10", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::Run(args);
  };
  CHECK(ten({}).out.find("\nMemcpy DtoD (...)      ") != std::string::npos);
  CHECK(ten({"--full-names"}).out.find("\nMemcpy DtoD (Device -> Device)    ") !=
        std::string::npos);
  auto json = ten({"--format", "json"});
  CHECK(json.out.find("\"name\": \"Memcpy DtoD (Device -> Device)\"") != std::string::npos);
  auto bad = run({"--max-name-width", "2"});
  CHECK(bad.code == 2);
  CHECK(bad.err == "profana: error: --max-name-width 2: expected a whole number, 4 or more\n");
}

TEST_CASE("tree: --min-time hides kernels and empty threads; steps keep their number", "[tree]") {
  // The HTA control trace: 3 threads, 9402 launched kernels, steps ProfilerStep#1009 to #1014.
  // Only one kernel lasts 1 ms or more (an NCCL SendRecv of 1.060 ms), and only the main
  // thread has an op of 20 ms or more (each step, about 75 ms).
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  auto kernel_lines = [](const std::string& text) {  // "  -> name  1.060ms on ..." lines
    std::istringstream in(text);
    size_t n = 0;
    for (std::string line; std::getline(in, line);)
      n += line.find_first_not_of(' ') == line.find("-> ");
    return n;
  };
  auto all = test::Run({"tree", test::TestData(kDiffControl), "-q", "--no-fold"});
  REQUIRE(all.code == 0);
  CHECK(count("\n" + all.out, "\nthread ") == 3);
  CHECK(kernel_lines(all.out) == 9402);
  // Folded (the default), runs of identical launches take one line each.
  auto folded = test::Run({"tree", test::TestData(kDiffControl), "-q"});
  CHECK(count("\n" + folded.out, "\nthread ") == 3);
  CHECK(kernel_lines(folded.out) == 8610);
  CHECK(count(all.out, "ProfilerStep*") == 0);
  CHECK(count(all.out, "\n  ProfilerStep#1009  total 75.473ms") == 1);
  auto long_kernels = test::Run({"tree", test::TestData(kDiffControl), "-q", "--min-time", "1ms"});
  CHECK(kernel_lines(long_kernels.out) == 1);
  CHECK(count(long_kernels.out,
              "-> ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(...)  "
              "1.060ms on device 3 stream 21\n") == 1);
  auto long_ops = test::Run({"tree", test::TestData(kDiffControl), "-q", "--min-time", "20ms"});
  CHECK(count("\n" + long_ops.out, "\nthread ") == 1);
  auto json = test::Run(
      {"tree", test::TestData(kDiffControl), "-q", "--min-time", "20ms", "--format", "json"});
  CHECK(count(json.out, "\"tid\":") == 1);
  CHECK(count(json.out, "\"name\": \"ProfilerStep#1009\"") == 1);
}

// `profana diff` ranks ops, and shows user annotations (record_function ranges, ProfilerStep#N,
// on the CPU and as GPU user annotations) apart: PyTorch gives a GPU annotation its whole span as
// self device time, so between two runs of the same model it would lead the ranking. On two live
// sessions of the same MLP (PyTorch 2.11, H100; testdata/live/mlp_train, recorded without and
// with shapes, memory and stacks): device time moved -0.9 %, while ProfilerStep*'s GPU
// annotation grew 193 us and its CPU label 555 us, the two largest changes of the 73 keys.
namespace {

std::vector<std::string> MlpPair(std::vector<std::string> extra) {
  std::vector<std::string> args = {"diff", test::TestData("live/mlp_train/plain/trace.json.gz"),
                                   test::TestData("live/mlp_train/all/trace.json.gz"), "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace

TEST_CASE("diff ranks ops and shows user annotations apart", "[diff]") {
  auto json = test::Run(MlpPair({"--format", "json", "-n", "-1"}));
  REQUIRE(json.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element d = parser.parse(json.out);
  CHECK(int64_t(d["rows_total"]) == 73);
  simdjson::dom::array ops = d["rows"], annotations = d["annotations"];
  CHECK(ops.size() == 68);
  REQUIRE(annotations.size() == 5);
  // The ops: aten::mm leads (+65.590 us of self CPU and device time).
  CHECK(std::string_view(ops.at(0)["name"]) == "aten::mm");
  CHECK(double(ops.at(0)["change"]) == Approx(65.59));
  for (simdjson::dom::element r : ops) {
    std::string_view name = r["name"];
    INFO(name);
    CHECK(name.rfind("ProfilerStep", 0) != 0);
    CHECK(name.rfind("Optimizer.", 0) != 0);
  }
  // The annotations, by the same change: ProfilerStep*'s CPU label, SGD.step's, then
  // ProfilerStep*'s GPU annotation (860.238 us of "self device" time, its whole span).
  const char* names[] = {"ProfilerStep*", "Optimizer.step#SGD.step", "ProfilerStep*",
                         "Optimizer.zero_grad#SGD.zero_grad", "Optimizer.step#SGD.step"};
  const char* devices[] = {"CPU", "CPU", "CUDA", "CPU", "CUDA"};
  for (size_t i = 0; i < 5; ++i) {
    INFO(i);
    CHECK(std::string_view(annotations.at(i)["name"]) == names[i]);
    CHECK(std::string_view(annotations.at(i)["device_type"]) == devices[i]);
  }
  CHECK(double(annotations.at(0)["change"]) == Approx(555.236));
  CHECK(double(annotations.at(2)["change"]) == Approx(193.218));
  CHECK(double(annotations.at(2)["base"]["self_device_us"]) == Approx(860.238));
  // The totals are PyTorch's: a GPU annotation is not in the device time.
  CHECK(double(d["totals"]["base"]["self_device_us"]) == Approx(216.772));

  // Text: the row limit applies to each section; the ops' header says so.
  auto text = test::Run(MlpPair({"-n", "2"}));
  REQUIRE(text.code == 0);
  CHECK(text.out.find("ops by the change of self time (self CPU + self device), largest first "
                      "(top 2)\n") != std::string::npos);
  size_t section = text.out.find(
      "\nUser annotations (5, top 2): record_function and NVTX ranges, ranked apart from the ops "
      "(a GPU annotation's self device time is its whole span)\n");
  REQUIRE(section != std::string::npos);
  CHECK(text.out.find("\naten::mm ") < section);
  CHECK(text.out.find("\ncudaLaunchKernel ") < section);
  CHECK(text.out.find("\nProfilerStep* ") > section);
  CHECK(text.out.find("\nOptimizer.step#SGD.step ") > section);
  CHECK(text.out.find("\naten::transpose ") == std::string::npos);  // the third op

  auto markdown = test::Run(MlpPair({"--format", "markdown", "-n", "1"}));
  REQUIRE(markdown.code == 0);
  size_t md_section = markdown.out.find("\nUser annotations (5, top 1): ");
  REQUIRE(md_section != std::string::npos);
  CHECK(markdown.out.find("| `aten::mm` | cpu |") < md_section);
  CHECK(markdown.out.find("| `ProfilerStep*` | cpu |") > md_section);

  // CSV: the ops, then the annotations, flagged in the last column.
  auto csv = test::Run(MlpPair({"--format", "csv", "-n", "1"}));
  REQUIRE(csv.code == 0);
  CHECK(csv.out.rfind("name,device_type,", 0) == 0);
  CHECK(csv.out.find(",relative_change,annotation\naten::mm,CPU,") != std::string::npos);
  CHECK(csv.out.find(",false\nProfilerStep*,CPU,") != std::string::npos);
  CHECK(csv.out.substr(csv.out.size() - 6) == ",true\n");
}
