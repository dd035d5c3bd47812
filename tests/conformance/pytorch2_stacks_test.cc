// Conformance against PyTorch 2.x's own post-processing (testdata/pytorch2, README there says how
// it was made): the stack rules. Outputs are compared byte for byte.
#include <catch2/catch.hpp>
#include <set>

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

// The table without the rows of CUDA runtime calls (each row with its stack lines). The
// reconstructed oracle gives a runtime call an empty stack outside backward; live PyTorch 2.11
// gives it its op's (testdata/live, tests/conformance/live_pytorch2_test.cc), as profana does.
std::string WithoutRuntimeRows(const std::string& table) {
  std::string out;
  bool skipping = false;
  size_t at = 0;
  while (at < table.size()) {
    size_t end = table.find('\n', at);
    end = end == std::string::npos ? table.size() : end + 1;
    std::string_view line(table.data() + at, end - at);
    size_t name = line.find_first_not_of(' ');
    bool continuation = name != std::string_view::npos && name > 60 && line[0] == ' ';
    if (!continuation) skipping = name != std::string_view::npos && line.substr(name, 4) == "cuda";
    if (!skipping) out.append(line);
    at = end;
  }
  return out;
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
  CHECK(WithoutRuntimeRows(table.out) == WithoutRuntimeRows(want));
  CHECK(WithoutRuntimeRows(want).size() + 20000 < want.size());  // rows were dropped
  // The row PyTorch prints for the AccumulateGrad events: all 966 with no source location.
  CHECK(want.find("torch::autograd::AccumulateGrad        ") != std::string::npos);

  for (const char* metric : {"self_cpu_time_total", "self_cuda_time_total"}) {
    INFO(metric);
    auto stacks = Run({"stacks", trace, "--stacks", "python", "--metric", metric});
    REQUIRE(stacks.code == 0);
    // Every line of the reconstruction's (one per event with a stack) is profana's; profana has
    // more: the runtime calls, with their op's stack, as live PyTorch 2.11 writes them.
    std::multiset<std::string> ours, theirs;
    auto lines = [](const std::string& text, std::multiset<std::string>* out) {
      size_t at = 0;
      while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        out->insert(text.substr(at, end - at));
        at = end + 1;
      }
    };
    lines(stacks.out, &ours);
    lines(ReadMaybeGzipped(dir + "stacks_" + metric + ".txt.gz"), &theirs);
    REQUIRE(theirs.size() > 100);
    CHECK(ours.size() >= theirs.size());
    size_t missing = 0;
    for (const std::string& l : theirs) {
      auto it = ours.find(l);
      if (it == ours.end())
        ++missing;
      else
        ours.erase(it);
    }
    CHECK(missing == 0);
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

// testdata/gpu/python_stacks_tree.json, times in us from the first event. Thread 10: the Python
// calls main.py(1): main [0, 1000), main.py(5): step [10, 30) and main.py(9): backward
// [300, 600); in step, the record_function "label" [20, 200) is entered, and it outlives step;
// aten::mm [25, 60) (sequence number 5) starts inside step and outlives it too; its
// cudaLaunchKernel [40, 45) launches k [50, 60). Thread 20 (the autograd engine): the wrapper
// autograd::engine::evaluate_function: MmBackward0 [350, 400) and MmBackward0 [355, 395), both
// with forward thread 1 and sequence number 5.
// PyTorch 2.x's event tree: label and aten::mm are under step (open at their start), so their
// stack is main;step. At 40, step has ended (30 < 40), which finishes label and aten::mm on the
// chain, but the launch is linked to aten::mm and takes its stack (its own frames are only
// main). The wrapper has nothing open on thread 20 and hangs under its forward thread's open
// call: main;backward. Forward thread 1 is thread 10 (it ran the forward op with sequence number
// 5), so MmBackward0 (a backward function) takes aten::mm's stack. Self CPU: label 180 - 35 =
// 145, aten::mm 35 - 5 = 30, the launch 5, the wrapper 50 - 40 = 10, MmBackward0 40. Self CUDA:
// aten::mm's kernel, 10.
TEST_CASE("python_function stacks follow PyTorch 2.x's event tree", "[pytorch2]") {
  auto cpu = Run({"stacks", "testdata/gpu/python_stacks_tree.json", "--stacks", "python",
                  "--metric", "self_cpu_time_total"});
  REQUIRE(cpu.code == 0);
  CHECK(cpu.out ==
        "main.py(1):_main;main.py(5):_step 145\n"
        "main.py(1):_main;main.py(5):_step 30\n"
        "main.py(1):_main;main.py(5):_step 5\n"
        "main.py(1):_main;main.py(9):_backward 10\n"
        "main.py(1):_main;main.py(5):_step 40\n");
  auto cuda = Run({"stacks", "testdata/gpu/python_stacks_tree.json", "--stacks", "python",
                   "--metric", "self_cuda_time_total"});
  REQUIRE(cuda.code == 0);
  CHECK(cuda.out == "main.py(1):_main;main.py(5):_step 10\n");
}

// A real MI300X trace with python_function events and no "Call stack" (PyTorch 2.x,
// with_stack=True): PyTorch's export_stacks (run with verbose=True, the only way 2.x fills
// stacks) is reproduced byte for byte: 839 lines, of which the containment rule profana used
// before got 761 (it dropped frames that return before their op ends, and gave the autograd
// thread's top-level ops no stack where PyTorch hangs them under the main thread's
// "<built-in method run_backward ...>").
TEST_CASE("python_function stacks of a real ROCm trace match PyTorch 2.x",
          "[conformance][pytorch2]") {
  auto r =
      Run({"stacks",
           TestData("traces/tracelens/perf_model/normalization/normalization_layer_test.json.gz"),
           "--stacks", "python", "--metric", "self_cpu_time_total"});
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        ReadMaybeGzipped(TestData(
            "pytorch2/rocm_mi300_memory_stack/stacks_verbose_self_cpu_time_total.txt.gz")));
}
