// `profana check FILE` (validation) on hand-made traces with each defect planted, on a healthy
// trace with everything real profilers write that is not a defect, and on the real traces in
// testdata that used to raise false alarms.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;

namespace {

// rule name -> value of `check --format json`.
std::map<std::string, int64_t> Values(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json);
  std::map<std::string, int64_t> out;
  for (simdjson::dom::element r : doc["rules"].get_array())
    out[std::string(std::string_view(r["name"]))] = int64_t(double(r["value"]));
  return out;
}

}  // namespace

TEST_CASE("check finds each planted defect", "[check]") {
  // testdata/gpu/check_defects.json (us from the first event; device work from 0 to 5010, so
  // everything between 1000 and 4010 is away from the capture's edges; launches have
  // correlation ids 1 .. 10):
  //  * aten::b [2000, 2100) and aten::c [2050, 2200), two cpu_ops on one thread: 1 host overlap;
  //  * kb [2290, 2300) launched by the call at 2300: 1 kernel before its launch;
  //  * the launch at 2400 (id 6, below the last device id 10) runs nothing: 1 launch without work;
  //  * kc [2500, 2510) with id 7, which no call has (and above the first call's 1): 1 orphan;
  //  * kd [2600, 2700) and ke [2650, 2750) on stream 7, two plain launches: 1 device overlap.
  auto r = Run({"check", "testdata/gpu/check_defects.json", "--format", "json"});
  CHECK(r.code == 1);
  auto v = Values(r.out);
  CHECK(v["kernels_before_launch"] == 1);
  CHECK(v["device_without_launch"] == 1);
  CHECK(v["launch_without_device"] == 1);
  CHECK(v["overlapping_host_events"] == 1);
  CHECK(v["overlapping_device_activity"] == 1);
  CHECK(v["unmatched_at_capture_edges"] == 0);
  CHECK(v["expected_device_overlaps"] == 0);
}

TEST_CASE("check passes what healthy traces contain", "[check]") {
  // testdata/gpu/check_healthy.json:
  //  * the Python call <built-in method _record_function_enter_new> [1999, 2001) is left while
  //    ProfilerStep#1 [2000, 3000) goes on: Python calls and ops are separate layers, nothing
  //    counted; b.py(2) ends 1 ns after a.py(1) that encloses it (stop rounding): nothing counted;
  //  * the record_function "label" [2100, 3500) outlives ProfilerStep#1: 1 straddling range (info);
  //  * "early" [1500, 1600) has correlation 3, below every launch (10 ..): it was launched before
  //    the host side was recorded: 1 at the capture's edges (info), though 1.5 ms from them;
  //  * k2 starts 30 ns before k1 ends (rounding), graph kernels g1 [2460, 2500) and g2 [2480,
  //    2520) share their cudaGraphLaunch's correlation 13, and "pdl" (cuLaunchKernelEx) starts
  //    5 us before g2 ends (programmatic dependent launch): 3 expected device overlaps (info);
  //  * the launch at 2610 lies between cudaStreamBeginCapture and cudaStreamEndCapture: 1 launch
  //    in a graph capture (info).
  auto r = Run({"check", "testdata/gpu/check_healthy.json", "--format", "json"});
  CHECK(r.code == 0);
  auto v = Values(r.out);
  for (const char* fatal :
       {"kernels_before_launch", "device_without_launch", "launch_without_device",
        "overlapping_host_events", "overlapping_device_activity"})
    CHECK(v[fatal] == 0);
  CHECK(v["straddling_host_ranges"] == 1);
  CHECK(v["unmatched_at_capture_edges"] == 1);
  CHECK(v["expected_device_overlaps"] == 3);
  CHECK(v["launches_in_graph_capture"] == 1);
}

TEST_CASE("real traces that are not damaged validate", "[check]") {
  struct Case {
    const char* trace;
    const char* rule;  // the informational count that holds what used to fail
    int64_t count;
  };
  // Each used to fail: python_function calls around record_function ranges (normalization),
  // graph kernels overlapping inside one cudaGraphLaunch and 614 activities launched before the
  // capture (CUDA graphs), programmatic dependent launches on Blackwell (B200), 421 launches
  // captured into a HIP graph (vLLM), 968 activities launched before the capture (MI300X).
  for (Case c : {
           Case{"testdata/traces/tracelens/perf_model/normalization/"
                "normalization_layer_test.json.gz",
                "straddling_host_ranges", 0},
           Case{"testdata/traces/hta/trace_diff/test/test.json.gz", "expected_device_overlaps", 31},
           Case{"testdata/traces/hta/trace_diff/test/test.json.gz", "unmatched_at_capture_edges",
                614},
           Case{"testdata/traces/tracelens/b200/eager_trace.json.gz", "expected_device_overlaps",
                74},
           Case{"testdata/traces/tracelens/mi300/resnet_act_checkpoint.json.gz",
                "unmatched_at_capture_edges", 968},
           Case{"testdata/traces/tracelens/inference/vllm_decode_full/capture_traces/"
                "graph_capture_rank_0.1773709742341309550.pt.trace.json.gz",
                "launches_in_graph_capture", 421},
           Case{"testdata/traces/hta/mtia_trace_single_rank/mtia_rank_0.json.gz",
                "straddling_host_ranges", 98},
           Case{"testdata/traces/hta/negative_queue_length_values_check/rank0.json.gz",
                "expected_device_overlaps", 1},
       }) {
    INFO(c.trace);
    auto r = Run({"check", c.trace, "--format", "json"});
    CHECK(r.code == 0);
    CHECK(Values(r.out)[c.rule] == c.count);
  }
}

TEST_CASE("every Kineto trace in testdata validates", "[check]") {
  // None of them is damaged (testdata/traces/PROVENANCE.md says where each comes from).
  size_t traces = 0;
  for (const auto& f :
       std::filesystem::recursive_directory_iterator(profana::test::TestData("traces"))) {
    std::string path = f.path().string();
    if (!f.is_regular_file() || path.find(".json") == std::string::npos) continue;
    // rocprofv3's own JSON is not a Kineto trace: ROCm records work per HSA queue, where
    // activities overlap as recorded (the rocmProfileData golden of check shows the same).
    if (path.find("/rocpd/") != std::string::npos) continue;
    INFO(path);
    auto r = Run({"check", path, "-q"});
    CHECK(r.code == 0);
    CHECK(r.err == "");
    ++traces;
  }
  CHECK(traces >= 38);
}
