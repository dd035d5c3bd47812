// profana stacks and profana tree against PyTorch 1.13 (export_stacks files and events.json of
// testdata/oracle), and stack invariants on real GPU traces.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "simdjson.h"
#include "test_util.h"

namespace fs = std::filesystem;
using profana::test::Run;

namespace {

int64_t SumWeights(const std::string& folded) {
  int64_t sum = 0;
  std::istringstream in(folded);
  for (std::string line; std::getline(in, line);)
    sum += std::stoll(line.substr(line.rfind(' ') + 1));
  return sum;
}

// PyTorch marked some event async (a forked function ending on another thread): see
// oracle_test.cc for what may differ then.
bool HasAsyncEvents(const std::string& session_dir) {
  simdjson::dom::parser parser;
  simdjson::dom::element events = parser.load(session_dir + "/events.json");
  size_t at = 0;
  for (std::string_view f : events["events"]["fields"].get_array()) {
    if (f == "is_async") break;
    ++at;
  }
  for (simdjson::dom::array row : events["events"]["rows"].get_array())
    if (bool(row.at(at))) return true;
  return false;
}

std::vector<std::string> OracleSessions() {
  std::vector<std::string> dirs;
  for (const auto& w : fs::directory_iterator(profana::test::TestData("oracle")))
    if (w.is_directory())
      for (const auto& c : fs::directory_iterator(w.path()))
        if (fs::exists(c.path() / "meta.json")) dirs.push_back(c.path().string());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

}  // namespace

TEST_CASE("stacks reproduce PyTorch's export_stacks byte for byte", "[stacks][conformance]") {
  int compared = 0;
  for (const std::string& dir : OracleSessions()) {
    for (const char* metric : {"self_cpu_time_total", "self_cuda_time_total"}) {
      std::string expected = dir + "/stacks_" + metric + ".txt";
      if (!fs::exists(expected)) continue;
      INFO(dir << " " << metric);
      auto r = Run({"stacks", dir + "/trace.kineto_like.json", "--metric", metric});
      REQUIRE(r.code == 0);
      std::string want = profana::test::ReadFile(expected);
      if (HasAsyncEvents(dir)) {
        // The async function's self time moves to its label: the same total, other lines equal.
        CHECK(SumWeights(r.out) == SumWeights(want));
      } else {
        CHECK(r.out == want);
      }
      if (std::string(metric) == "self_cuda_time_total") {
        // A CPU-only trace: PyTorch writes an empty file; profana too, and says why.
        CHECK(r.out.empty());
        CHECK(r.err.find("no device activity") != std::string::npos);
      }
      ++compared;
    }
  }
  CHECK(compared == 20);
}

TEST_CASE("merged stacks sum to the unmerged total", "[stacks]") {
  std::vector<std::vector<std::string>> cases = {
      {"stacks", "testdata/oracle/lstm_forward/all/trace.kineto_like.json"},
      {"stacks", "testdata/oracle/mlp_train/stack/trace.kineto_like.json", "--stacks", "both"},
      {"stacks",
       "testdata/traces/kineto/be239c04/resnet50_num_workers_0/"
       "worker0.1623143089861.pt.trace.json.gz",
       "--metric", "self_cuda"},
      {"stacks", "testdata/traces/tracelens/b200/eager_trace.json.gz", "--metric", "self_cuda"},
      {"stacks", "testdata/traces/param/resnet_kineto.json.gz", "--stacks", "ops"},
  };
  for (auto args : cases) {
    INFO(args[1]);
    // In nanoseconds a merge adds exactly what the lines add. In microseconds each line is cut
    // to whole microseconds (export_stacks) while each merged stack's exact sum is rounded once,
    // so the merge stays within half a microsecond per stack of the exact total.
    auto in_ns = args;
    in_ns.insert(in_ns.end(), {"--unit", "ns"});
    auto plain_ns = Run(in_ns);
    in_ns.push_back("--merge");
    auto merged_ns = Run(in_ns);
    args.push_back("--merge");
    auto merged = Run(args);
    REQUIRE(plain_ns.code == 0);
    REQUIRE(merged_ns.code == 0);
    REQUIRE(merged.code == 0);
    CHECK_FALSE(plain_ns.out.empty());
    int64_t exact = SumWeights(plain_ns.out);
    CHECK(SumWeights(merged_ns.out) == exact);
    int64_t stacks = std::count(merged_ns.out.begin(), merged_ns.out.end(), '\n');
    CHECK(std::abs(SumWeights(merged.out) * 1000 - exact) <= 500 * stacks);
    // Merged lines are distinct and sorted.
    std::istringstream in(merged.out);
    std::string prev, line;
    while (std::getline(in, line)) {
      std::string stack = line.substr(0, line.rfind(' '));
      CHECK(stack > prev);
      prev = stack;
    }
  }
}

TEST_CASE("self_cuda op stacks account for every nanosecond of device time", "[stacks]") {
  // Totals pinned from `profana table --format json` (self_cuda_time_total_us) of each trace.
  struct Case {
    const char* file;
    int64_t total_ns;
  } cases[] = {
      {"testdata/traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz",
       11042000},
      {"testdata/traces/hta/critical_path/alexnet/"
       "benchmark_result_2869224_1695835535_trace.json.gz",
       66203000},
      {"testdata/traces/tracelens/mi300/resnet_act_checkpoint.json.gz", 100230072},
      {"testdata/traces/tracelens/b200/eager_trace.json.gz", 11665760},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    auto table = Run({"table", c.file, "--format", "json"});
    REQUIRE(table.code == 0);
    simdjson::dom::parser parser;
    double table_us = parser.parse(table.out)["self_cuda_time_total_us"];
    CHECK(static_cast<int64_t>(table_us * 1000 + 0.5) == c.total_ns);
    auto r = Run({"stacks", c.file, "--metric", "self_cuda", "--stacks", "ops", "--unit", "ns"});
    REQUIRE(r.code == 0);
    CHECK(SumWeights(r.out) == c.total_ns);
  }
}

TEST_CASE("op stacks work on every real trace", "[stacks]") {
  int traces = 0;
  for (const auto& e : fs::recursive_directory_iterator(profana::test::TestData("traces"))) {
    if (!e.is_regular_file() || e.path().string().find(".json") == std::string::npos) continue;
    INFO(e.path());
    auto cpu = Run({"stacks", e.path().string(), "--stacks", "ops", "--merge", "--unit", "ns"});
    REQUIRE(cpu.code == 0);
    auto cuda =
        Run({"stacks", e.path().string(), "--stacks", "ops", "--metric", "self_cuda", "--merge"});
    REQUIRE(cuda.code == 0);
    // Either there are device stacks, or one line says there is no device activity.
    CHECK((!cuda.out.empty() || cuda.err.find("no device activity") != std::string::npos));
    ++traces;
  }
  CHECK(traces >= 38);
}

TEST_CASE("a differential folded file lists both weights of every stack", "[stacks]") {
  auto r = Run({"stacks", "--diff", "testdata/oracle/mlp_train/all/trace.kineto_like.json",
                "testdata/oracle/mlp_train/stack/trace.kineto_like.json", "--merge"});
  REQUIRE(r.code == 0);
  auto base = Run({"stacks", "testdata/oracle/mlp_train/all/trace.kineto_like.json", "--merge"});
  auto next = Run({"stacks", "testdata/oracle/mlp_train/stack/trace.kineto_like.json", "--merge"});
  int64_t sum_base = 0, sum_next = 0;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line.substr(line.rfind(' ', line.rfind(' ') - 1) + 1));
    int64_t a, b;
    fields >> a >> b;
    sum_base += a;
    sum_next += b;
  }
  CHECK(sum_base == SumWeights(base.out));
  CHECK(sum_next == SumWeights(next.out));
  CHECK(Run({"stacks", "--diff", "testdata/oracle/mlp_train/all/trace.kineto_like.json"}).code ==
        2);
}

TEST_CASE("the tree command has PyTorch's cpu_parent / cpu_children structure",
          "[tree][conformance]") {
  int sessions = 0;
  for (const std::string& dir : OracleSessions()) {
    if (HasAsyncEvents(dir) || !fs::exists(dir + "/trace.kineto_like.json")) continue;
    INFO(dir);
    auto r = Run({"tree", dir + "/trace.kineto_like.json", "--format", "json"});
    REQUIRE(r.code == 0);
    // Pre-order (name, child count) of profana's tree, per thread in first-root order.
    std::vector<std::pair<std::string, size_t>> got;
    simdjson::dom::parser p1;
    simdjson::dom::element tree = p1.parse(r.out);
    std::vector<simdjson::dom::element> stack;
    for (simdjson::dom::element thread : tree["threads"].get_array()) {
      simdjson::dom::array roots = thread["roots"];
      for (size_t k = roots.size(); k-- > 0;) stack.push_back(roots.at(k));
      while (!stack.empty()) {
        simdjson::dom::element n = stack.back();
        stack.pop_back();
        simdjson::dom::array children = n["children"];
        // The tree names a step by its number; PyTorch's FunctionEvent calls each ProfilerStep*.
        std::string name = std::string(std::string_view(n["name"]));
        if (name.rfind("ProfilerStep#", 0) == 0) name = "ProfilerStep*";
        got.emplace_back(name, children.size());
        for (size_t k = children.size(); k-- > 0;) stack.push_back(children.at(k));
      }
    }
    // The same walk over events.json's cpu_parent / cpu_children (CPU events only).
    simdjson::dom::parser p2;
    simdjson::dom::element oracle = p2.load(dir + "/events.json");
    std::vector<std::string> fields;
    for (std::string_view f : oracle["events"]["fields"].get_array()) fields.emplace_back(f);
    auto at = [&](const char* f) {
      return std::find(fields.begin(), fields.end(), f) - fields.begin();
    };
    std::vector<simdjson::dom::array> rows;
    for (simdjson::dom::array row : oracle["events"]["rows"].get_array()) rows.push_back(row);
    std::vector<std::pair<std::string, size_t>> want;
    std::map<int64_t, std::vector<size_t>> roots_by_thread;
    std::vector<int64_t> thread_order;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!rows[i].at(at("cpu_parent")).is_null()) continue;
      int64_t thread = rows[i].at(at("thread"));
      if (!roots_by_thread.count(thread)) thread_order.push_back(thread);
      roots_by_thread[thread].push_back(i);
    }
    for (int64_t thread : thread_order) {
      std::vector<size_t> todo(roots_by_thread[thread].rbegin(), roots_by_thread[thread].rend());
      while (!todo.empty()) {
        size_t i = todo.back();
        todo.pop_back();
        std::vector<int64_t> children;
        for (int64_t c : rows[i].at(at("cpu_children")).get_array()) children.push_back(c);
        want.emplace_back(std::string(std::string_view(rows[i].at(at("name")))), children.size());
        for (size_t k = children.size(); k-- > 0;) todo.push_back(static_cast<size_t>(children[k]));
      }
    }
    CHECK(got == want);
    ++sessions;
  }
  CHECK(sessions >= 20);
}

TEST_CASE("the flamegraph SVG is drawn from exact nanoseconds, not export_stacks' microseconds",
          "[stacks]") {
  // A live PyTorch 2.11 H100 session: export_stacks' self_cuda lines, each kernel cut to whole
  // microseconds, add up to 343 us of the 393.472 us the same stacks hold exactly.
  const std::string file = "testdata/live/cnn_train/all/trace.json.gz";
  auto lines = Run({"stacks", file, "--metric", "self_cuda"});
  auto exact = Run({"stacks", file, "--metric", "self_cuda", "--unit", "ns"});
  REQUIRE(lines.code == 0);
  REQUIRE(exact.code == 0);
  CHECK(SumWeights(lines.out) == 343);
  CHECK(SumWeights(exact.out) == 393472);
  auto svg = Run({"stacks", file, "--metric", "self_cuda", "--svg", "-"});
  REQUIRE(svg.code == 0);
  CHECK(svg.out.find("<title>record_live_oracle.py(680): &lt;module&gt; (393.472us, 100.00%)") !=
        std::string::npos);
}
