// GPU analyses on hand-made traces whose answers are worked out here by hand, and the nvprof
// importer on databases built at test time from testdata/nvprof/*.sql.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "fmt/format.h"
#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;

namespace {

simdjson::dom::element Json(simdjson::dom::parser& parser, const std::string& text) {
  return parser.parse(text);
}

// Builds testdata/nvprof/<name>.sql into a database file (the text is the fixture; the binary
// is made here, never committed).
std::string BuildDatabase(const std::string& name) {
  std::string path = "/tmp/profana_test_" + name + "_" + std::to_string(::getpid()) + ".nvvp";
  std::string sql = profana::test::ReadFile(profana::test::TestData("nvprof/" + name + ".sql"));
  REQUIRE(profana::test::BuildSqliteDatabase(sql, path) == "");
  return path;
}

}  // namespace

TEST_CASE("queue depth, idle time and ranking follow BasicEvaluation on a worked example",
          "[gpu]") {
  // testdata/gpu/queue_rank.json (times in us from the first event): op A [0,100) launches k1..k4
  // at 10, 20, 30, 40 (5 us each); the kernels run back to back at 50, 60, 70, 80 (10 us each).
  // Queue points (launch or kernel, depth when it began): launches 1, 2, 3, 4; kernels 3, 2, 1, 0.
  // Idle (empty queue): [0, 10) before the first launch; the tail [90, 45) is empty.
  // Falling phase, walking back from the last point (k4, depth 0): peak 4 at the last launch:
  // [40, 80). Candidates overlapping it, in the metrics order (A, then its children last first):
  // A and the launch at 40. Self time 80 and 5 us; idle fraction 10/100 and 0. With two values
  // the z-scores are +-1/sqrt(2): A scores (1 + 0.6)/sqrt(2) = 1.1314, the launch -1.1314.
  auto r = Run({"optimizable", "testdata/gpu/queue_rank.json", "--top", "2", "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  auto doc = Json(parser, r.out);
  CHECK(int64_t(doc["launches"]) == 4);
  CHECK(int64_t(doc["kernels"]) == 4);
  CHECK(double(doc["idle_us"]) == 10);
  CHECK(double(doc["falling_intervals"].at(0)["start_us"]) == 40);
  CHECK(double(doc["falling_intervals"].at(0)["end_us"]) == 80);
  CHECK(int64_t(doc["candidates"]) == 2);
  simdjson::dom::array events = doc["events"];
  REQUIRE(events.size() == 2);
  CHECK(std::string_view(events.at(0)["name"]) == "A");
  CHECK(double(events.at(0)["self_us"]) == 80);
  CHECK(double(events.at(0)["idle_fraction"]) == Approx(0.1));
  CHECK(double(events.at(0)["score"]) == Approx(1.6 / std::sqrt(2.0)));
  CHECK(std::string_view(events.at(1)["name"]) == "cudaLaunchKernel");
  CHECK(double(events.at(1)["score"]) == Approx(-1.6 / std::sqrt(2.0)));
  CHECK(std::string_view(events.at(0)["source_code_location"]) == "model.py(12): forward");
  // The text is get_optimizable_events' block.
  auto text = Run({"optimizable", "testdata/gpu/queue_rank.json"});
  std::string rule(80, '-');
  CHECK(text.out == "Optimizable events:\n" + rule +
                        "\nEvent:                A\nSource code location: model.py(12): forward\n"
                        "Percentage idle time: 10.00%\n" +
                        rule + "\n");
}

TEST_CASE("the falling-phase search goes on past a segment without a peak of 4", "[gpu]") {
  // testdata/gpu/queue_rank_later_peak.json (us from the first event): ProfilerStep#3 [0, 300)
  // launches k1..k4 at 10, 20, 30, 40 and k5 at 150 (launches 5 us); the kernels run at 50, 60,
  // 70, 80 and 160 (10 us). Queue points: launches 1, 2, 3, 4; kernels 3, 2, 1, 0; launch 1 at 150,
  // k5 0. Reversed: k5 (0), L5 (1), k4 (0), k3 .. k1, L4 (4), L3 .. L1. From k5 the first segment
  // peaks at 1 < 4; rank_events' inner loop goes on into the next one, whose peak is L4 (4, no
  // empty point after it): the interval [L4 40, k5 160] (from k4 it finds [40, 80] inside it).
  // Idle: [0, 10) and [90, 150) = 70 us. Candidates: ProfilerStep#3 (self 300 - 25 = 275, idle
  // 70/300), then its children last first: the launches at 150 and 40 (self 5, idle 0). Three
  // values with one outlier have z-scores 2/sqrt(3) and -1/sqrt(3) for both terms: scores
  // 1.6 * 2/sqrt(3) = 1.8475 and -1.6/sqrt(3) = -0.9238. The event keeps its own name.
  auto r = Run(
      {"optimizable", "testdata/gpu/queue_rank_later_peak.json", "--top", "3", "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  auto doc = Json(parser, r.out);
  CHECK(double(doc["idle_us"]) == 70);
  REQUIRE(doc["falling_intervals"].get_array().size() == 1);
  CHECK(double(doc["falling_intervals"].at(0)["start_us"]) == 40);
  CHECK(double(doc["falling_intervals"].at(0)["end_us"]) == 160);
  CHECK(int64_t(doc["candidates"]) == 3);
  simdjson::dom::array events = doc["events"];
  REQUIRE(events.size() == 3);
  CHECK(std::string_view(events.at(0)["name"]) == "ProfilerStep#3");
  CHECK(double(events.at(0)["self_us"]) == 275);
  CHECK(double(events.at(0)["score"]) == Approx(3.2 / std::sqrt(3.0)));
  CHECK(double(events.at(1)["start_us"]) == 150);
  CHECK(double(events.at(1)["score"]) == Approx(-1.6 / std::sqrt(3.0)));
  CHECK(double(events.at(2)["start_us"]) == 40);
  auto text = Run({"optimizable", "testdata/gpu/queue_rank_later_peak.json"});
  CHECK(text.out.find("Event:                ProfilerStep#3\n") != std::string::npos);
}

TEST_CASE("a trace without kernels has nothing to optimize and says so", "[gpu]") {
  auto r = Run({"optimizable", "testdata/oracle/cnn_train/plain/trace.kineto_like.json"});
  CHECK(r.code == 0);
  CHECK(r.out == "No events to optimize\n\n");
  CHECK(r.err.find("no kernels") != std::string::npos);
}

TEST_CASE("idle time splits into host wait, kernel wait and other", "[gpu]") {
  // testdata/gpu/idle_breakdown.json (us from the first event), stream 7: k1 [20,30) launched at
  // 10; k2 [45,50) launched at 40, after k1 ended: host wait 15; k3 [50.010,60) launched at 41,
  // 10 ns after k2; k4 [80,90) launched at 42, 20 us after k3. Stream 8: k5 [100,110) launched
  // at 43. Device 0 as a whole adds the gap [90,100) before k5.
  // With --kernel-delay 0.015 (15 ns): the 10 ns gap is kernel wait, the 20 us and 10 us gaps
  // (launched early, longer than 15 ns) are other.
  auto r = Run(
      {"idle", "testdata/gpu/idle_breakdown.json", "--format", "json", "--kernel-delay", "0.015"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  auto doc = Json(parser, r.out);
  CHECK(int64_t(doc["consecutive_kernel_delay_ns"]) == 15);
  simdjson::dom::array tracks = doc["tracks"];
  REQUIRE(tracks.size() == 3);
  auto device = tracks.at(0), s7 = tracks.at(1), s8 = tracks.at(2);
  CHECK(std::string_view(device["stream"]) == "all");
  CHECK(double(device["window_us"]) == 90);
  CHECK(double(device["busy_us"]) == Approx(44.99));
  CHECK(double(device["host_wait_us"]) == 15);
  CHECK(double(device["kernel_wait_us"]) == Approx(0.01));
  CHECK(double(device["other_us"]) == 30);
  CHECK(double(s7["idle_us"]) == Approx(35.01));
  CHECK(double(s7["other_us"]) == 20);
  CHECK(double(s8["idle_us"]) == 0);
  simdjson::dom::array gaps = doc["longest_gaps"];
  REQUIRE(gaps.size() == 3);
  CHECK(std::string_view(gaps.at(0)["kind"]) == "other");
  CHECK(std::string_view(gaps.at(0)["next_activity"]) == "k4");
  CHECK(std::string_view(gaps.at(0)["cpu_op"]) == "step");
  CHECK(std::string_view(gaps.at(1)["kind"]) == "host_wait");
  CHECK(std::string_view(gaps.at(2)["kind"]) == "kernel_wait");
  // The default, 30 us (HTA's 30 on microsecond timestamps): the 20 us gap on stream 7 and the
  // 10 us gap of the device are kernel wait too; stream 7: 0.010 + 20, device: 20.010 + 10.
  auto hta = Run({"idle", "testdata/gpu/idle_breakdown.json", "--format", "json"});
  simdjson::dom::parser p2;
  auto d2 = Json(p2, hta.out);
  CHECK(int64_t(d2["consecutive_kernel_delay_ns"]) == 30000);
  CHECK(double(d2["tracks"].at(0)["kernel_wait_us"]) == Approx(30.01));
  CHECK(double(d2["tracks"].at(0)["other_us"]) == 0);
  CHECK(double(d2["tracks"].at(1)["kernel_wait_us"]) == Approx(20.01));
  CHECK(double(d2["tracks"].at(1)["host_wait_us"]) == 15);
  // 5 ns: the 10 ns gap is no longer kernel wait.
  auto narrow = Run(
      {"idle", "testdata/gpu/idle_breakdown.json", "--format", "json", "--kernel-delay", "0.005"});
  simdjson::dom::parser p3;
  CHECK(double(Json(p3, narrow.out)["tracks"].at(1)["kernel_wait_us"]) == 0);
  CHECK(Run({"idle", "testdata/gpu/idle_breakdown.json", "--kernel-delay", "-1"}).code == 2);
  CHECK(Run({"idle", "testdata/gpu/idle_breakdown.json", "--kernel-delay", "30 parsecs"}).code ==
        2);
  // A duration with a unit, as every duration option takes: 15ns is the 0.015 above.
  auto with_unit = Run(
      {"idle", "testdata/gpu/idle_breakdown.json", "--format", "json", "--kernel-delay", "15ns"});
  REQUIRE(with_unit.code == 0);
  CHECK(with_unit.out == Run({"idle", "testdata/gpu/idle_breakdown.json", "--format", "json",
                              "--kernel-delay", "0.015"})
                             .out);
}

TEST_CASE("queue length per stream counts launched, unfinished operations", "[gpu]") {
  // Stream 7: +1 at launches 10, 40, 41, 42; -1 at kernel ends 30, 50, 60, 90: lengths 1, 0, 1,
  // 2, 3, 2, 1, 0. Max 3 during [42, 50); mean (20 + 1 + 2 + 24 + 20 + 30) / 80 = 1.2125.
  auto r = Run({"queue", "testdata/gpu/idle_breakdown.json", "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  auto doc = Json(parser, r.out);
  CHECK(std::string_view(doc["stream_model"]) == "profana");
  CHECK(int64_t(doc["blocked_at"]) == 1024);
  auto s7 = doc["streams"].at(0);
  CHECK(std::string_view(s7["stream"]) == "stream 7");
  CHECK(int64_t(s7["max"]) == 3);
  CHECK(double(s7["mean"]) == Approx(1.2125));
  CHECK(double(s7["time_at_max_us"]) == 8);
  CHECK(double(s7["blocked_us"]) == 0);
  CHECK(simdjson::dom::array(s7["series"]).size() == 8);
}

TEST_CASE("queue --model hta takes an operation off the queue when it starts", "[gpu]") {
  // HTA's rule on testdata/gpu/idle_breakdown.json. Stream 7: +1 at the launches 10, 40, 41, 42;
  // -1 at the kernel starts 20, 45, 50.010, 80. Points: 10:1, 20:0, 40:1, 41:2, 42:3, 45:2,
  // 50.010:1, 80:0. Max 3 during [42, 45): 3 us; plain mean 10 / 8 = 1.25. With --queue-limit 2
  // the blocked time is [41, 50.010): 9.010 us. Stream 8: 43:1, 100:0; mean 0.5, 57 us at 1.
  auto r = Run({"queue", "testdata/gpu/idle_breakdown.json", "--format", "json", "--model", "hta",
                "--queue-limit", "2"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  auto doc = Json(parser, r.out);
  CHECK(std::string_view(doc["stream_model"]) == "hta");
  CHECK(int64_t(doc["blocked_at"]) == 2);
  auto s7 = doc["streams"].at(0), s8 = doc["streams"].at(1);
  CHECK(int64_t(s7["max"]) == 3);
  CHECK(double(s7["mean"]) == Approx(1.25));
  CHECK(double(s7["time_at_max_us"]) == 3);
  CHECK(double(s7["blocked_us"]) == Approx(9.01));
  CHECK(simdjson::dom::array(s7["series"]).size() == 8);
  CHECK(double(s8["mean"]) == Approx(0.5));
  CHECK(double(s8["time_at_max_us"]) == 57);
  auto text = Run({"queue", "testdata/gpu/idle_breakdown.json", "--model", "hta"});
  CHECK(text.out.find("HTA: operations launched and not started") != std::string::npos);
  CHECK(Run({"queue", "testdata/gpu/idle_breakdown.json", "--model", "nsys"}).code == 2);
  CHECK(Run({"queue", "testdata/gpu/idle_breakdown.json", "--queue-limit", "0"}).code == 2);
}

TEST_CASE("nvprof: markers, kernels through their launch, and counted damage", "[nvprof]") {
  // Markers linear [1,9) ms > addmm [2,8) ms on thread 7; cudaLaunchKernel at 3 ms launches
  // gemm_tile (1 ms), cudaMemcpy at 4 ms is correlated with copy_kernel (0.25 ms); both belong to
  // addmm. linear: total 8 ms, self 2 ms, CUDA total 1.25 ms; addmm: self CUDA 1.25 ms.
  std::string db = BuildDatabase("small");
  auto r = Run({"table", db, "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  auto doc = Json(parser, r.out);
  simdjson::dom::array rows = doc["rows"];
  REQUIRE(rows.size() == 2);  // legacy style: only the markers are rows
  CHECK(std::string_view(rows.at(0)["name"]) == "aten::linear, seq = 1");
  CHECK(double(rows.at(0)["cpu_time_total_us"]) == 8000);
  CHECK(double(rows.at(0)["self_cpu_time_total_us"]) == 2000);
  CHECK(double(rows.at(0)["cuda_time_total_us"]) == 1250);
  CHECK(double(rows.at(1)["self_cuda_time_total_us"]) == 1250);
  CHECK(double(doc["self_cuda_time_total_us"]) == 1250);
  // Kernel names are demangled through the StringTable.
  auto tree = Run({"tree", db, "--full-names"});
  CHECK(tree.out.find("-> void gemm_tile<64>(float const*, float const*, float*, int)  1.000ms on "
                      "device 0 stream 7") != std::string::npos);
  // The damage is counted, with table and row.
  auto info = Run({"info", db, "--format", "json"});
  simdjson::dom::parser p2;
  auto d = Json(p2, info.out)["diagnostics"];
  CHECK(int64_t(d["unmatched_begin"]) == 1);
  CHECK(int64_t(d["kernel_without_launch"]) == 1);
  CHECK(int64_t(d["unknown_launch_callback"]) == 1);
  CHECK(r.err.find("row 5: marker \"lost marker\" never ends") != std::string::npos);
  CHECK(Run({"table", db, "--strict"}).code == 2);
  std::remove(db.c_str());
}

TEST_CASE("nvprof: not an nvprof database, and a corrupt page", "[nvprof]") {
  std::string other = BuildDatabase("not_nvprof");
  auto r = Run({"table", other});
  CHECK(r.code == 2);
  CHECK(r.err == "profana: error: " + other +
                     ": SQLite database, but not an nvprof profile: missing tables StringTable, "
                     "CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "
                     "CUPTI_ACTIVITY_KIND_MARKER\n");
  std::remove(other.c_str());
  // Scribble over every page after the schema page: the read fails with the table and row.
  std::string db = BuildDatabase("small");
  std::string bytes = profana::test::ReadFile(db);
  REQUIRE(bytes.size() > 8192);
  for (size_t i = 4096 + 8; i < bytes.size(); i += 7) bytes[i] = static_cast<char>(0xA5);
  std::ofstream(db, std::ios::binary | std::ios::trunc) << bytes;
  auto corrupt = Run({"table", db});
  CHECK(corrupt.code == 2);
  CHECK(corrupt.err.find("profana: error: " + db + ": table ") == 0);
  CHECK(corrupt.err.find("malformed") != std::string::npos);
  std::remove(db.c_str());
  // The real Nsight Systems export without CUDA or NVTX tables is named for what it is.
  auto nsys = Run({"table", "testdata/traces/nsys/dynamicvit/nsys_profile.sqlite"});
  CHECK(nsys.code == 2);
  CHECK(nsys.err.find("an Nsight Systems export with no CUDA or NVTX data: missing tables "
                      "CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME and NVTX_EVENTS") !=
        std::string::npos);
}

TEST_CASE("the real nvprof databases import", "[nvprof]") {
  auto lm = Run({"info", "testdata/traces/nvprof/profiling-lm/net.sql", "--format", "json"});
  REQUIRE(lm.code == 0);
  simdjson::dom::parser parser;
  auto doc = Json(parser, lm.out);
  CHECK(int64_t(doc["function_events"]) == 683);  // 683 marker ranges
  CHECK(int64_t(doc["device_activities_linked"]) == 189);
  CHECK(int64_t(doc["device_activities_unlinked"]) == 0);
  auto nccl = Run({"table", "testdata/traces/nvprof/blinkplus-nccl/output.nvvp", "--format", "json",
                   "--row-limit", "-1"});
  CHECK(nccl.code == 0);  // no markers: the calls and kernels themselves are the rows
  simdjson::dom::parser p2;
  CHECK(simdjson::dom::array(Json(p2, nccl.out)["rows"]).size() > 10);
  auto empty = Run({"table", "testdata/traces/nvprof/profiling-lm-empty/net.sql"});
  CHECK(empty.code == 0);
  CHECK(empty.out.empty());
}

TEST_CASE("every command reads nvprof input, and the database file is never touched", "[nvprof]") {
  std::string db = BuildDatabase("small");
  std::string before = profana::test::ReadFile(db);
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"table"},
                                             {"table", "--raw"},
                                             {"stacks", "--stacks", "ops"},
                                             {"stacks", "--metric", "self_cuda"},
                                             {"tree"},
                                             {"info"},
                                             {"optimizable"},
                                             {"queue"},
                                             {"idle"}}) {
    args.insert(args.begin() + 1, db);
    auto r = Run(args);
    INFO(args[0]);
    CHECK(r.code == 0);
    CHECK_FALSE(r.out.empty());
  }
  // Read from memory: no journal, no lock file, not a byte changed.
  CHECK_FALSE(profana::test::FileExists(db + "-journal"));
  CHECK_FALSE(profana::test::FileExists(db + "-wal"));
  CHECK(profana::test::ReadFile(db) == before);
  std::remove(db.c_str());
}

TEST_CASE(
    "the real nvprof database converts to a Chrome trace and a native file with the same table",
    "[nvprof]") {
  std::string src = "testdata/traces/nvprof/profiling-lm/net.sql";
  std::string json = "/tmp/profana_test_nvprof_" + std::to_string(::getpid()) + ".json";
  std::string pfa = "/tmp/profana_test_nvprof_" + std::to_string(::getpid()) + ".pfa";
  REQUIRE(Run({"convert", src, "-o", json}).code == 0);
  REQUIRE(Run({"convert", src, "-o", pfa}).code == 0);
  // The written JSON passes a strict parser (simdjson's DOM parser validates the whole document).
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  CHECK(parser.load(json).get(doc) == simdjson::SUCCESS);
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"table", "--sort", "self_cuda"}, {"optimizable", "--top", "3"}, {"tree"}}) {
    INFO(args[0]);
    std::vector<std::string> a = args, b = args, c = args;
    a.insert(a.begin() + 1, src);
    b.insert(b.begin() + 1, json);
    c.insert(c.begin() + 1, pfa);
    auto original = Run(a);
    REQUIRE(original.code == 0);
    CHECK(Run(b).out == original.out);
    CHECK(Run(c).out == original.out);
  }
  std::remove(json.c_str());
  std::remove(pfa.c_str());
}

TEST_CASE("idle time with many devices and streams walks each device's own streams", "[gpu]") {
  // 300 devices (pid 1000 + d, no "device" arg, so the pid names the device), each with two
  // streams: stream 7's kernel [20 + d, 30 + d) listed before stream 8's [d, 10 + d) (us). Each
  // device: window 30, busy 20, one 10 us gap of kind "other" (no launches); each stream is busy
  // its 10 us with no gap. The tracks come device by device: the whole device, then its streams
  // in the order the trace first names them (stream 7, stream 8).
  constexpr int kDevices = 300;
  std::string json = "{\"traceEvents\": [\n";
  for (int d = 0; d < kDevices; ++d) {
    for (int tid : {7, 8}) {
      int start = d + (tid == 7 ? 20 : 0);
      json += fmt::format(
          "{}{{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k{}_{}\", \"pid\": {}, \"tid\": {}, "
          "\"ts\": {}, \"dur\": 10}}",
          d == 0 && tid == 7 ? "" : ",\n", d, tid, 1000 + d, tid, start);
    }
  }
  json += "\n]}\n";
  std::string path = "/tmp/profana_test_streams_" + std::to_string(::getpid()) + ".json";
  std::ofstream(path) << json;
  auto r = Run({"idle", path, "--format", "json"});
  std::remove(path.c_str());
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  auto doc = Json(parser, r.out);
  simdjson::dom::array tracks = doc["tracks"];
  REQUIRE(tracks.size() == 3 * kDevices);
  for (int d = 0; d < kDevices; ++d) {
    auto all = tracks.at(3 * d), s7 = tracks.at(3 * d + 1), s8 = tracks.at(3 * d + 2);
    INFO("device " << 1000 + d);
    CHECK(int64_t(all["device"]) == 1000 + d);
    CHECK(std::string_view(all["stream"]) == "all");
    CHECK(double(all["window_us"]) == 30);
    CHECK(double(all["busy_us"]) == 20);
    CHECK(double(all["other_us"]) == 10);
    CHECK(int64_t(s7["device"]) == 1000 + d);
    CHECK(std::string_view(s7["stream"]) == "stream 7");
    CHECK(int64_t(s8["device"]) == 1000 + d);
    CHECK(std::string_view(s8["stream"]) == "stream 8");
    CHECK(double(s7["busy_us"]) == 10);
    CHECK(double(s8["idle_us"]) == 0);
  }
}
