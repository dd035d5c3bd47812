// profana advise and check on real traces: each rule fires where its condition is, none on a
// CPU-only trace, findings in JSON, and budgets on an advice rule's saving and count.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "built_events.h"
#include "test_util.h"

using namespace profana;

TEST_CASE("advise on real traces: findings, JSON and a budget on a rule", "[advise][cli]") {
  std::string dlrm = test::TestData("traces/param/dlrm_kineto");
  auto one = test::Run({"advise", dlrm + "/worker3_step_12.1694128201557.pt.trace.json.gz", "-q",
                        "--format", "json"});
  REQUIRE(one.code == 0);
  CHECK(one.out.find("\"schema\": \"profana.advise/1\"") != std::string::npos);
  CHECK(one.out.find("\"rule\": \"host-sync\"") != std::string::npos);
  auto job = test::Run({"advise", dlrm, "-q"});
  REQUIRE(job.code == 0);
  CHECK(job.out.find("straggler") != std::string::npos);
}

TEST_CASE("advise: each rule fires on a real trace, and none on a CPU-only one", "[advise][cli]") {
  // (trace, rule) pairs from testdata/traces where the condition exists.
  const std::pair<const char*, const char*> kFires[] = {
      {"traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz", "host-sync"},
      {"traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz", "launch-bound"},
      {"traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz", "small-kernels"},
      {"traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz", "dataloader"},
      {"traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz", "exposed-comm"},
      {"traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz", "gpu-idle"},
      {"traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz",
       "unfused-optimizer"},
      {"traces/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
       "pageable-memcpy"},
      {"traces/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
       "unoverlapped-copy"},
      {"traces/hta/cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz", "sync-memcpy"},
      {"traces/tracelens/perf_model/normalization/normalization_layer_test.json.gz", "sync-memset"},
      {"traces/hta/df_index_resolver/df_index_resolver.json.gz", "memory-headroom"},
      {"traces/kineto/515e6115/resnet50_num_workers_0/worker0.pt.trace.json.gz", "fp32-matmul"},
      {"traces/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
       "no-tensor-cores"},
  };
  for (auto [trace, rule] : kFires) {
    INFO(trace << " " << rule);
    auto r = test::Run({"advise", test::TestData(trace), "-q", "--format", "csv"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find(std::string("\n") + rule + ",") != std::string::npos);
  }
  auto cpu = test::Run(
      {"advise",
       test::TestData("traces/hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"), "-q"});
  REQUIRE(cpu.code == 0);
  CHECK(cpu.out.rfind("No findings", 0) == 0);
}

TEST_CASE("check --budget gates on an advice rule's saving and count", "[advise][cli]") {
  std::string dir = "/tmp/profana_advise_budget_test";
  std::filesystem::create_directories(dir);
  std::string budget = dir + "/b.json";
  {
    std::ofstream f(budget);
    f << R"({"rules": [{"metric": "advise.host-sync.saving_ms", "max": 0.001},
                       {"metric": "advise.sync-memset.count", "max": 0}]})";
  }
  std::string trace =
      test::TestData("traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz");
  auto r = test::Run({"check", trace, "--budget", budget, "-q"});
  CHECK(r.code == 1);
  CHECK(r.out.find("FAIL  advise.host-sync.saving_ms") != std::string::npos);
  CHECK(r.out.find("ok    advise.sync-memset.count") != std::string::npos);
  {
    std::ofstream f(budget);
    f << R"({"rules": [{"metric": "advise.no-such-rule.count", "max": 0}]})";
  }
  auto bad = test::Run({"check", trace, "--budget", budget, "-q"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("no advice rule \"no-such-rule\"") != std::string::npos);
}

TEST_CASE("advise: fp32 matmuls off the Tensor Cores on a real H100 trace", "[advise][cli]") {
  // live/mlp_train (PyTorch 2.11 on an H100, fp32 without TF32): of the 213.343 us of kernels
  // launched inside the steps, 16 are fp32 GEMMs on the FFMA path (cutlass_80_simt_sgemm,
  // sm80_xmma_gemm_f32f32_..._ffma, sgemm_largek_lds64) taking 91.265 us, summed from the trace in
  // Python; cublasLt's splitKreduce_kernel<..., float, float, float, float> is no GEMM and does
  // not count. The estimate is half their time; nothing else is a matmul without Tensor Cores.
  auto r = test::Run(
      {"advise", test::TestData("live/mlp_train/all/trace.json.gz"), "-q", "--format", "csv"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\nfp32-matmul,-1,45.632,45.632,16,2-3,\"16 fp32 matmul and convolution "
                   "kernels ran on the FFMA path, not on Tensor Cores: 91.265us (42.8% of kernel "
                   "time)\"") != std::string::npos);
  CHECK(r.out.find("\nno-tensor-cores,") == std::string::npos);
}

TEST_CASE("advise: matmuls off the Tensor Cores that are not fp32, on real traces",
          "[advise][cli]") {
  // Summed from the traces in Python (no steps in either, so every kernel counts):
  //  * hta/critical_path/alexnet (A100): 2 ampere_gcgemm_64x64_nt, complex GEMMs of cuDNN's FFT
  //    convolution, of 323 us each: 646 us of the 79 kernels' 10692 us, 6.04 %, over the 5 %
  //    threshold; the estimate is half, 323 us.
  //  * nsys/nsightful/power_iteration__baseline (CuPy, fp64): 432 gemv2T_kernel_val<int, int,
  //    double, ...> take 1074732935 ns of the 3689 kernels' 1131742684 ns, 94.96 %; the estimate is
  //    537366467 ns. Its cublasLt splitKreduce_kernel is no GEMM, and no kernel is an fp32 matmul,
  //    so fp32-matmul stays silent.
  auto alexnet = test::Run(
      {"advise",
       test::TestData(
           "traces/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz"),
       "-q", "--format", "csv"});
  REQUIRE(alexnet.code == 0);
  CHECK(alexnet.out.find("\nno-tensor-cores,0,323.000,323.000,2,,2 matmul and convolution kernels "
                         "(not fp32: fp32-matmul counts those) ran without Tensor Cores: "
                         "646.000us (6.0% of kernel time),") != std::string::npos);
  auto fp64 = test::Run(
      {"advise", test::TestData("traces/nsys/nsightful/power_iteration__baseline.sqlite.gz"), "-q",
       "--format", "csv"});
  REQUIRE(fp64.code == 0);
  CHECK(fp64.out.find("\nno-tensor-cores,-1,537366.467,537366.467,432,,432 matmul and convolution "
                      "kernels (not fp32: fp32-matmul counts those) ran without Tensor Cores: "
                      "1.075s (95.0% of kernel time),") != std::string::npos);
  CHECK(fp64.out.find("\nfp32-matmul,") == std::string::npos);
}
