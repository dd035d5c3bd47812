// CUDA and HIP graph replays: every kernel of a cudaGraphLaunch carries the launch's correlation
// id, is credited to the op that made the launch, counts in busy and idle time, and gets a line
// in `profana info`; where the launch is missing, the reports say nothing can be credited.
#include <catch2/catch.hpp>

#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;

namespace {

// The row of `table --format json` with this name.
simdjson::dom::element RowNamed(simdjson::dom::parser& p, const std::string& json,
                                const char* name) {
  simdjson::dom::element doc = p.parse(json);
  for (simdjson::dom::element r : doc["rows"].get_array())
    if (std::string_view(r["name"]) == name) return r;
  FAIL("no row " << name);
  return doc;
}

}  // namespace

TEST_CASE("graph kernels are credited, counted and listed (worked example)", "[graph]") {
  // testdata/gpu/graph_replay.json (us from the first event): CUDAGraph::replay [0, 50) makes
  // cudaGraphLaunch [10, 20) (correlation 5); the replay runs g1 [100, 110), g2 [105, 120) and
  // g3 [130, 140) on stream 7, all with correlation 5 (g1 and g2 overlap: parallel branches).
  // x1 [200, 210) and x2 [220, 230) share correlation 99, which no call has.
  // Credit: the op that made the launch gets 10 + 15 + 10 = 35 us of self CUDA time.
  // Busy (union): [100, 120) + [130, 140) = 30 us for the replay; the stream: 30 + 10 + 10 = 50
  // in the window [100, 230) = 130, so 80 idle: [120, 130) inside the replay, [140, 200) and
  // [210, 220) before x1 and x2, whose launch is not in the trace (2 gaps, 70 us).
  auto table = Run({"table", "testdata/gpu/graph_replay.json", "--format", "json"});
  REQUIRE(table.code == 0);
  simdjson::dom::parser p1;
  CHECK(double(RowNamed(p1, table.out, "CUDAGraph::replay")["self_cuda_time_total_us"]) == 35);

  auto info = Run({"info", "testdata/gpu/graph_replay.json"});
  REQUIRE(info.code == 0);
  CHECK(info.out.find("graph launches:  1 (3 device activities, 3 credited to an op)\n"
                      "  cudaGraphLaunch at 10.000us: 3 activities on stream 7 from 100.000us, "
                      "30.000us busy, credited to CUDAGraph::replay\n"
                      "  2 device activities share 1 correlation ids that no call in the trace "
                      "has") != std::string::npos);

  auto idle = Run({"idle", "testdata/gpu/graph_replay.json", "--format", "json"});
  REQUIRE(idle.code == 0);
  simdjson::dom::parser p2;
  simdjson::dom::element doc = p2.parse(idle.out);
  simdjson::dom::element stream = doc["tracks"].at(1);
  CHECK(std::string_view(stream["stream"]) == "stream 7");
  CHECK(double(stream["busy_us"]) == 50);
  CHECK(double(stream["idle_us"]) == 80);
  CHECK(int64_t(doc["unlaunched_gaps"]) == 2);
  CHECK(double(doc["unlaunched_gap_us"]) == 70);
  simdjson::dom::array gaps = doc["longest_gaps"];
  REQUIRE(gaps.size() == 3);
  CHECK(double(gaps.at(0)["duration_us"]) == 60);  // before x1
  CHECK(bool(gaps.at(0)["launch_in_trace"]) == false);
  CHECK(std::string_view(gaps.at(1)["next_activity"]) == "g3");
  CHECK(bool(gaps.at(1)["inside_graph"]) == true);
  CHECK(gaps.at(1)["cpu_op"].is_null());
  auto text = Run({"idle", "testdata/gpu/graph_replay.json"});
  CHECK(text.out.find("CPU was in: (inside one graph replay") != std::string::npos);
  CHECK(text.out.find("CPU was in: (cannot tell: the launch is not in the trace)") !=
        std::string::npos);
}

TEST_CASE("a real CUDA-graph trace credits each replay as PyTorch 2.x does", "[graph]") {
  // testdata/traces/hta/trace_diff/test/test.json.gz: 12 cudaGraphLaunch calls, each replaying
  // 339 (forward) or 502 (backward) kernels, memcpys and memsets with its correlation id. PyTorch
  // 2.x's key_averages (testdata/pytorch2/cuda_graph_launch/key_averages.json.gz) credits them to
  // the op around the launch: CompiledFunction self CUDA 95694 us, CUDA total 142259 us;
  // CompiledFunctionBackward 171432 us and 221154 us.
  const char* trace = "testdata/traces/hta/trace_diff/test/test.json.gz";
  auto table = Run({"table", trace, "--format", "json", "--row-limit", "-1"});
  REQUIRE(table.code == 0);
  simdjson::dom::parser p1, p2;
  simdjson::dom::element fwd = RowNamed(p1, table.out, "CompiledFunction");
  CHECK(double(fwd["self_cuda_time_total_us"]) == 95694);
  CHECK(double(fwd["cuda_time_total_us"]) == 142259);
  simdjson::dom::element bwd = RowNamed(p2, table.out, "CompiledFunctionBackward");
  CHECK(double(bwd["self_cuda_time_total_us"]) == 171432);
  CHECK(double(bwd["cuda_time_total_us"]) == 221154);

  auto info = Run({"info", trace});
  REQUIRE(info.code == 0);
  CHECK(info.out.find("graph launches:  12 (5046 device activities, 5046 credited to an op)\n"
                      "  cudaGraphLaunch at 43.085ms: 339 activities on stream 7 from 85.938ms, "
                      "15.694ms busy, credited to CompiledFunction\n"
                      "  cudaGraphLaunch at 91.850ms: 502 activities on stream 7 from 114.926ms, "
                      "29.056ms busy, credited to CompiledFunctionBackward\n") !=
        std::string::npos);
}
