// PyTorch's FLOP counts (torch/csrc/profiler/util.cpp computeFlops) from the inputs a Kineto file
// records: each formula on the shapes of testdata/live/flops_zoo, where PyTorch's own table gives
// the totals, and the cases where PyTorch's formula gives up.
#include "profana/passes/flops.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "profana/model/trace_builder.h"
#include "test_util.h"

using namespace profana;
using passes::OpFlops;

namespace {

// The inputs as a Kineto file writes them: "Input Dims", "Input type", "Concrete Inputs".
std::vector<FlopInput> Inputs(const std::string& dims, const std::string& types = "",
                              const std::string& concrete = "") {
  std::string joined = dims + kFlopInputsSeparator + types + kFlopInputsSeparator + concrete;
  std::vector<FlopInput> out;
  REQUIRE(ParseFlopInputs(joined, &out));
  return out;
}

}  // namespace

TEST_CASE("conv2d FLOPs follow PyTorch's formula, stride, padding, dilation and groups included",
          "[flops]") {
  // F.conv2d(x[4,16,32,32], w[32,16,3,3], bias, stride 2, padding 1): output 16x16.
  auto strided =
      Inputs("[[4, 16, 32, 32], [32, 16, 3, 3], [32], [], [], [], []]",
             R"(["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar"])",
             R"(["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "1"])");
  CHECK(OpFlops("aten::conv2d", strided) == 2ull * 4 * 16 * 16 * 3 * 3 * 16 * 32);
  // Dilation 2, padding 2, groups 4, no bias: output 32x32, the product divided by the groups.
  auto grouped =
      Inputs("[[4, 16, 32, 32], [32, 4, 3, 3], [], [], [], [], []]",
             R"(["float", "float", "", "ScalarList", "ScalarList", "ScalarList", "Scalar"])",
             R"(["", "", "", "[1, 1]", "[2, 2]", "[2, 2]", "4"])");
  CHECK(OpFlops("aten::conv2d", grouped) == 2ull * 4 * 32 * 32 * 3 * 3 * 16 * 32 / 4);
  // The two, each called twice, are the 37748.736 KFLOPs of PyTorch's table.
  CHECK(2 * (OpFlops("aten::conv2d", strided) + OpFlops("aten::conv2d", grouped)) == 37748736ull);
  // What PyTorch gives up on: a string padding, a 3-D weight, stride 0, groups 0, too few inputs.
  CHECK(OpFlops("aten::conv2d",
                Inputs("[[4, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []]",
                       R"(["float", "float", "", "ScalarList", "", "ScalarList", "Scalar"])",
                       R"(["", "", "", "[1, 1]", "same", "[1, 1]", "1"])")) == 0);
  CHECK(OpFlops("aten::conv2d", Inputs("[[4, 16, 32], [32, 16, 3], [], [], [], [], []]", "",
                                       R"(["", "", "", "[1]", "[0]", "[1]", "1"])")) == 0);
  CHECK(OpFlops("aten::conv2d", Inputs("[[4, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []]", "",
                                       R"(["", "", "", "[0, 1]", "[0, 0]", "[1, 1]", "1"])")) == 0);
  CHECK(OpFlops("aten::conv2d", Inputs("[[4, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []]", "",
                                       R"(["", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "0"])")) == 0);
  CHECK(OpFlops("aten::conv2d", Inputs("[[4, 16, 32, 32], [32, 16, 3, 3]]")) == 0);
  // No concrete inputs recorded: the arguments are unknown.
  CHECK(OpFlops("aten::conv2d", Inputs("[[4, 16, 32, 32], [32, 16, 3, 3], [], [], [], [], []]")) ==
        0);
}

TEST_CASE("matrix products count 2 n k m, batched ones per batch, addmm as mm", "[flops]") {
  CHECK(OpFlops("aten::mm", Inputs("[[64, 128], [128, 96]]", R"(["float", "float"])")) ==
        2ull * 64 * 128 * 96);
  // addmm(self, mat1, mat2, beta, alpha): mat1 and mat2 only, beta and alpha taken as 1.
  CHECK(OpFlops("aten::addmm", Inputs("[[96], [64, 128], [128, 96], [], []]",
                                      R"(["float", "float", "float", "Scalar", "Scalar"])",
                                      R"(["", "", "", "0.5", "2"])")) == 2ull * 64 * 128 * 96);
  CHECK(OpFlops("aten::bmm", Inputs("[[8, 32, 64], [8, 64, 16]]")) == 2ull * 8 * 32 * 64 * 16);
  CHECK(OpFlops("aten::baddbmm", Inputs("[[8, 32, 16], [8, 32, 64], [8, 64, 16], [], []]")) ==
        2ull * 8 * 32 * 64 * 16);
  // A zero shared dimension or batch counts nothing; so does a scalar where a matrix belongs.
  CHECK(OpFlops("aten::mm", Inputs("[[64, 0], [0, 96]]")) == 0);
  CHECK(OpFlops("aten::bmm", Inputs("[[0, 32, 64], [0, 64, 16]]")) == 0);
  CHECK(OpFlops("aten::mm", Inputs("[[64, 128], []]", R"(["float", "Scalar"])")) == 0);
  CHECK(OpFlops("aten::mm", Inputs("[[64, 128]]")) == 0);
}

TEST_CASE("mul and add count one per element of their first tensor", "[flops]") {
  CHECK(OpFlops("aten::mul", Inputs("[[16, 1024], [16, 1024]]", R"(["float", "float"])")) ==
        16 * 1024);
  CHECK(OpFlops("aten::mul", Inputs("[[16, 1024], []]", R"(["float", "Scalar"])")) == 16 * 1024);
  // add with alpha: the same count.
  CHECK(OpFlops("aten::add", Inputs("[[16, 1024], [16, 1024], []]",
                                    R"(["float", "float", "Scalar"])")) == 16 * 1024);
  // A 0-dim tensor has one element; a scalar first operand counts nothing.
  CHECK(OpFlops("aten::add", Inputs("[[], []]", R"(["float", "Scalar"])")) == 1);
  CHECK(OpFlops("aten::add", Inputs("[[], [4]]", R"(["Scalar", "float"])")) == 0);
  // Other ops, in-place forms included, count nothing.
  CHECK(OpFlops("aten::add_", Inputs("[[16, 1024], [16, 1024]]")) == 0);
  CHECK(OpFlops("aten::matmul", Inputs("[[8, 32, 64], [8, 64, 16]]")) == 0);
  CHECK(OpFlops("aten::mul", {}) == 0);
}

TEST_CASE("malformed FLOP inputs are refused, not guessed", "[flops]") {
  std::vector<FlopInput> out;
  std::string sep(1, kFlopInputsSeparator);
  CHECK_FALSE(ParseFlopInputs("[[4, 16], [16" + sep + sep, &out));
  CHECK_FALSE(ParseFlopInputs("[[4, x]]" + sep + sep, &out));
  CHECK_FALSE(ParseFlopInputs("[[4]]" + sep + R"(["float")" + sep, &out));
  CHECK_FALSE(ParseFlopInputs("[[99999999999999999999]]" + sep + sep, &out));
  // A TensorList's nested sizes are not a tensor's.
  REQUIRE(ParseFlopInputs("[[[2, 2], [3]], [4]]" + sep + sep, &out));
  CHECK_FALSE(out[0].dims_are_ints);
  CHECK(passes::OpFlops("aten::add", out) == 0);
}

TEST_CASE("every event's FLOPs: worked out once per distinct inputs, 0 for other events",
          "[flops]") {
  TraceBuilder b;
  ThreadId t = b.Thread(1, 1);
  std::string sep(1, kFlopInputsSeparator);
  auto op = [&](const char* name, const std::string& inputs, int64_t start) {
    TraceBuilder::Event e;
    e.trace_name = b.Intern(name);
    e.thread = t;
    e.start_ns = start;
    e.end_ns = start + 10;
    if (!inputs.empty()) e.flop_inputs = b.Intern(inputs);
    b.AddEvent(e);
  };
  op("aten::mm", "[[2, 3], [3, 4]]" + sep + sep, 0);
  op("aten::mm", "[[2, 3], [3, 4]]" + sep + sep, 100);
  op("aten::add", "[[5, 5]]" + sep + sep, 200);
  op("aten::relu", "", 300);
  Trace trace = std::move(b).Finish();
  passes::EventFlops flops(trace);
  CHECK(flops.any());
  CHECK(flops.Of(EventId(0)) == 48);
  CHECK(flops.Of(EventId(1)) == 48);
  CHECK(flops.Of(EventId(2)) == 25);
  CHECK(flops.Of(EventId(3)) == 0);
  CHECK_FALSE(passes::FlopsPromisedButMissing(trace));
}
