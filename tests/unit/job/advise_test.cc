// Every advice rule fires on a trace where its condition was planted, with the planted saving
// recovered, and stays silent on the same trace without it; the budget rules on advice; the
// straggler rule on a job.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "built_events.h"
#include "profana/importers/importer.h"
#include "profana/job/advice/advice.h"
#include "profana/job/collective_calls.h"
#include "profana/model/launch_index.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

using namespace profana;
using test::Add;

namespace {

constexpr int64_t kUs = 1000;

// A trace being planted: a main thread and a stream, times in us.
struct Plant {
  TraceBuilder b;
  ThreadId cpu = b.Thread(100, 100);
  ThreadId stream7 = b.Thread(0, 7);
  int64_t corr = 1;

  void Step(int64_t n, int64_t start, int64_t end) {
    Add(&b, cpu, fmt_step(n).c_str(), ActivityKind::kUserAnnotation, start * kUs, end * kUs);
  }
  static std::string fmt_step(int64_t n) { return "ProfilerStep#" + std::to_string(n); }
  void Op(const char* name, int64_t start, int64_t end, ActivityKind kind = ActivityKind::kCpuOp) {
    Add(&b, cpu, name, kind, start * kUs, end * kUs);
  }
  // A call that puts work on a stream: [cs, ce) on the host, [ks, ke) on the device.
  void Launch(const char* call, const char* work, ActivityKind kind, int64_t cs, int64_t ce,
              int64_t ks, int64_t ke, ThreadId stream) {
    Add(&b, cpu, call, ActivityKind::kRuntime, cs * kUs, ce * kUs, corr);
    Add(&b, stream, work, kind, ks * kUs, ke * kUs, corr);
    ++corr;
  }
  void Kernel(const char* name, int64_t cs, int64_t ce, int64_t ks, int64_t ke) {
    Launch("cudaLaunchKernel", name, ActivityKind::kKernel, cs, ce, ks, ke, stream7);
  }
  void Call(const char* name, int64_t start, int64_t end) {
    Add(&b, cpu, name, ActivityKind::kRuntime, start * kUs, end * kUs, corr++);
  }
};

struct Advised {
  std::vector<job::Finding> findings;
  int64_t critical_path_ns = 0;
  const job::Finding* Of(const std::string& rule) const {
    for (const job::Finding& f : findings)
      if (f.rule == rule) return &f;
    return nullptr;
  }
};

Advised Advise(Plant& p) {
  Trace t = std::move(p.b).Finish();
  passes::FunctionEventList events = passes::BuildFunctionEvents(t);
  LaunchIndex launches(t.events);
  job::AdviceContext c = job::MakeAdviceContext(t, events, launches, nullptr, {});
  return {job::AdviseTrace(c, -1), c.critical_path_ns};
}

}  // namespace

TEST_CASE("advice: host-sync recovers the GPU idle a synchronize causes", "[advise]") {
  for (bool planted : {true, false}) {
    Plant p;
    p.Step(1, 0, 1000);
    p.Kernel("gemm", 10, 20, 30, 200);
    // The host waits for the kernel, then launches the next one late: the GPU idles from the
    // sync's end (205) to the next kernel (320): 115 us.
    if (planted) p.Call("cudaStreamSynchronize", 25, 205);
    p.Kernel("relu", 300, 310, 320, 400);
    Advised a = Advise(p);
    const job::Finding* f = a.Of("host-sync");
    if (!planted) {
      CHECK(f == nullptr);
      continue;
    }
    REQUIRE(f != nullptr);
    CHECK(f->count == 1);
    CHECK(f->raw_saving_ns == 115 * kUs);
    CHECK(f->saving_ns == 115 * kUs);
    CHECK(f->steps == std::vector<int64_t>{1});
  }
}

TEST_CASE("advice: sync-memcpy and sync-memset count the synchronous calls' host time",
          "[advise]") {
  for (bool planted : {true, false}) {
    Plant p;
    p.Step(1, 0, 1000);
    p.Kernel("gemm", 10, 20, 30, 900);
    p.Call(planted ? "cudaMemcpy" : "cudaMemcpyAsync", 50, 80);
    p.Call(planted ? "cudaMemset" : "cudaMemsetAsync", 100, 120);
    Advised a = Advise(p);
    const job::Finding* copy = a.Of("sync-memcpy");
    const job::Finding* set = a.Of("sync-memset");
    if (!planted) {
      CHECK(copy == nullptr);
      CHECK(set == nullptr);
      continue;
    }
    REQUIRE(copy != nullptr);
    REQUIRE(set != nullptr);
    CHECK(copy->raw_saving_ns == 30 * kUs);
    CHECK(copy->count == 1);
    CHECK(set->raw_saving_ns == 20 * kUs);
  }
}

TEST_CASE("advice: pageable-memcpy and unoverlapped-copy on copies", "[advise]") {
  for (bool planted : {true, false}) {
    Plant p;
    ThreadId stream8 = p.b.Thread(0, 8);
    p.Step(1, 0, 1000);
    p.Kernel("gemm", 10, 20, 30, 90);
    // Planted: a pageable copy of 80 us on the compute stream. Else a pinned copy on a stream of
    // its own.
    p.Launch("cudaMemcpyAsync",
             planted ? "Memcpy HtoD (Pageable -> Device)" : "Memcpy HtoD (Pinned -> Device)",
             ActivityKind::kMemcpy, 95, 100, 100, 180, planted ? p.stream7 : stream8);
    Advised a = Advise(p);
    const job::Finding* pageable = a.Of("pageable-memcpy");
    const job::Finding* unoverlapped = a.Of("unoverlapped-copy");
    if (!planted) {
      CHECK(pageable == nullptr);
      CHECK(unoverlapped == nullptr);
      continue;
    }
    REQUIRE(pageable != nullptr);
    CHECK(pageable->raw_saving_ns == 40 * kUs);  // half of the copy
    REQUIRE(unoverlapped != nullptr);
    CHECK(unoverlapped->raw_saving_ns == 80 * kUs);
  }
}

TEST_CASE("advice: dataloader counts the steps' wait for data", "[advise]") {
  for (int64_t wait : {200, 10}) {
    Plant p;
    p.Step(1, 0, 1000);
    p.Op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, wait,
         ActivityKind::kUserAnnotation);
    p.Kernel("gemm", 300, 310, 320, 990);
    Advised a = Advise(p);
    const job::Finding* f = a.Of("dataloader");
    if (wait == 10) {  // 1 % of the step: below the 5 % a finding needs
      CHECK(f == nullptr);
      continue;
    }
    REQUIRE(f != nullptr);
    CHECK(f->raw_saving_ns == 200 * kUs);
    CHECK(f->steps == std::vector<int64_t>{1});
  }
}

TEST_CASE("advice: unfused-optimizer counts a per-parameter optimizer's launches", "[advise]") {
  for (bool fused : {false, true}) {
    Plant p;
    p.Step(1, 0, 1000);
    p.Op("Optimizer.step#SGD.step", 300, 800, ActivityKind::kUserAnnotation);
    // 60 launches of 2 us each inside it.
    for (int64_t i = 0; i < 60; ++i)
      p.Kernel(fused ? "void multi_tensor_apply_kernel<...>" : "void vectorized_elementwise_kernel",
               300 + 8 * i, 302 + 8 * i, 303 + 8 * i, 305 + 8 * i);
    Advised a = Advise(p);
    const job::Finding* f = a.Of("unfused-optimizer");
    if (fused) {
      CHECK(f == nullptr);
      continue;
    }
    REQUIRE(f != nullptr);
    CHECK(f->count == 60);
    CHECK(f->raw_saving_ns == 120 * kUs);
  }
}

TEST_CASE("advice: small-kernels recovers the gaps between short kernels", "[advise]") {
  for (int64_t len : {5, 50}) {
    Plant p;
    p.Step(1, 0, 20000);
    // 150 kernels back to back, 2 us apart; their launches well ahead.
    for (int64_t i = 0; i < 150; ++i)
      p.Kernel("k", 1 + i, 2 + i, 200 + (len + 2) * i, 200 + (len + 2) * i + len);
    Advised a = Advise(p);
    const job::Finding* f = a.Of("small-kernels");
    if (len == 50) {
      CHECK(f == nullptr);
      continue;
    }
    REQUIRE(f != nullptr);
    CHECK(f->count == 150);
    CHECK(f->raw_saving_ns == 149 * 2 * kUs);
  }
}

TEST_CASE("advice: launch-bound recovers the GPU's wait for the host", "[advise]") {
  for (int64_t len : {5, 100}) {
    Plant p;
    p.Step(1, 0, 10000);
    // 20 ops of 40 us (or longer), each launching one kernel 25 us after its call starts: the
    // GPU waits 35 us between kernels, with nothing queued.
    int64_t period = len + 35;
    for (int64_t i = 0; i < 20; ++i) {
      int64_t t = i * period;
      p.Op("aten::add", t, t + period);
      p.Kernel("add_kernel", t + 5, t + 25, t + 30, t + 30 + len);
    }
    Advised a = Advise(p);
    const job::Finding* f = a.Of("launch-bound");
    if (len == 100) {  // long kernels: not launch-bound
      CHECK(f == nullptr);
      continue;
    }
    REQUIRE(f != nullptr);
    CHECK(f->raw_saving_ns == 19 * 35 * kUs);
  }
}

TEST_CASE("advice: exposed-comm and gpu-idle from the step breakdown", "[advise]") {
  for (bool planted : {true, false}) {
    Plant p;
    ThreadId stream20 = p.b.Thread(0, 20);
    p.Step(1, 0, 1000);
    p.Launch("cudaLaunchKernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", ActivityKind::kKernel,
             10, 20, 100, 400, stream20);
    // Not planted: compute hides the communication and keeps the GPU busy.
    if (!planted) p.Kernel("gemm", 30, 40, 50, 990);
    Advised a = Advise(p);
    const job::Finding* comm = a.Of("exposed-comm");
    const job::Finding* idle = a.Of("gpu-idle");
    if (!planted) {
      CHECK(comm == nullptr);
      CHECK(idle == nullptr);
      continue;
    }
    REQUIRE(comm != nullptr);
    CHECK(comm->raw_saving_ns == 300 * kUs);
    REQUIRE(idle != nullptr);
    CHECK(idle->raw_saving_ns == 700 * kUs);  // the step's 1000 us less the 300 us of comm
  }
}

TEST_CASE("advice: memory-headroom counts cudaMalloc after the first step", "[advise]") {
  for (bool planted : {true, false}) {
    Plant p;
    p.Step(1, 0, 1000);
    p.Step(2, 1000, 2000);
    p.Kernel("gemm", 10, 20, 30, 990);
    p.Kernel("gemm", 1010, 1020, 1030, 1990);
    p.Call("cudaMalloc", 100, 150);
    if (planted) p.Call("cudaMalloc", 1100, 1130);
    Advised a = Advise(p);
    const job::Finding* f = a.Of("memory-headroom");
    if (!planted) {
      CHECK(f == nullptr);
      continue;
    }
    REQUIRE(f != nullptr);
    CHECK(f->count == 1);
    CHECK(f->raw_saving_ns == 30 * kUs);
    CHECK(f->steps == std::vector<int64_t>{2});
  }
}

TEST_CASE("advice: memory-headroom fires when reserved memory nears the device's total",
          "[advise]") {
  // live/mlp_train/all (PyTorch 2.11 on an H100 80GB, profile_memory): reserved memory peaks at
  // 75,497,472 bytes (72 MiB) in ProfilerStep#2, 0.09 % of the 85,017,493,504 bytes of
  // totalGlobalMem its deviceProperties give, and nothing else of the rule is there: silent. The
  // same trace with totalGlobalMem set to 78,643,200 bytes (75 MiB) in memory, as if it ran on a
  // device that small: the peak is 96.0 % of it and the rule fires, with no time saving of its own
  // (the trace has no cudaMalloc or cudaFree after the first step).
  for (int64_t total : {int64_t{0}, int64_t{78'643'200}}) {
    auto loaded = LoadTrace(test::TestData("live/mlp_train/all/trace.json.gz"));
    REQUIRE(loaded.ok());
    Trace& t = loaded->trace;
    REQUIRE(t.metadata.device_properties.size() == 1);
    CHECK(t.metadata.device_properties[0].total_global_mem == 85'017'493'504);
    if (total > 0) t.metadata.device_properties[0].total_global_mem = total;
    passes::FunctionEventList events = passes::BuildFunctionEvents(t);
    LaunchIndex launches(t.events);
    job::AdviceContext c = job::MakeAdviceContext(t, events, launches, nullptr, {});
    std::vector<job::Finding> findings = job::AdviseTrace(c, -1);
    auto f = std::find_if(findings.begin(), findings.end(),
                          [](const job::Finding& x) { return x.rule == "memory-headroom"; });
    if (total == 0) {
      CHECK(f == findings.end());
      continue;
    }
    REQUIRE(f != findings.end());
    CHECK(f->count == 0);
    CHECK(f->raw_saving_ns == 0);
    CHECK(f->steps == std::vector<int64_t>{2});
    CHECK(f->evidence ==
          "72.00 MiB reserved on cuda:0 at its peak (step 2) is 96.0% of the device's 75.00 MiB "
          "(totalGlobalMem), 3.00 MiB from the limit; at the peak, 5.0% of the 72.00 MiB "
          "reserved was not allocated");
  }
}

TEST_CASE("advice: a saving never exceeds the critical path", "[advise]") {
  Plant p;
  p.Step(1, 0, 1000);
  p.Kernel("gemm", 10, 20, 30, 200);
  p.Call("cudaMemcpy", 300, 900);  // 600 us of host time, more than the path without it
  Advised a = Advise(p);
  const job::Finding* f = a.Of("sync-memcpy");
  REQUIRE(f != nullptr);
  CHECK(f->raw_saving_ns == 600 * kUs);
  CHECK(f->saving_ns <= a.critical_path_ns);
  for (const job::Finding& x : a.findings) CHECK(x.saving_ns <= a.critical_path_ns);
}

TEST_CASE("advice: straggler names the rank the others waited for", "[advise]") {
  job::CollectivesResult none;
  none.ranks = {{0}, {1}};
  CHECK(job::AdviseJob(none, 0).empty());
  job::CollectivesResult late = none;
  late.ranks[1].arrived_last = 4;
  late.ranks[1].collectives = 5;
  late.ranks[1].wait_caused_ns = 500 * kUs;
  auto found = job::AdviseJob(late, 0);
  REQUIRE(found.size() == 1);
  CHECK(found[0].rule == "straggler");
  CHECK(found[0].rank == 1);
  CHECK(found[0].raw_saving_ns == 500 * kUs);
  CHECK(job::AdviseJob(late, 200 * kUs)[0].saving_ns == 200 * kUs);
}

TEST_CASE("advice: the rule table has every id once, and every rule but straggler runs",
          "[advise]") {
  std::vector<std::string> ids;
  for (const job::AdviceRule& r : job::AdviceRules()) {
    CHECK(std::find(ids.begin(), ids.end(), r.id) == ids.end());
    ids.push_back(r.id);
    CHECK(std::string(r.fix).size() > 10);
    CHECK(std::string(r.source).size() > 3);
    CHECK((r.run != nullptr) == (std::string(r.id) != "straggler"));
  }
  CHECK(ids.size() == 15);
  CHECK(job::FindAdviceRule("no-tensor-cores") != nullptr);
}

TEST_CASE("gloo's host-side collectives are collectives", "[advise][collectives]") {
  auto loaded = LoadTrace(
      test::TestData("traces/hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
  REQUIRE(loaded.ok());
  std::vector<job::CollectiveCall> calls = job::FindCollectiveCalls(loaded->trace);
  REQUIRE(calls.size() == 10);
  for (const job::CollectiveCall& c : calls) {
    CHECK(c.kind == job::CollectiveKind::kAllReduce);
    CHECK(c.label == "allreduce");
  }
}
