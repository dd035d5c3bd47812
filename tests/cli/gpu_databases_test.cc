// The Nsight Systems, rocmProfileData, rocpd and rocprofv3 importers: one database per schema
// generation built at test time from its SQL text (testdata/{nsys,rpd,rocpd}/*.sql) and a
// hand-made rocprofv3 file, each with the op tree its comments work out; every real file and
// fixture recognised by content, and read back identically from its Chrome-trace JSON and its
// native file.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>

#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;

namespace {

// Builds testdata/<relative>.sql into a database file (the text is the fixture; the binary is
// made here, never committed).
std::string Build(const std::string& relative) {
  std::string name = relative;
  for (char& c : name)
    if (c == '/') c = '_';
  std::string path = "/tmp/profana_db_" + name + "_" + std::to_string(::getpid()) + ".sqlite";
  std::string sql = profana::test::ReadFile(profana::test::TestData(relative + ".sql"));
  REQUIRE(profana::test::BuildSqliteDatabase(sql, path) == "");
  return path;
}

std::string Format(const std::string& path) {
  auto r = Run({"info", path, "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(r.out);
  return std::string(std::string_view(doc["format"]));
}

}  // namespace

TEST_CASE("Nsight Systems schema 3.16: NVTX ranges of a non-PyTorch program", "[nsys]") {
  // testdata/nsys/schema_3_16.sql works the numbers out: nvFuser's ranges are user annotations,
  // the launch inside runFusion brings its kernel and copy, the short name stands in for a
  // missing demangled one, the version suffix leaves the API names, ENUM_CUDA_MEM_KIND names
  // the copy's ends.
  std::string db = Build("nsys/schema_3_16");
  auto tree = Run({"tree", db, "--full-names"});
  REQUIRE(tree.code == 0);
  CHECK(tree.out ==
        "thread 301 (pid 300) \"test_matmul\"\n"
        "  FusionExecutor::runFusion  total 7.000us, self 5.800us, device 2.200us\n"
        "    -> nvfuser_none_f0_c0_r0_g0  2.000us on device 0 stream 7\n"
        "    -> Memcpy DtoH (Device -> Pageable)  0.200us on device 0 stream 7\n"
        "    getTerminatingOutputs  total 0.100us, self 0.100us\n"
        "    cudaLaunchKernel  total 0.500us, self 0.500us\n"
        "    cudaMemcpyAsync  total 0.100us, self 0.100us\n"
        "    cudaStreamSynchronize  total 0.500us, self 0.500us\n"
        "  cudaLaunchKernel  total 0.100us, self 0.100us\n");
  auto info = Run({"info", db, "--format", "json"});
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(info.out);
  CHECK(std::string_view(doc["format"]) == "nsys-sqlite");
  CHECK(int64_t(doc["by_kind"]["user_annotation"]) == 2);
  CHECK(int64_t(doc["by_kind"]["runtime"]) == 4);
  CHECK(int64_t(doc["by_kind"]["kernel"]) == 2);
  CHECK(int64_t(doc["by_kind"]["device_other"]) == 1);  // the Stream Sync
  CHECK(int64_t(doc["device_activities_linked"]) == 2);
  CHECK(int64_t(doc["device_activities_unlinked"]) == 1);  // the fill kernel: no range around
  CHECK(std::string_view(doc["devices"].at(0)) == "NVIDIA H200");
  auto table = Run({"table", db, "--row-limit", "-1"});
  CHECK(table.out.find("fill_kernel") != std::string::npos);
  CHECK(table.out.find("Stream Sync") == std::string::npos);  // not a FunctionEvent
  std::remove(db.c_str());
}

TEST_CASE("Nsight Systems schema 3.25: PyTorch's NVTX ranges of two processes", "[nsys]") {
  // testdata/nsys/schema_3_25.sql works the numbers out: the emit_nvtx ranges become ops with
  // their names cut, sequence number and shapes; "Step 1" and NCCL's range are annotations;
  // both processes launched with correlation id 5, and each op gets its own process's kernel.
  std::string db = Build("nsys/schema_3_25");
  auto tree = Run({"tree", db, "--full-names"});
  REQUIRE(tree.code == 0);
  CHECK(tree.out ==
        "thread 100 (pid 100) \"pt_main_thread\"\n"
        "  Step 1  total 10.000us, self 1.350us, device 2.690us\n"
        "    aten::linear  total 8.000us, self 2.000us, device 2.500us  [[8, 16], [32, 16], [32]]\n"
        "      aten::addmm  total 6.000us, self 5.400us, device 2.500us\n"
        "        -> gemm_a  2.000us on device 0 stream 7\n"
        "        -> Memcpy HtoD (Pinned -> Device)  0.500us on device 0 stream 7\n"
        "        cudaLaunchKernel  total 0.500us, self 0.500us\n"
        "        cudaMemcpyAsync  total 0.100us, self 0.100us\n"
        "    cudaDeviceSynchronize  total 0.250us, self 0.250us\n"
        "    ncclAllReduce  total 0.400us, self 0.300us, device 0.190us\n"
        "      -> ncclDevKernel_AllReduce  0.190us on device 0 stream 20\n"
        "      cuLaunchKernelEx  total 0.100us, self 0.100us\n"
        "thread 201 (pid 200)\n"
        "  aten::mm  total 3.500us, self 3.000us, device 1.100us\n"
        "    -> gemm_b  1.000us on device 1 stream 7\n"
        "    -> Memset (Device)  0.100us on device 1 stream 7\n"
        "    cudaLaunchKernel  total 0.400us, self 0.400us\n"
        "    cudaMemsetAsync  total 0.100us, self 0.100us\n");
  auto info = Run({"info", db, "--format", "json"});
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(info.out);
  CHECK(int64_t(doc["by_kind"]["cpu_op"]) == 3);
  CHECK(int64_t(doc["by_kind"]["user_annotation"]) == 2);
  CHECK(int64_t(doc["by_kind"]["driver"]) == 1);  // cuLaunchKernelEx, from the RUNTIME table
  CHECK(int64_t(doc["cpu_threads"]) == 2);
  // Sequence numbers reach the JSON (backward-stack propagation reads them).
  std::string json = db + ".json";
  REQUIRE(Run({"convert", "-q", db, "-o", json}).code == 0);
  std::string text = profana::test::ReadFile(json);
  CHECK(text.find("\"name\":\"aten::linear\"") != std::string::npos);
  CHECK(text.find("\"Sequence number\":3") != std::string::npos);
  CHECK(text.find("op_id") == std::string::npos);
  std::remove(json.c_str());
  std::remove(db.c_str());
}

TEST_CASE("rocmProfileData schema 2: markers, autograd rows, a graph launch", "[rocm]") {
  // testdata/rpd/small.sql works the numbers out.
  std::string db = Build("rpd/small");
  auto tree = Run({"tree", db, "--full-names"});
  REQUIRE(tree.code == 0);
  CHECK(tree.out ==
        "thread 50 (pid 50)\n"
        "  decode step  total 20.000us, self 7.500us, device 4.600us\n"
        "    -> graph_kernel_a  1.000us on device 2 stream 0\n"
        "    -> graph_kernel_b  1.000us on device 2 stream 0\n"
        "    aten::mm  total 8.000us, self 7.100us, device 2.500us  [[4, 8], [8, 2]]\n"
        "      -> Cijk_gemm  2.000us on device 2 stream 0\n"
        "      -> Memcpy HtoD (Host -> Device)  0.500us on device 2 stream 0\n"
        "      hipLaunchKernel  total 0.500us, self 0.500us\n"
        "      hipMemcpyAsync  total 0.400us, self 0.400us\n"
        "    hipGraphLaunch  total 0.500us, self 0.500us\n"
        "    aten::zero_  total 4.000us, self 3.800us, device 0.100us\n"
        "      -> Memset (Device)  0.100us on device 2 stream 0\n"
        "      hipMemsetAsync  total 0.200us, self 0.200us\n");
  auto info = Run({"info", db, "--format", "json"});
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(info.out);
  CHECK(std::string_view(doc["format"]) == "rocm-rpd");
  CHECK(int64_t(doc["by_kind"]["cpu_other"]) == 1);  // ApiTable::writeRows: RPD's own work
  CHECK(int64_t(doc["by_kind"]["cpu_op"]) == 2);
  CHECK(int64_t(doc["by_kind"]["user_annotation"]) == 1);
  std::string json = db + ".json";
  REQUIRE(Run({"convert", "-q", db, "-o", json}).code == 0);
  CHECK(profana::test::ReadFile(json).find("\"Sequence number\":12") != std::string::npos);
  std::remove(json.c_str());
  std::remove(db.c_str());
}

TEST_CASE("rocpd (rocprofiler-sdk) schema 3: uuid-suffixed tables, regions, dispatches", "[rocm]") {
  // testdata/rocpd/small.sql works the numbers out.
  std::string db = Build("rocpd/small");
  auto tree = Run({"tree", db, "--full-names"});
  REQUIRE(tree.code == 0);
  CHECK(tree.out ==
        "thread 4242 (pid 4242)\n"
        "  train step  total 9.000us, self 1.000us, device 2.500us\n"
        "    aten::mm  total 8.000us, self 7.100us, device 2.500us  [[4, 8], [8, 2]]\n"
        "      -> void gemm_kernel<float>(float*)  2.000us on device 0 stream 1\n"
        "      -> Memcpy HtoD (Host -> Device)  0.500us on device 0 stream 1\n"
        "      hipLaunchKernel  total 0.500us, self 0.500us\n"
        "      hipMemcpyAsync  total 0.400us, self 0.400us\n"
        "  hsa_signal_wait_scacquire  total 0.100us, self 0.100us\n");
  auto info = Run({"info", db, "--format", "json"});
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(info.out);
  CHECK(std::string_view(doc["format"]) == "rocpd");
  CHECK(int64_t(doc["by_kind"]["driver"]) == 1);
  CHECK(std::string_view(doc["devices"].at(0)) == "AMD Instinct MI300X");
  // A second process in the same file (another uuid) keeps its own correlation ids: its stack
  // id 2 names its own launch, not the first process's.
  std::string sql = profana::test::ReadFile(profana::test::TestData("rocpd/small.sql"));
  std::string second = sql.substr(sql.find("CREATE TABLE"));
  second = second.substr(0, second.find("CREATE VIEW"));
  for (size_t at = second.find("0199a2b3_7c4d"); at != std::string::npos;
       at = second.find("0199a2b3_7c4d", at + 1))
    second.replace(at, 13, "0299a2b3_7c4d");
  for (size_t at = second.find("4242"); at != std::string::npos; at = second.find("4242", at + 1))
    second.replace(at, 4, "5151");
  std::string two = db + ".two";
  REQUIRE(profana::test::BuildSqliteDatabase(sql + second, two) == "");
  auto both = Run({"tree", two, "--full-names"});
  REQUIRE(both.code == 0);
  // Each thread's aten::mm has its own process's kernel and copy (2.5 us), not both or none.
  std::string mm = "    aten::mm  total 8.000us, self 7.100us, device 2.500us  [[4, 8], [8, 2]]\n";
  size_t first = both.out.find("thread 4242 (pid 4242)"), second_at = both.out.find("thread 5151");
  REQUIRE(first != std::string::npos);
  REQUIRE(second_at != std::string::npos);
  CHECK(both.out.find(mm, first) < second_at);
  CHECK(both.out.find(mm, second_at) != std::string::npos);
  std::remove(two.c_str());
  std::remove(db.c_str());
}

TEST_CASE("rocprofv3 JSON: dispatches, copies, HIP calls and roctx ranges", "[rocm]") {
  // testdata/rocprofv3/small.json: roctx "train" 0 .. 10 us around "aten::mm, seq = 2, ..."
  // 1 .. 9 us; hipLaunchKernel (correlation 2) and hipMemcpyAsync (3) inside; the dispatch
  // (2.000 us) and the copy (0.500 us) correlate with them; a roctxMarkA is an instant.
  auto tree = Run({"tree", "testdata/rocprofv3/small.json", "--full-names"});
  REQUIRE(tree.code == 0);
  CHECK(tree.out ==
        "thread 77 (pid 77)\n"
        "  train  total 10.000us, self 2.000us, device 2.500us\n"
        "    aten::mm  total 8.000us, self 7.100us, device 2.500us  [[4, 8], [8, 2]]\n"
        "      -> gemm()  2.000us on device 0 stream 3\n"
        "      -> Memcpy HtoD (Host -> Device)  0.500us on device 0 stream 0\n"
        "      hipLaunchKernel  total 0.500us, self 0.500us\n"
        "      hipMemcpyAsync  total 0.400us, self 0.400us\n");
  auto info = Run({"info", "testdata/rocprofv3/small.json", "--format", "json"});
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(info.out);
  CHECK(std::string_view(doc["format"]) == "rocprofv3-json");
  CHECK(std::string_view(doc["devices"].at(0)) == "AMD Instinct MI300X");
}

TEST_CASE("every database and rocprofv3 file is recognised by its content", "[formats]") {
  std::string nsys = Build("nsys/schema_3_25"), rpd = Build("rpd/small"),
              rocpd = Build("rocpd/small"), nvprof = Build("nvprof/small");
  CHECK(Format(nsys) == "nsys-sqlite");
  CHECK(Format(rpd) == "rocm-rpd");
  CHECK(Format(rocpd) == "rocpd");
  CHECK(Format(nvprof) == "nvprof-sqlite");
  CHECK(Format("testdata/traces/nsys/fuser-matmul/report1.sqlite.gz") == "nsys-sqlite");
  CHECK(Format("testdata/traces/rocpd/rocmprofiledata/matmul_result.rpd.gz") == "rocm-rpd");
  CHECK(Format("testdata/traces/rocpd/tracelens/908_results.first4000.json.gz") ==
        "rocprofv3-json");
  // A .json name does not make a file Chrome JSON, nor .sqlite an nvprof database.
  for (const std::string& path : {nsys, rpd, rocpd, nvprof}) std::remove(path.c_str());
}

TEST_CASE("convert to Chrome JSON and to the native file keeps table, idle and queue",
          "[formats]") {
  std::vector<std::string> built = {Build("nsys/schema_3_16"), Build("nsys/schema_3_25"),
                                    Build("rpd/small"), Build("rocpd/small"),
                                    Build("nvprof/small")};
  std::vector<std::string> inputs = built;
  for (const char* real :
       {"testdata/traces/nsys/fuser-matmul/report1.sqlite.gz",
        "testdata/traces/nsys/fuser-thunder/report1.sqlite.gz",
        "testdata/traces/nsys/nsightful/power_iteration__baseline.sqlite.gz",
        "testdata/traces/nsys/nsys-ai/mfu_2gpu_before.sqlite.gz",
        "testdata/traces/rocpd/rocmprofiledata/matmul_result.rpd.gz",
        "testdata/traces/rocpd/rocmprofiledata/mytrace.rpd.gz",
        "testdata/traces/rocpd/tracelens/908_results.first4000.json.gz",
        "testdata/rocprofv3/small.json", "testdata/traces/nvprof/blinkplus-nccl/output.nvvp"})
    inputs.emplace_back(real);
  std::string out = "/tmp/profana_roundtrip_" + std::to_string(::getpid());
  for (const std::string& input : inputs) {
    INFO(input);
    auto table = Run({"table", input, "--row-limit", "-1"});
    REQUIRE(table.code == 0);
    for (const char* ext : {".json", ".pfa"}) {
      INFO(ext);
      REQUIRE(Run({"convert", "-q", input, "-o", out + ext}).code == 0);
      CHECK(Run({"table", out + ext, "--row-limit", "-1"}).out == table.out);
      for (const char* command : {"idle", "queue"})
        CHECK(Run({command, out + ext}).out == Run({command, input}).out);
      std::remove((out + ext).c_str());
    }
  }
  for (const std::string& path : built) std::remove(path.c_str());
}

TEST_CASE("Nsight exports name their writer: META_DATA_EXPORT, kept by convert", "[nsys][info]") {
  std::string in = profana::test::TestData("traces/nsys/fuser-thunder/report1.sqlite.gz");
  auto info = Run({"info", in});
  REQUIRE(info.code == 0);
  CHECK(
      info.out.find("written by:      NVIDIA Nsight Systems 2025.1.1.110 (export schema 3.17.1)") !=
      std::string::npos);
  std::string out = "/tmp/profana_producer_" + std::to_string(getpid()) + ".pfa";
  REQUIRE(Run({"convert", in, "-o", out}).code == 0);
  auto json = Run({"info", out, "--format", "json"});
  std::remove(out.c_str());
  REQUIRE(json.code == 0);
  CHECK(json.out.find(
            "\"producer\": \"NVIDIA Nsight Systems 2025.1.1.110 (export schema 3.17.1)\"") !=
        std::string::npos);
  // A Kineto trace does not name its writer.
  auto kineto = Run(
      {"info", profana::test::TestData("live/mlp_train/plain/trace.json.gz"), "--format", "json"});
  CHECK(kineto.out.find("\"producer\": null") != std::string::npos);
}

TEST_CASE("Nsight Systems graph trace mode: a graph execution is device work of its launch",
          "[nsys]") {
  // testdata/nsys/graph_trace.sql works the numbers out.
  std::string db = Build("nsys/graph_trace");
  auto tree = Run({"tree", db, "--full-names"});
  REQUIRE(tree.code == 0);
  CHECK(tree.out.find("  aten::_cuda_graph_replay  total 8.000us, self 7.400us, device 4.000us\n"
                      "    -> CUDA graph 3  4.000us on device 0 stream 7\n"
                      "    cudaGraphLaunch  total 0.600us, self 0.600us\n") != std::string::npos);
  auto kernels = Run({"kernels", db, "--format", "json"});
  REQUIRE(kernels.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(kernels.out);
  simdjson::dom::element first = doc["rows"].at(0);
  CHECK(std::string_view(first["name"]) == "CUDA graph 3");
  CHECK(int64_t(first["count"]) == 2);
  CHECK(double(first["total"]) == 7.0);
  std::remove(db.c_str());
}
