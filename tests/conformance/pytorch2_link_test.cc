// Kernel -> op attribution (--link) against PyTorch 2.x's own post-processing of real traces
// (testdata/pytorch2: the oracle's tables, made by PyTorch's profiler_util.py and
// _parse_kineto_results on the events of each file; its README says how).
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "catch2/catch.hpp"
#include "test_util.h"

namespace {

using profana::test::Lines;
using profana::test::ReadFile;
using profana::test::Run;
using profana::test::TestData;

// The table row whose name column (right-aligned, 55 wide) is `name`.
// A row from its "CPU total %" cell on: the reconstructed oracle (testdata/pytorch2) assumed no
// event async, while live PyTorch 2.x marks c10d's nccl:* titles async (testdata/live), so the op
// holding them keeps their time as self CPU: only the Self CPU cells differ there.
std::string FromCpuTotal(const std::string& row) { return row.size() > 85 ? row.substr(85) : ""; }

// The n-th row (0: the first) named `name`.
std::string Row(const std::string& table, const std::string& name, int n = 0) {
  for (const std::string& line : Lines(table))
    if (line.size() > 55 && line.compare(55 - name.size(), name.size(), name) == 0 &&
        (name.size() == 55 || line[54 - name.size()] == ' ') && n-- == 0)
      return line;
  return "";
}

}  // namespace

TEST_CASE("link rule auto: NCCL kernels go to record_param_comms, as PyTorch (2023 DLRM, no links)",
          "[pytorch2][link]") {
  // The 2023 file writes External id == correlation everywhere: the link is not in the file, and
  // auto credits each launch to the innermost cpu_op around it. The nccl:* ranges inside
  // record_param_comms are record_function labels (user_annotation): Kineto never links to them.
  std::string trace =
      TestData("traces/param/dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json.gz");
  auto run = Run({"table", trace, "--sort", "self_cuda_time_total", "--row-limit", "-1"});
  REQUIRE(run.code == 0);
  std::string oracle = ReadFile(TestData("pytorch2/cuda_v100_dlrm_nccl/table_self_cuda.txt"));
  // The top rows (the CUDA ranking: record_param_comms 5.798 ms = the all-to-all kernels 3.999 ms
  // + the all-reduce kernels 1.799 ms) are PyTorch's byte for byte. Rows further down differ only
  // in CPU total % (the footer: unlinked runtime calls of the autograd thread, which PyTorch
  // moves to the main thread).
  std::vector<std::string> ours = Lines(run.out), theirs = Lines(oracle);
  REQUIRE(ours.size() > 10);
  REQUIRE(theirs.size() > 10);
  for (size_t i = 0; i < 10; ++i) {
    INFO("line " << i);
    if (ours[i] == Row(run.out, "record_param_comms"))
      CHECK(FromCpuTotal(ours[i]) == FromCpuTotal(theirs[i]));
    else
      CHECK(ours[i] == theirs[i]);
  }
  CHECK(FromCpuTotal(Row(run.out, "record_param_comms")) ==
        FromCpuTotal(Row(oracle, "record_param_comms")));
  CHECK(Row(run.out, "record_param_comms").find("5.798ms") != std::string::npos);
  CHECK(Row(run.out, "nccl:all_to_all").find("0.000us         0.00%       0.000us") !=
        std::string::npos);
  // Said on stderr, not in the table: 261 launches, all credited by enclosure.
  CHECK(run.err.find("261 launches were credited to the cpu_op enclosing them") !=
        std::string::npos);

  // --link pytorch: PyTorch literally, which has no links to follow in this file: no op gets
  // CUDA time (the kernels keep their own rows).
  auto literal = Run(
      {"table", trace, "--link", "pytorch", "--sort", "self_cuda_time_total", "--row-limit", "-1"});
  REQUIRE(literal.code == 0);
  CHECK(Row(literal.out, "record_param_comms").find("0.000us         0.00%       0.000us") !=
        std::string::npos);
  CHECK(literal.err.empty());
}

TEST_CASE("link rule auto: recorded links win and labels get no kernels (B200 vLLM trace)",
          "[pytorch2][link]") {
  std::string trace = TestData("traces/tracelens/b200/eager_trace.json.gz");
  auto run = Run({"table", trace, "--sort", "self_cuda_time_total", "--row-limit", "-1"});
  REQUIRE(run.code == 0);
  std::string oracle = ReadFile(TestData("pytorch2/cuda_b200_eager_stack/table_self_cuda.txt"));
  // The NCCL kernel's launch names record_param_comms by External id; enclosure would give
  // the nccl:_all_gather_base label inside it. PyTorch's row, byte for byte (21.953 us).
  std::string ours = Row(run.out, "record_param_comms");
  CHECK(FromCpuTotal(ours) == FromCpuTotal(Row(oracle, "record_param_comms")));
  CHECK(ours.find("21.953us") != std::string::npos);
  // The top-level execute_context_1(...) label (a user_annotation) encloses two Triton launches
  // with no External id and no op around them: PyTorch credits them to no op, so its Self CUDA
  // is 0 (the label's CPU columns are PyTorch's too; its CUDA total still differs by 12 us, kernels
  // PyTorch's parse gives runtime calls whose correlation id collides with an op's id).
  std::string label = "execute_context_1(888_788544)_generation_0(0)";
  // PyTorch has a second row of that name first: the GPU user annotation, a device row, left out
  // of the CUDA total (720.43%). profana's is PyTorch's, byte for byte.
  CHECK(Row(run.out, label) == Row(oracle, label));
  CHECK(Row(run.out, label).find("84.044ms       720.43%") != std::string::npos);
  std::string our_label = Row(run.out, label, 1);
  REQUIRE(our_label.size() > 130);
  CHECK(oracle.find(our_label.substr(0, 130)) != std::string::npos);
  CHECK(our_label.find("100.00%      87.413ms      87.413ms       0.000us         0.00%") !=
        std::string::npos);
  // The file records links: no note on stderr.
  CHECK(run.err.empty());
  // --link enclosing: the launches under the label have no cpu_op around them either.
  auto enclosing = Run({"table", trace, "--link", "enclosing", "--sort", "self_cuda_time_total",
                        "--row-limit", "-1"});
  REQUIRE(enclosing.code == 0);
  CHECK(Row(enclosing.out, label, 1).find("87.413ms       0.000us         0.00%") !=
        std::string::npos);
}

TEST_CASE("info counts launches by how their op was found", "[pytorch2][link]") {
  auto run =
      Run({"info", TestData("traces/tracelens/b200/eager_trace.json.gz"), "--format", "json"});
  REQUIRE(run.code == 0);
  CHECK(run.out.find("\"trace_records_links\": true") != std::string::npos);
  CHECK(run.out.find("\"link_rule\": \"auto\"") != std::string::npos);
}

TEST_CASE("HIP [memory] records (Device Type 6) count as CUDA memory, as PyTorch",
          "[pytorch2][memory]") {
  // A real MI300X trace with 415 HIP records: PyTorch counts device types 1, 6 and 20 as device
  // memory (aten::empty 32.69 MB of CUDA Mem); CPU memory is 0, 2 and 5.
  std::string trace =
      TestData("traces/tracelens/perf_model/normalization/normalization_layer_test.json.gz");
  auto run = Run({"table", trace, "--sort", "self_cuda_memory_usage", "--row-limit", "-1"});
  REQUIRE(run.code == 0);
  std::string oracle =
      ReadFile(TestData("pytorch2/rocm_mi300_memory_stack/table_self_cuda_mem.txt"));
  // The first rows, memory columns (2.x's unit spelling) included, are PyTorch's byte for byte.
  // The trace's header says with_flops, so profana adds the Total FLOPs column (14 characters)
  // that the reconstructed oracle, made with every count 0 (testdata/pytorch2/README.md), lacks.
  std::vector<std::string> ours = Lines(run.out), theirs = Lines(oracle);
  REQUIRE(ours.size() > 8);
  REQUIRE(theirs.size() > 8);
  CHECK(ours[1].substr(theirs[1].size()) == " Total FLOPs  ");
  for (size_t i = 0; i < 8; ++i) {
    INFO("line " << i);
    CHECK(ours[i].size() == theirs[i].size() + 14);
    CHECK(ours[i].substr(0, theirs[i].size()) == theirs[i]);
  }
  CHECK(Row(run.out, "aten::empty").find("32.69 MB      32.69 MB") != std::string::npos);
}
