// `idle` and `queue --model hta` give Holistic Trace Analysis' numbers on one of HTA's own test
// traces. The expected values were worked out by scripts/hta_rules.py (HTA's rules from
// hta/common/trace.py, hta/analyzers/breakdown_analysis.py and trace_counters.py, rendered
// with the standard library) and are written here with the rule that gives each.
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;

namespace {

// testdata/traces/hta/trace_filter/sampled_rank-0.json.gz: rank 0 of a 128-rank job, whole
// microsecond timestamps, ProfilerStep#551 and #552, every kernel, memcpy and memset launched
// by a cudaLaunchKernel / cudaMemcpyAsync / cudaMemsetAsync in the trace, no two changes of a
// stream's queue at one instant (so HTA's unstable sort cannot change its numbers).
constexpr const char* kHtaTrace = "testdata/traces/hta/trace_filter/sampled_rank-0.json.gz";

simdjson::dom::element Stream(simdjson::dom::array tracks, std::string_view name) {
  for (simdjson::dom::element t : tracks)
    if (std::string_view(t["stream"]) == name) return t;
  FAIL("no track " << name);
  return {};
}

}  // namespace

TEST_CASE("idle per stream agrees with HTA's get_idle_time_breakdown", "[gpu][hta]") {
  // HTA drops the last step (#552) when a trace has two or more: host events starting at or
  // after its start, and the device activity they launched. No host event starts before #551,
  // so `--steps 551` is the same window. HTA then, per stream, in start order: gap = start -
  // previous end; host wait when the launch call started after the previous end, else kernel
  // wait when the gap is under 30 (us), else other. scripts/hta_rules.py TRACE gives:
  //   stream 7: 526 activities, host wait 213825, kernel wait 1985, other 261740
  //   stream 23: 63, host wait 596037, kernel wait 70, other 34
  //   stream 25: 8, host wait 0, kernel wait 9, other 47865
  //   stream 84: 4, host wait 148934, kernel wait 6, other 0
  auto r = Run({"idle", kHtaTrace, "--steps", "551", "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(r.out);
  simdjson::dom::array tracks = doc["tracks"];
  struct Want {
    const char* stream;
    int64_t activities;
    double host, kernel, other;
  };
  for (const Want& w :
       {Want{"stream 7", 526, 213825, 1985, 261740}, Want{"stream 23", 63, 596037, 70, 34},
        Want{"stream 25", 8, 0, 9, 47865}, Want{"stream 84", 4, 148934, 6, 0}}) {
    INFO(w.stream);
    simdjson::dom::element t = Stream(tracks, w.stream);
    CHECK(int64_t(t["activities"]) == w.activities);
    CHECK(double(t["host_wait_us"]) == w.host);
    CHECK(double(t["kernel_wait_us"]) == w.kernel);
    CHECK(double(t["other_us"]) == w.other);
  }
  // With the last step (HTA's include_last_profiler_step=True): stream 7 has 1052 activities,
  // host wait 397917, kernel wait 3765, other 598335.
  auto all = Run({"idle", kHtaTrace, "--format", "json"});
  simdjson::dom::parser p2;
  simdjson::dom::element s7 = Stream(p2.parse(all.out)["tracks"], "stream 7");
  CHECK(int64_t(s7["activities"]) == 1052);
  CHECK(double(s7["host_wait_us"]) == 397917);
  CHECK(double(s7["kernel_wait_us"]) == 3765);
  CHECK(double(s7["other_us"]) == 598335);
}

TEST_CASE("idle and queue agree with HTA on a V100 training trace of five steps", "[gpu][hta]") {
  // testdata/traces/hta/df_index_resolver: device 1, streams 7 and 14, ProfilerStep#2 to #6.
  // scripts/hta_rules.py (HTA's window: #6 dropped, the same as --steps 2-5):
  //   stream 7: 16216 activities, host wait 791330, kernel wait 16727, other 73829
  //   stream 14: 1616, host wait 933139, kernel wait 5568, other 4444
  // and with --include-last-step (the whole trace) stream 7: 20270, 876151, 21032, 192512.
  const char* trace = "testdata/traces/hta/df_index_resolver/df_index_resolver.json.gz";
  auto r = Run({"idle", trace, "--steps", "2-5", "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::array tracks = parser.parse(r.out)["tracks"];
  simdjson::dom::element s7 = Stream(tracks, "stream 7"), s14 = Stream(tracks, "stream 14");
  CHECK(int64_t(s7["activities"]) == 16216);
  CHECK(double(s7["host_wait_us"]) == 791330);
  CHECK(double(s7["kernel_wait_us"]) == 16727);
  CHECK(double(s7["other_us"]) == 73829);
  CHECK(int64_t(s14["activities"]) == 1616);
  CHECK(double(s14["host_wait_us"]) == 933139);
  CHECK(double(s14["kernel_wait_us"]) == 5568);
  CHECK(double(s14["other_us"]) == 4444);
  auto all = Run({"idle", trace, "--format", "json"});
  simdjson::dom::parser p2;
  simdjson::dom::element w7 = Stream(p2.parse(all.out)["tracks"], "stream 7");
  CHECK(int64_t(w7["activities"]) == 20270);
  CHECK(double(w7["host_wait_us"]) == 876151);
  CHECK(double(w7["kernel_wait_us"]) == 21032);
  CHECK(double(w7["other_us"]) == 192512);
  // Its queue (HTA's window), stream 7: 32432 points, max 73, mean 8.101258. At 231 instants a
  // launch and a kernel start coincide; there HTA's unstable sort may take either first, which
  // moves its mean by at most 2 * 231 / 32432 = 0.014 and its max by 1. profana and the script
  // take the launch first (HTA's concatenation order).
  auto q = Run({"queue", trace, "--model", "hta", "--steps", "2-5", "--format", "json"});
  simdjson::dom::parser p3;
  simdjson::dom::element q7 = Stream(p3.parse(q.out)["streams"], "stream 7");
  CHECK(simdjson::dom::array(q7["series"]).size() == 32432);
  CHECK(int64_t(q7["max"]) == 73);
  CHECK(double(q7["mean"]) == Approx(8.101258).epsilon(1e-6));
}

TEST_CASE("queue --model hta agrees with HTA's get_queue_length_summary", "[gpu][hta]") {
  // HTA, per stream: +1 at the start of each listed launch call, -1 at the start of its
  // activity; one point per change; the summary's count, mean (plain, over the points) and
  // max. In the same window as above, scripts/hta_rules.py TRACE gives:
  //   stream 7: 1052 points, max 76, mean 23.619772
  //   stream 23: 126 points, max 4, mean 0.595238 (75 / 126)
  //   stream 25: 16 points, max 8, mean 4 (64 / 16)
  //   stream 84: 8 points, max 1, mean 0.5
  // and with the whole trace, stream 7: 2104 points, max 80, mean 25.458175.
  auto r = Run({"queue", kHtaTrace, "--model", "hta", "--steps", "551", "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::array streams = parser.parse(r.out)["streams"];
  struct Want {
    const char* stream;
    size_t points;
    int64_t max;
    double mean;
  };
  for (const Want& w :
       {Want{"stream 7", 1052, 76, 23.619772}, Want{"stream 23", 126, 4, 75.0 / 126},
        Want{"stream 25", 16, 8, 4.0}, Want{"stream 84", 8, 1, 0.5}}) {
    INFO(w.stream);
    simdjson::dom::element q = Stream(streams, w.stream);
    CHECK(simdjson::dom::array(q["series"]).size() == w.points);
    CHECK(int64_t(q["max"]) == w.max);
    CHECK(double(q["mean"]) == Approx(w.mean).epsilon(1e-6));
    CHECK(double(q["blocked_us"]) == 0);  // never 1024 outstanding
  }
  // HTA's get_time_spent_blocked_on_full_queue with max_queue_length 50 (its tests use small
  // limits): the time from each point at 50 or more to the next, stream 7: 16855 us; with 4,
  // stream 23: 154 us and stream 25: 61746 us.
  auto at50 = Run({"queue", kHtaTrace, "--model", "hta", "--steps", "551", "--queue-limit", "50",
                   "--format", "json"});
  simdjson::dom::parser p50;
  CHECK(double(Stream(p50.parse(at50.out)["streams"], "stream 7")["blocked_us"]) == 16855);
  auto at4 = Run({"queue", kHtaTrace, "--model", "hta", "--steps", "551", "--queue-limit", "4",
                  "--format", "json"});
  simdjson::dom::parser p4;
  simdjson::dom::array s4 = p4.parse(at4.out)["streams"];
  CHECK(double(Stream(s4, "stream 23")["blocked_us"]) == 154);
  CHECK(double(Stream(s4, "stream 25")["blocked_us"]) == 61746);
  auto all = Run({"queue", kHtaTrace, "--model", "hta", "--format", "json"});
  simdjson::dom::parser p2;
  simdjson::dom::element s7 = Stream(p2.parse(all.out)["streams"], "stream 7");
  CHECK(simdjson::dom::array(s7["series"]).size() == 2104);
  CHECK(int64_t(s7["max"]) == 80);
  CHECK(double(s7["mean"]) == Approx(25.458175).epsilon(1e-6));
}
