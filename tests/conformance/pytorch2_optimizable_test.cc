// optimizable against PyTorch 2.x's BasicEvaluation run on the events of real traces
// (testdata/pytorch2/<case>/optimizable_intended.txt; the README there says how). The ranked
// events must be PyTorch's, in PyTorch's order, under their own names. Idle percentages still
// differ where PyTorch maps a launch to a kernel by the op's id and profana by correlation
// (docs/semantics.md, "GPU evaluation").
#include <catch2/catch.hpp>
#include <sstream>

#include "test_util.h"

using profana::test::Run;
using profana::test::TestData;

namespace {

std::vector<std::string> EventLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("Event:", 0) == 0) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("optimizable ranks PyTorch 2.x's events on real CUDA traces", "[conformance][pytorch2]") {
  struct Case {
    const char* name;
    const char* trace;
  };
  // alexnet: a segment without a peak of 4 sits between the last empty point and the step's
  // falling phase; searching past it, as rank_events does, gives PyTorch's [param|cuda],
  // aten::mul, aten::fill_, cudaMalloc, cudaMalloc. resnet50: the step is "ProfilerStep#8".
  for (Case c : {Case{"cuda_a100_alexnet",
                      "traces/hta/critical_path/alexnet/"
                      "benchmark_result_2869224_1695835535_trace.json.gz"},
                 Case{"cuda_v100_resnet50_2021",
                      "traces/kineto/be239c04/resnet50_num_workers_0/"
                      "worker0.1623143089861.pt.trace.json.gz"}}) {
    INFO(c.name);
    auto r = Run({"optimizable", TestData(c.trace), "--top", "5"});
    REQUIRE(r.code == 0);
    std::string want = profana::test::ReadFile(
        TestData(std::string("pytorch2/") + c.name + "/optimizable_intended.txt"));
    std::vector<std::string> want_events = EventLines(want);
    REQUIRE(want_events.size() == 5);
    CHECK(EventLines(r.out) == want_events);
  }
}
