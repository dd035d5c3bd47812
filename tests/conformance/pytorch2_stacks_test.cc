// Conformance against PyTorch 2.x's own post-processing (testdata/pytorch2, README there says how
// it was made): the stack rules. Outputs are compared byte for byte; only 1.13's memory units
// (Kb, Mb, b), which profana's tables keep, are respelled as 2.x's (KB, MB, B) first.
#include <catch2/catch.hpp>
#include <regex>

#include "profana/base/input_buffer.h"
#include "test_util.h"

using profana::test::Run;
using profana::test::TestData;

namespace {

std::string ReadMaybeGzipped(const std::string& path) {
  auto in = profana::ReadInput(path);
  REQUIRE(in.ok());
  return std::string(in->view());
}

std::string RespellMemoryUnits(const std::string& table) {
  static const std::regex k113(R"((\d) (Gb|Mb|Kb|b)(?=  ))");
  std::string out;
  std::regex_replace(std::back_inserter(out), table.begin(), table.end(), k113, "$1 $2\x01");
  std::string fixed;
  for (size_t i = 0; i < out.size(); ++i) {
    if (i + 1 < out.size() && out[i + 1] == '\x01') {
      fixed += out[i] == 'b' ? 'B' : out[i];
      ++i;
    } else {
      fixed += out[i];
    }
  }
  return fixed;
}

const char* kResnet2021 =
    "traces/kineto/be239c04/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";

}  // namespace

// 2021 Kineto writes thread ids as strings ("tid": "25738") and forward threads as RecordFunction
// ids ("Fwd thread id": 1). The 966 torch::autograd::AccumulateGrad events have no sequence
// number and no forward thread (0): PyTorch's key (-1, 0) names no thread, so they and their
// children get an empty stack. The other backward functions take the stack of the forward op
// with their sequence number on thread 25738 (the one that ran those forward ops).
TEST_CASE("backward stacks of a 2021 trace with string thread ids match PyTorch 2.x",
          "[conformance][pytorch2]") {
  std::string trace = TestData(kResnet2021);
  std::string dir = TestData("pytorch2/cuda_v100_resnet50_2021/");
  auto table = Run({"table", trace, "--group-by-stack", "5", "--sort", "self_cpu_time_total",
                    "--row-limit", "-1"});
  REQUIRE(table.code == 0);
  std::string want = ReadMaybeGzipped(dir + "table_by_stack_n5.txt.gz");
  CHECK(RespellMemoryUnits(table.out) == want);
  // The row PyTorch prints for the AccumulateGrad events: all 966 with no source location.
  CHECK(want.find("torch::autograd::AccumulateGrad        ") != std::string::npos);

  for (const char* metric : {"self_cpu_time_total", "self_cuda_time_total"}) {
    INFO(metric);
    auto stacks = Run({"stacks", trace, "--stacks", "python", "--metric", metric});
    REQUIRE(stacks.code == 0);
    CHECK(stacks.out == ReadMaybeGzipped(dir + "stacks_" + metric + ".txt.gz"));
  }
  // Read as thread 0, the AccumulateGrad subtrees borrowed the stack of the first event with no
  // sequence number on the main thread, ending in "profiler.py(611): __init__": 2970 lines of the
  // self CPU file instead of PyTorch's 72.
  auto cpu = Run({"stacks", trace, "--stacks", "python", "--metric", "self_cpu_time_total"});
  size_t lines = 0;
  for (size_t at = 0; (at = cpu.out.find("(611):___init__ ", at)) != std::string::npos; ++at)
    ++lines;
  CHECK(lines == 72);
}
