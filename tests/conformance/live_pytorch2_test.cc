// Conformance against live PyTorch 2.x GPU sessions (testdata/live, README there): each session's
// trace, exported by PyTorch itself, beside the tables PyTorch printed from the same profiler
// object. profana reads only the trace and must print those tables byte for byte, except where a
// table lists below why it cannot.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "test_util.h"

namespace fs = std::filesystem;
using profana::test::FirstDifference;
using profana::test::ReadFile;
using profana::test::Run;
using profana::test::TestData;

namespace {

// Tables profana does not reproduce, and why: none (docs/semantics.md says what a trace can lack).
const std::map<std::string, std::string>& NotReproduced() {
  static const std::map<std::string, std::string> kWhy = {};
  return kWhy;
}

// Sessions where a call no op links has an op's External id as its correlation id: PyTorch's
// tables there are what `--link pytorch` prints (docs/semantics.md "Id collisions").
bool HasIdCollisions(const std::string& trace) {
  auto r = Run({"info", trace, "--format", "json"});
  REQUIRE(r.code == 0);
  return r.out.find("\"id_collisions\": 0,") == std::string::npos;
}

std::vector<std::string> Sessions() {
  std::vector<std::string> out;
  for (const auto& w : fs::directory_iterator(TestData("live")))
    if (w.is_directory())
      for (const auto& c : fs::directory_iterator(w.path()))
        if (fs::exists(c.path() / "meta.json"))
          out.push_back(w.path().filename().string() + "/" + c.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("live PyTorch 2.x tables are reproduced byte for byte from the exported trace",
          "[conformance][live]") {
  int compared = 0, skipped = 0, literal = 0;
  for (const std::string& s : Sessions()) {
    std::string dir = TestData("live/" + s);
    bool collisions = HasIdCollisions(dir + "/trace.json.gz");
    for (const auto& [table, args] : profana::test::PyTorchTableArgs()) {
      if (!fs::exists(dir + "/" + table)) continue;
      if (NotReproduced().count(s + "/" + table)) {
        ++skipped;
        continue;
      }
      std::vector<std::string> argv = {"table", dir + "/trace.json.gz"};
      argv.insert(argv.end(), args.begin(), args.end());
      if (collisions) argv.insert(argv.end(), {"--link", "pytorch"}), ++literal;
      auto r = Run(argv);
      std::string want = ReadFile(dir + "/" + table);
      INFO(s << " " << table);
      REQUIRE(r.code == 0);
      INFO(FirstDifference(r.out, want));
      CHECK(r.out == want);
      ++compared;
    }
  }
  // 17 sessions: 160 tables, 20 of them with --link pytorch (nccl_single_rank's 8, gpt_train/all's
  // 12), 12 of them with the FLOPs column (flops_zoo).
  CHECK(compared == 160);
  CHECK(literal == 20);
  CHECK(skipped == 0);
}

TEST_CASE("live PyTorch 2.x with_flops: the FLOPs column, its unit and --sort flops",
          "[conformance][live][flops]") {
  std::string dir = TestData("live/flops_zoo/flops");
  // Every table of the session has the column, in KFLOPs (the smallest count is mul's 16384).
  for (const char* table : {"table_default.txt", "table_flops.txt", "table_raw_events_top25.txt"})
    CHECK(ReadFile(dir + "/" + table).find("Total KFLOPs") != std::string::npos);
  auto r = Run({"table", dir + "/trace.json.gz", "--sort", "flops", "--row-limit", "3"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("  # of Calls  Total KFLOPs  \n") != std::string::npos);
  CHECK(r.out.find("             4     37748.736  \n") != std::string::npos);  // aten::conv2d
  // JSON and CSV carry the exact counts, whatever the table shows.
  auto json = Run(
      {"table", dir + "/trace.json.gz", "--sort", "flops", "--row-limit", "2", "--format", "json"});
  REQUIRE(json.code == 0);
  CHECK(json.out.find("\"sort_by\": \"flops\"") != std::string::npos);
  CHECK(json.out.find("\"flops\": 37748736") != std::string::npos);
  CHECK(json.out.find("\"flops\": 11534336") != std::string::npos);  // aten::addmm
  auto csv = Run({"table", dir + "/trace.json.gz", "--sort", "flops", "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.find(",flops,") != std::string::npos);
  CHECK(csv.out.find("aten::conv2d,CPU,4,") != std::string::npos);
  // A trace recorded without with_flops has no column, but the same counts in JSON.
  auto plain = Run({"table", TestData("live/mlp_train/all/trace.json.gz"), "--format", "json",
                    "--sort", "flops", "--row-limit", "1"});
  REQUIRE(plain.code == 0);
  // The backward's aten::mm (10 calls) counts more than the forward's aten::addmm (6 calls):
  // 2 * prod(mat1) / k * prod(mat2) summed over each op's recorded Input Dims.
  CHECK(plain.out.find("\"name\": \"aten::mm\"") != std::string::npos);
  CHECK(plain.out.find("\"flops\": 170393600,") != std::string::npos);
  CHECK(plain.out.find("\"flops\": 0,") == std::string::npos);
  auto plain_text = Run({"table", TestData("live/mlp_train/all/trace.json.gz")});
  CHECK(plain_text.out.find("FLOPs") == std::string::npos);
}

TEST_CASE(
    "live PyTorch 2.x: under --link auto, an id collision changes only the colliding call's and "
    "its op's rows",
    "[conformance][live]") {
  // 3 steps of a GPT-style model under AdamW and bf16 autocast (238 rows by name). PyTorch
  // credits device time to cudaStreamIsCapturing (7.296us) through a correlation id equal to an
  // op's External id, and so 7-8 us more to the optimizer step's CUDA total; --link pytorch
  // repeats that (the test above), auto does not. Every other row of every table, and the totals,
  // are PyTorch's either way.
  std::string dir = TestData("live/gpt_train/all");
  auto lines = [](const std::string& table) {
    std::multiset<std::string> out;
    std::istringstream in(table);
    for (std::string l; std::getline(in, l);) out.insert(l);
    return out;
  };
  int tables = 0, same = 0;
  for (const auto& [table, args] : profana::test::PyTorchTableArgs()) {
    if (!fs::exists(dir + "/" + table)) continue;
    INFO(table);
    std::vector<std::string> argv = {"table", dir + "/trace.json.gz"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = Run(argv);
    REQUIRE(r.code == 0);
    std::multiset<std::string> ours = lines(r.out), theirs = lines(ReadFile(dir + "/" + table));
    CHECK(ours.size() == theirs.size());
    std::vector<std::string> differing;
    std::set_symmetric_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(),
                                  std::back_inserter(differing));
    // Sorted by count, the top 15 rows hold neither row the collision moves.
    if (differing.empty()) {
      CHECK(table == "table_count_top15.txt");
      ++same;
      continue;
    }
    ++tables;
    CHECK(differing.size() <= 4);
    for (const std::string& l : differing) {
      INFO(l);
      CHECK((l.find(" Optimizer.step#AdamW.step ") != std::string::npos ||
             l.find(" cudaStreamIsCapturing ") != std::string::npos));
    }
  }
  CHECK(tables == 11);
  CHECK(same == 1);
  // info counts the collisions under every rule.
  auto info = Run({"info", dir + "/trace.json.gz"});
  REQUIRE(info.code == 0);
  CHECK(info.out.find("id collisions:   ") != std::string::npos);
}

TEST_CASE("live PyTorch 2.x: GPU user annotations and Kineto overhead make rows as in PyTorch",
          "[conformance][live]") {
  // The MLP run: each ProfilerStep and optimizer step is a CPU label and a GPU span. PyTorch 2.x
  // lists the GPU span as a CUDA row of its own and leaves it out of the CUDA total (hence 397%).
  std::string dir = TestData("live/mlp_train/plain");
  auto r =
      Run({"table", dir + "/trace.json.gz", "--sort", "self_cuda_time_total", "--row-limit", "3"});
  REQUIRE(r.code == 0);
  CHECK(
      r.out.find("ProfilerStep*         0.00%       0.000us         0.00%       0.000us       "
                 "0.000us     860.238us       396.84%     860.238us     430.119us             2") !=
      std::string::npos);
  CHECK(r.out.find("Self CUDA time total: 216.772us") != std::string::npos);
  // The CNN run: Kineto's "Activity Buffer Request" ran inside the first
  // cudnn_convolution; PyTorch nests it there (self CPU 94.262us, not 2.670ms) and, as it
  // takes the op's correlation id, counts the op's kernel twice (CUDA total 9.408us, not 4.704us).
  auto raw =
      Run({"table", TestData("live/cnn_train/all/trace.json.gz"), "--raw", "--row-limit", "-1"});
  REQUIRE(raw.code == 0);
  std::istringstream lines(raw.out);
  std::string overhead, first_conv;
  for (std::string l; std::getline(lines, l);) {
    if (overhead.empty() && l.find("Activity Buffer Request ") != std::string::npos) overhead = l;
    if (first_conv.empty() && l.find("aten::cudnn_convolution ") != std::string::npos)
      first_conv = l;
  }
  CHECK(overhead.find("2.576ms       4.704us") != std::string::npos);
  CHECK(first_conv.find("94.262us") != std::string::npos);
  CHECK(first_conv.find("9.408us") != std::string::npos);
}

TEST_CASE("live PyTorch 2.x: c10d's collective titles are async, as PyTorch marks them",
          "[conformance][live]") {
  // nccl:all_reduce and the other Work titles: out of the tree, no self time, "CPU total %" 0;
  // record_param_comms, which held them, keeps its own time (535.447us, as PyTorch).
  std::string trace = TestData("live/nccl_single_rank/plain/trace.json.gz");
  std::string want = ReadFile(TestData("live/nccl_single_rank/plain/table_self_cpu.txt"));
  auto r = Run({"table", trace, "--sort", "self_cpu_time_total", "--row-limit", "-1"});
  REQUIRE(r.code == 0);
  auto row = [](const std::string& table, const std::string& name) {
    std::istringstream lines(table);
    for (std::string l; std::getline(lines, l);)
      if (l.find(" " + name + "  ") != std::string::npos) return l;
    return std::string();
  };
  for (const char* name : {"nccl:all_reduce", "nccl:broadcast", "nccl:_reduce_scatter_base"}) {
    INFO(name);
    REQUIRE(!row(r.out, name).empty());
    CHECK(row(r.out, name) == row(want, name));
  }
  CHECK(row(r.out, "record_param_comms").find("535.447us") != std::string::npos);
  CHECK(r.out.find("nccl:all_reduce         0.00%       0.000us             0") !=
        std::string::npos);
}

TEST_CASE("live PyTorch 2.x: --memory-units spells sizes as 2.x or as 1.13",
          "[conformance][live]") {
  std::string trace = TestData("live/cnn_train/all/trace.json.gz");
  auto v2 = Run({"table", trace, "--sort", "self_cuda_memory_usage", "--row-limit", "1"});
  auto v113 = Run({"table", trace, "--sort", "self_cuda_memory_usage", "--row-limit", "1",
                   "--memory-units", "1.13"});
  REQUIRE(v2.code == 0);
  REQUIRE(v113.code == 0);
  CHECK(v2.out.find("6.17 MB       6.17 MB") != std::string::npos);
  CHECK(v113.out.find("6.17 Mb       6.17 Mb") != std::string::npos);
  auto bad = Run({"table", trace, "--memory-units", "3"});
  CHECK(bad.code == 2);
}

TEST_CASE("live PyTorch 2.x verbose stacks: export_stacks is reproduced byte for byte",
          "[conformance][live]") {
  // export_stacks of a run with experimental_config(verbose=True): runtime calls take their op's
  // stack, kernels the "Call stack" of their launch's op (backward kernels the frames of the
  // backward() call), and the call outside every op (cudaDeviceSynchronize) and the GPU user
  // annotations the Python frames open when they began, from the python_function events.
  std::string dir = TestData("live/mlp_train/verbose");
  for (const char* metric : {"self_cpu_time_total", "self_cuda_time_total"}) {
    INFO(metric);
    auto r = Run({"stacks", "--stacks", "python", "--metric", metric, dir + "/trace.json.gz"});
    REQUIRE(r.code == 0);
    std::string want = ReadFile(dir + "/stacks_" + std::string(metric) + ".txt");
    INFO(FirstDifference(r.out, want));
    CHECK(r.out == want);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') ==
          (std::string(metric) == "self_cpu_time_total" ? 270 : 108));
    // A verbose trace says nothing about where its stacks come from.
    CHECK(r.err.empty());
  }
  // Without verbose, PyTorch 2.x writes an empty file; profana rebuilds the stacks from the
  // python_function events and says so first.
  auto plain = Run({"stacks", TestData("live/mlp_train/all/trace.json.gz")});
  REQUIRE(plain.code == 0);
  CHECK(!plain.out.empty());
  CHECK(ReadFile(TestData("live/mlp_train/all/stacks_self_cpu_time_total.txt")).empty());
  CHECK(plain.err.rfind("profana: ", 0) == 0);
  CHECK(plain.err.find("recorded without experimental_config=_ExperimentalConfig(verbose=True)") <
        plain.err.find('\n'));
  auto help = Run({"stacks", "--help"});
  CHECK(help.out.find("verbose=True") != std::string::npos);
}

TEST_CASE("live PyTorch 2.x: info names the profiler options and counts the Python stacks",
          "[conformance][live]") {
  auto all = Run({"info", TestData("live/mlp_train/all/trace.json.gz")});
  REQUIRE(all.code == 0);
  CHECK(all.out.find("profiler options: record_shapes, profile_memory, with_stack\n") !=
        std::string::npos);
  // with_stack without verbose: no "Call stack", 665 python_function events.
  CHECK(all.out.find("distinct stacks: 15 (rebuilt from 665 python_function events;") !=
        std::string::npos);
  auto verbose = Run({"info", TestData("live/mlp_train/verbose/trace.json.gz")});
  REQUIRE(verbose.code == 0);
  CHECK(verbose.out.find("profiler options: record_shapes, with_stack; ops carry \"Call stack\"") !=
        std::string::npos);
  auto flops = Run({"info", TestData("live/flops_zoo/flops/trace.json.gz"), "--format", "json"});
  REQUIRE(flops.code == 0);
  CHECK(flops.out.find("\"record_shapes\": true,\n    \"profile_memory\": false,\n    "
                       "\"with_stack\": false,\n    \"with_flops\": true,\n    "
                       "\"with_modules\": true,") != std::string::npos);
  auto plain = Run({"info", TestData("live/mlp_train/plain/trace.json.gz")});
  CHECK(plain.out.find("profiler options: none named in the header\n") != std::string::npos);
  CHECK(plain.out.find("distinct stacks: 0\n") != std::string::npos);
}

TEST_CASE("live PyTorch 2.x: the memory timeline is on PyTorch's clock", "[conformance][live]") {
  // export_memory_timeline's times are Unix-epoch microseconds; Kineto writes ts less
  // baseTimeNanoseconds. The categories differ (PyTorch knows which tensors are parameters and
  // inputs, docs/memory.md); the clock does not.
  std::string dir = TestData("live/cnn_train/all");
  auto r = Run({"memory", dir + "/trace.json.gz", "--format", "timeline", "--device", "cuda:0"});
  REQUIRE(r.code == 0);
  std::string want = ReadFile(dir + "/memory_timeline.json");
  // Both start [[T, T, ...: the first record's time, twice (pre-existing blocks take it too).
  std::string first = want.substr(0, want.find(',', want.find(',') + 1));
  CHECK(first == "[[1795708466194605, 1795708466194605");
  CHECK(r.out.substr(0, first.size()) == first);
}
