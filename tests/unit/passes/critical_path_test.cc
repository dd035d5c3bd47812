// The critical path agrees with Holistic Trace Analysis' on HTA's own test traces (the counts,
// nodes and edge weights its tests/test_critical_path_analysis.py checks, and the events and
// edges its end-to-end overlay marks), what-if predictions match hand-worked traces, and on
// every real trace the path is never longer than its window's span nor shorter than the busiest
// stream's busy time.
#include "profana/passes/critical_path/critical_path.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "built_events.h"
#include "fixtures.h"
#include "profana/base/input_buffer.h"
#include "profana/base/sanitizers.h"
#include "profana/importers/chrome_json/source_scan.h"
#include "profana/importers/importer.h"
#include "profana/job/critical_path_waits.h"
#include "profana/reporters/critical_path_overlay.h"
#include "simdjson.h"
#include "test_util.h"

using namespace profana;
using passes::CpEdge;
using passes::CpEdgeType;
using passes::CpRequest;

namespace {

struct Loaded {
  Trace trace;
  InputBuffer bytes;
  SourceEvents source;
};

Loaded LoadPath(const std::string& relative) {
  std::string path = test::TestData(relative);
  auto t = LoadTrace(path);
  REQUIRE(t.ok());
  auto b = ReadInput(path);
  REQUIRE(b.ok());
  auto s = json::ScanSourceEvents(*b, t->trace);
  REQUIRE(s.ok());
  return {std::move(t->trace), std::move(*b), std::move(*s)};
}

passes::CriticalPathResult Solve(const Loaded& l, CpRequest r) {
  auto res = passes::ComputeCriticalPaths(l.trace, &l.source, r);
  REQUIRE(res.ok());
  REQUIRE(res->windows.size() == 1);
  return std::move(*res);
}

CpRequest Annotation(std::string name, int64_t instance) {
  CpRequest r;
  r.select = CpRequest::Select::kAnnotation;
  r.annotation = std::move(name);
  r.instance = instance;
  return r;
}

// HTA's event index is the position in the file's traceEvents.
EventId At(const Loaded& l, size_t element) {
  REQUIRE(element < l.source.elements.size());
  EventId e = l.source.elements[element].event;
  REQUIRE(e.valid());
  return e;
}

std::string NameOf(const Loaded& l, EventId e) {
  return std::string(l.trace.str(l.trace.events.trace_name[e.value]));
}

const CpEdge* EdgeBetween(const passes::CpGraph& g, passes::CpNodeId from, passes::CpNodeId to) {
  REQUIRE(from.valid());
  REQUIRE(to.valid());
  for (passes::CpEdgeId id : g.out[from.value])
    if (g.edges[id.value].to == to) return &g.edges[id.value];
  return nullptr;
}

// An overlay's marks: the places in traceEvents of the X events with a "critical" arg, and each
// critical_path flow pair as its type, weight and both ends' pid, tid and time (as written).
struct OverlayMarks {
  std::set<size_t> events;
  std::set<std::string> flows;
};

OverlayMarks ReadOverlayMarks(std::string_view text) {
  simdjson::dom::parser parser;
  simdjson::dom::array events;
  REQUIRE(parser.parse(simdjson::padded_string(text))["traceEvents"].get(events) ==
          simdjson::SUCCESS);
  OverlayMarks out;
  std::map<std::string, std::string> starts;  // flow id -> its start
  size_t k = 0;
  for (simdjson::dom::element e : events) {
    std::string_view ph, cat;
    simdjson::dom::element args, critical;
    bool has_args = !e["args"].get(args);
    if (!e["ph"].get(ph) && ph == "X" && has_args && !args["critical"].get(critical))
      out.events.insert(k);
    ++k;
    if (e["cat"].get(cat) || cat != "critical_path" || !has_args) continue;
    std::string end = simdjson::minify(e["pid"]) + "/" + simdjson::minify(e["tid"]) + "@" +
                      simdjson::minify(e["ts"]);
    std::string id = simdjson::minify(e["id"]);
    if (ph == "s") {
      starts[id] = end;
    } else {
      REQUIRE(starts.count(id));
      out.flows.insert(simdjson::minify(args["type"]) + " " + simdjson::minify(args["weight"]) +
                       " " + starts[id] + " -> " + end);
    }
  }
  return out;
}

constexpr const char* kAlexForward = "[param|pytorch.model.alex_net|0|0|0|measure|forward]";

}  // namespace

TEST_CASE("critical path of HTA's simple_add test: nodes, edges and weights", "[critical_path]") {
  Loaded l = LoadPath(
      "traces/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
  // HTA's test sets CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1.
  CpRequest r = Annotation(kAlexForward, 1);
  r.causal_launch_edges = true;
  auto res = Solve(l, r);
  const auto& w = res.windows[0];
  const auto& g = w.graph;
  // HTA: 315 nodes on the path, 314 critical edges, 159 critical events.
  CHECK(w.path.nodes.size() == 315);
  CHECK(w.path.edges.size() == 314);
  CHECK(w.critical_events == 159);

  // aten::relu_ > aten::clamp_min_ > cudaLaunchKernel, and the spans between them.
  EventId relu = At(l, 286), clamp = At(l, 287), launch = At(l, 1005);
  CHECK(NameOf(l, relu) == "aten::relu_");
  CHECK(NameOf(l, clamp) == "aten::clamp_min_");
  CHECK(NameOf(l, launch) == "cudaLaunchKernel");
  auto check = [&](passes::CpNodeId a, passes::CpNodeId b, int64_t us, EventId attributed) {
    const CpEdge* e = EdgeBetween(g, a, b);
    REQUIRE(e != nullptr);
    CHECK(e->type == CpEdgeType::kOperator);
    CHECK(e->weight_ns == us * 1000);
    CHECK(e->attributed == attributed);
  };
  check(g.StartOf(relu), g.StartOf(clamp), 15, relu);
  check(g.StartOf(clamp), g.StartOf(launch), 14, clamp);
  check(g.StartOf(launch), g.EndOf(launch), 17, launch);
  check(g.EndOf(launch), g.EndOf(clamp), 15, clamp);
  check(g.EndOf(clamp), g.EndOf(relu), 32, relu);

  // The fft kernel's launch delay (27 us), then 7 us to the next kernel on stream 20, which also
  // has its zero-weight causal launch edge.
  EventId fft = At(l, 1051), gemm = At(l, 1067);
  CHECK(NameOf(l, fft).rfind("void fft2d_r2c_32x32<float, false, 0u, false>", 0) == 0);
  LaunchIndex launches(l.trace.events);
  EventId fft_call = *launches.Launch(l.trace.events.correlation[fft.value]);
  EventId gemm_call = *launches.Launch(l.trace.events.correlation[gemm.value]);
  const CpEdge* delay = EdgeBetween(g, g.StartOf(fft_call), g.StartOf(fft));
  REQUIRE(delay != nullptr);
  CHECK(delay->type == CpEdgeType::kLaunchDelay);
  CHECK(delay->weight_ns == 27000);
  const CpEdge* kk = EdgeBetween(g, g.EndOf(fft), g.StartOf(gemm));
  REQUIRE(kk != nullptr);
  CHECK(kk->type == CpEdgeType::kKernelKernel);
  CHECK(kk->weight_ns == 7000);
  const CpEdge* causal = EdgeBetween(g, g.StartOf(gemm_call), g.StartOf(gemm));
  REQUIRE(causal != nullptr);
  CHECK(causal->type == CpEdgeType::kLaunchDelay);
  CHECK(causal->weight_ns == 0);

  // cudaDeviceSynchronize waits on the epilogue kernel.
  const CpEdge* sync = EdgeBetween(g, g.EndOf(At(l, 1275)), g.EndOf(At(l, 1281)));
  REQUIRE(sync != nullptr);
  CHECK(sync->type == CpEdgeType::kSync);
  CHECK(sync->weight_ns == 0);

  // Every operator and kernel-kernel edge is attributed to an event; no other edge is.
  for (const CpEdge& e : g.edges) {
    bool attributable = e.type == CpEdgeType::kOperator || e.type == CpEdgeType::kKernelKernel;
    CHECK(e.attributed.valid() == attributable);
  }
}

TEST_CASE("critical path of HTA's alexnet test: the GPU-to-GPU sync edge", "[critical_path]") {
  Loaded l = LoadPath(
      "traces/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz");
  CpRequest r = Annotation(kAlexForward, 1);
  r.causal_launch_edges = true;
  auto res = Solve(l, r);
  const auto& g = res.windows[0].graph;
  CHECK(res.windows[0].path.nodes.size() == 149);
  EventId fft = At(l, 1109), elementwise = At(l, 1161);
  CHECK(NameOf(l, fft).rfind("void fft2d_c2r_32x32<float, false, false, 0u, false, false>", 0) ==
        0);
  const CpEdge* e = EdgeBetween(g, g.EndOf(fft), g.StartOf(elementwise));
  REQUIRE(e != nullptr);
  CHECK(e->type == CpEdgeType::kSync);
  CHECK(e->weight_ns == 0);
}

TEST_CASE("critical path: cudaEventSynchronize and cudaDeviceSynchronize wait on the kernel",
          "[critical_path]") {
  Loaded l = LoadPath("traces/hta/critical_path/cuda_event_sync/event_sync_trace.json.gz");
  auto res = Solve(l, Annotation("ProfilerStep", 0));
  const auto& g = res.windows[0].graph;
  EventId spin = At(l, 33);
  CHECK(NameOf(l, spin) == "at::cuda::(anonymous namespace)::spin_kernel(long)");
  CHECK(NameOf(l, At(l, 41)) == "cudaEventSynchronize");
  CHECK(NameOf(l, At(l, 51)) == "cudaDeviceSynchronize");
  for (size_t call : {41, 51}) {
    const CpEdge* e = EdgeBetween(g, g.EndOf(spin), g.EndOf(At(l, call)));
    REQUIRE(e != nullptr);
    CHECK(e->type == CpEdgeType::kSync);
  }
}

TEST_CASE("critical path: cudaEventRecord syncs back to the last kernel of its own stream",
          "[critical_path]") {
  Loaded l =
      LoadPath("traces/hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz");
  auto res = Solve(l, Annotation("", 0));
  const auto& g = res.windows[0].graph;
  // cudaEventRecord (correlation 1385) records on stream 20, whose last kernel before it is
  // correlation 27 (ampere_sgemm_128x64_nn), not the later one on stream 28; the Memset on
  // stream 24 after cudaStreamWaitEvent waits on it.
  EventId kernel1 = At(l, 24), memset = At(l, 84);
  CHECK(NameOf(l, kernel1) == "ampere_sgemm_128x64_nn");
  CHECK(l.trace.events.correlation[kernel1.value] == 27);
  CHECK(NameOf(l, memset) == "Memset (Device)");
  const CpEdge* e = EdgeBetween(g, g.EndOf(kernel1), g.StartOf(memset));
  REQUIRE(e != nullptr);
  CHECK(e->type == CpEdgeType::kSync);
}

TEST_CASE("critical path overlay against HTA's end-to-end overlay", "[critical_path]") {
  Loaded l = LoadPath(
      "traces/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz");
  // HTA's defaults: no zero-weight launch edges.
  CpRequest r = Annotation("", 0);
  r.data_load = "data_load";
  auto res = Solve(l, r);
  report::OverlayCounts counts;
  std::string overlay = report::WriteCriticalPathOverlay(l.bytes.view(), l.source, l.trace,
                                                         res.windows, false, &counts);
  // HTA's expected file: the events with a "critical" arg are 624 X events and both ends of 192
  // drawn edges (1,008). Its events are the input's in the same order, then the flows, so both
  // files compare element by element: the X events marked and the flow pairs drawn (type, weight
  // and both ends' place and time).
  auto expected = ReadInput(test::TestData("hta_expected/overlaid_critical_path_trace.json.gz"));
  REQUIRE(expected.ok());
  OverlayMarks theirs = ReadOverlayMarks(expected->view());
  OverlayMarks ours = ReadOverlayMarks(overlay);
  CHECK(theirs.events.size() == 624);
  CHECK(theirs.flows.size() == 192);
  CHECK(counts.marked_events == 624);
  CHECK(counts.flow_pairs == 192);
  // HTA's end-to-end test accepts a count of marked elements within 1 %; the sets themselves
  // agree: a kernel that starts more than 1.5 ms after the one before it on its stream gets no
  // kernel-kernel delay (HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US), so the path stays on the host
  // through the 12 ms cudaMalloc inside aten::addmm while the GPU is idle, as HTA's does.
  CHECK(ours.events == theirs.events);
  CHECK(ours.flows == theirs.flows);
  // What profana writes, profana reads back: the overlay is a trace with the same events and the
  // flows added.
  auto again = InputFromBytes(overlay, "overlay");
  REQUIRE(again.ok());
  auto back = LoadTraceFromBuffer(*again);
  REQUIRE(back.ok());
  CHECK(back->trace.events.size() == l.trace.events.size());
  CHECK(back->trace.diagnostics.CountAtLeast(Severity::kError) == 0);
  CHECK(back->trace.flows.size() == l.trace.flows.size() + 2 * 192);
}

TEST_CASE("what-if: a hand-worked trace's step time when a kernel halves or a sync goes",
          "[critical_path]") {
  // One thread: op A [0, 100) launches kernel K1 (launch call [10, 20), kernel [30, 90) on
  // stream 7), then calls cudaStreamSynchronize [20, 95) that waits for K1; op B [100, 130)
  // launches K2 (call [105, 115), kernel [120, 200)). Times in us.
  TraceBuilder b;
  ThreadId cpu = b.Thread(1, 1), gpu = b.Thread(0, 7);
  auto us = [](int64_t v) { return v * 1000; };
  using test::Add;
  Add(&b, cpu, "ProfilerStep#1", ActivityKind::kUserAnnotation, 0, us(200));
  Add(&b, cpu, "A", ActivityKind::kCpuOp, 0, us(100));
  Add(&b, cpu, "cudaLaunchKernel", ActivityKind::kRuntime, us(10), us(20), 1);
  Add(&b, cpu, "cudaStreamSynchronize", ActivityKind::kRuntime, us(20), us(95), 2);
  Add(&b, gpu, "K1", ActivityKind::kKernel, us(30), us(90), 1);
  Add(&b, cpu, "B", ActivityKind::kCpuOp, us(100), us(130));
  Add(&b, cpu, "cudaLaunchKernel", ActivityKind::kRuntime, us(105), us(115), 3);
  Add(&b, gpu, "K2", ActivityKind::kKernel, us(120), us(200), 3);
  TraceBuilder::Event sync;
  sync.trace_name = b.Intern("Stream Sync");
  sync.category = b.Intern("cuda_sync");
  sync.kind = ActivityKind::kDeviceOther;
  sync.thread = gpu;
  sync.start_ns = us(90);
  sync.end_ns = us(95);
  sync.correlation = 2;
  b.AddEvent(sync);
  Trace t = std::move(b).Finish();

  CpRequest r;  // the step
  for (const char* rule : {"kernel:^K1$=0.5", "sync:Synchronize=0", "kernel:K2=0.25"}) {
    auto w = passes::ParseWhatIf(rule);
    REQUIRE(w.ok());
    r.what_if.push_back(*w);
  }
  auto res = passes::ComputeCriticalPaths(t, nullptr, r);
  REQUIRE(res.ok());
  REQUIRE(res->windows.size() == 1);
  const auto& w = res->windows[0];
  // The path: A's start, the launch [10 us], its delay to K1 [20], K1 [60], the sync's end (it
  // waited; its own span weighs 0), A's end [5], B's start, the launch [5], the delay to K2 [15],
  // K2 [80]: 195 us.
  CHECK(w.length_ns == us(195));
  CHECK(w.bound_ns[static_cast<int>(passes::CpBound::kKernel)] == us(140));
  CHECK(w.bound_ns[static_cast<int>(passes::CpBound::kLaunchDelay)] == us(35));
  CHECK(w.bound_ns[static_cast<int>(passes::CpBound::kCpu)] == us(20));
  REQUIRE(w.what_if.size() == 3);
  // K1 at half (30 us): 195 - 30 = 165.
  CHECK(w.what_if[0].length_ns == us(165));
  // No host wait for K1: the host goes from the sync's start (20) to its end with weight 0 and
  // on to B's launch at 45 (10 + 10 + 0 + 5 + 5 + 15); but K2 runs after K1 on stream 7, which
  // ends at 60, so K2 runs 60 to 140. The sync and B leave the path; K1 stays.
  CHECK(w.what_if[1].length_ns == us(140));
  std::set<std::string> left;
  for (EventId e : w.what_if[1].left_path)
    left.insert(std::string(t.str(t.events.trace_name[e.value])));
  CHECK(left == std::set<std::string>{"cudaStreamSynchronize", "B", "cudaLaunchKernel"});
  // K2 at a quarter (20 us) too: 60 + 20 = 80 us.
  CHECK(w.what_if[2].length_ns == us(80));
}

TEST_CASE("what-if rules are parsed or refused with the reason", "[critical_path]") {
  auto ok = passes::ParseWhatIf("op:aten::(add|mul)=0.5");
  REQUIRE(ok.ok());
  CHECK(ok->target == passes::CpWhatIf::Target::kOp);
  CHECK(ok->pattern == "aten::(add|mul)");
  CHECK(ok->factor == 0.5);
  CHECK(!passes::ParseWhatIf("gpu:x=1").ok());
  CHECK(passes::ParseWhatIf("kernel:x")
            .status()
            .message()
            .rfind("\"kernel:x\": no KIND: or =FACTOR (expected KIND:REGEX=FACTOR", 0) == 0);
  CHECK(!passes::ParseWhatIf("kernel:x=-1").ok());
  CHECK(!passes::ParseWhatIf("kernel:x=abc").ok());
}

TEST_CASE(
    "the critical path lies between the busiest stream's busy time and the window's span on "
    "every real trace",
    "[critical_path][traces]") {
  int64_t traces = 0, refused = 0, windows = 0, skipped = 0;
  for (const std::string& file : test::RealTraceFiles()) {
    INFO(file);
    // Under AddressSanitizer the traces over 2 MiB on disk took most of a minute of CI and run no
    // graph code the smaller ones do not.
    if (kAddressSanitizer && std::filesystem::file_size(file) > (uintmax_t{2} << 20)) {
      ++skipped;
      continue;
    }
    auto loaded = LoadTrace(file);
    if (!loaded.ok()) {
      // nsys/dynamicvit holds OS-runtime data only: every command refuses it, by design.
      CHECK(loaded.status().message().find("no CUDA or NVTX data") != std::string::npos);
      ++refused;
      continue;
    }
    ++traces;
    auto res = passes::ComputeCriticalPaths(loaded->trace, nullptr, CpRequest{});
    REQUIRE(res.ok());
    for (const auto& w : res->windows) {
      INFO(w.label);
      CHECK(!w.cyclic);
      CHECK(w.length_ns <= w.wall_ns);
      CHECK(w.length_ns >= w.busiest_stream_busy_ns);
      ++windows;
    }
  }
  // 40 Kineto and rocprofv3 JSON traces, 5 nsys exports, 2 rocpd and 3 nvprof databases, and 17
  // live sessions.
  CHECK(traces + skipped == 67);
  CHECK((kAddressSanitizer || skipped == 0));
  CHECK(traces >= 20);
  CHECK(refused == 1);
  CHECK(windows > traces);
}

TEST_CASE("a job's collective waits on the critical path go to the rank that arrived last",
          "[critical_path]") {
  // PARAM's DLRM job on 8 ranks (testdata/traces/README.md), ProfilerStep#10 of each: rank 7
  // arrives last at the collectives, so its path waits on nobody and the others' communication
  // spans wait mostly on it.
  std::vector<job::RankPathComm> comm;
  std::vector<int64_t> comm_on_path;
  for (const auto& entry :
       std::filesystem::directory_iterator(test::TestData("traces/param/dlrm_kineto"))) {
    auto t = LoadTrace(entry.path().string());
    REQUIRE(t.ok());
    auto res = passes::ComputeCriticalPaths(t->trace, nullptr, CpRequest{});
    REQUIRE(res.ok());
    REQUIRE(res->windows.size() == 1);
    job::RankPathComm c = job::PathCommOf(t->trace, *res);
    c.rank = t->trace.metadata.rank;
    int64_t on_path = 0;
    for (const job::PathCommSpan& s : c.spans) on_path += s.ns;
    comm_on_path.push_back(on_path);
    comm.push_back(std::move(c));
  }
  REQUIRE(comm.size() == 8);
  job::CommWaits waits = job::JobCommWaits(comm, 1);
  REQUIRE(waits.size() == 8);
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> by_rank;
  for (size_t i = 0; i < comm.size(); ++i) {
    by_rank[comm[i].rank] = waits[i][0];
    int64_t waited = 0;
    for (const auto& [whom, ns] : waits[i][0]) {
      CHECK(whom != comm[i].rank);
      waited += ns;
    }
    // A wait is part of the communication time on the path, never more.
    CHECK(waited <= comm_on_path[i]);
  }
  CHECK(by_rank[7].empty());
  using Waits = std::vector<std::pair<int64_t, int64_t>>;
  CHECK(by_rank[0] == Waits{{7, 3'613'000}, {5, 1'085'000}, {4, 883'000}});
  CHECK(by_rank[1] == Waits{{7, 9'150'000}, {5, 1'116'000}, {4, 853'000}});
  CHECK(by_rank[4] == Waits{{7, 6'269'000}, {5, 101'000}});
}
