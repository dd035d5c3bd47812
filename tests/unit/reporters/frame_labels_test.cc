// Flamegraph frame names: numbered module instances folded, Python paths shortened, and stacks
// that become equal summed. Hand-made frames in PyTorch's formats; expected values in comments.
#include "profana/reporters/frame_labels.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

using namespace profana;

TEST_CASE("module instances fold into one frame", "[reporters]") {
  CHECK(report::FoldInstance("nn.Module: Block_0") == "nn.Module: Block_*");
  CHECK(report::FoldInstance("nn.Module: Block_35") == "nn.Module: Block_*");
  CHECK(report::FoldInstance("nn.Module:_Conv2d_12") == "nn.Module:_Conv2d_*");  // export_stacks
  // Not an instance number, or not a module: unchanged.
  CHECK(report::FoldInstance("nn.Module: Block") == "nn.Module: Block");
  CHECK(report::FoldInstance("nn.Module: Conv2d") == "nn.Module: Conv2d");
  CHECK(report::FoldInstance("nn.Module: _3") == "nn.Module: _3");
  CHECK(report::FoldInstance("aten::add_3") == "aten::add_3");
  CHECK(report::FoldInstance("layer_0") == "layer_0");
}

TEST_CASE("Python frame paths lose site-packages and home prefixes", "[reporters]") {
  CHECK(report::ShortFramePath("/home/ana/venv/lib/python3.10/site-packages/torch/nn/modules/"
                               "module.py(1501): _call_impl") ==
        "torch/nn/modules/module.py(1501): _call_impl");
  CHECK(report::ShortFramePath("/usr/lib/python3/dist-packages/torch/autograd/grad_mode.py(27): "
                               "decorate_context") ==
        "torch/autograd/grad_mode.py(27): decorate_context");
  CHECK(report::ShortFramePath("/home/ana/proj/train.py(88): step") == "proj/train.py(88): step");
  CHECK(report::ShortFramePath("/Users/bo/x/run.py(3):_main") == "x/run.py(3):_main");
  CHECK(report::ShortFramePath("/root/run.py(3): main") == "run.py(3): main");
  // Relative paths, other absolute paths and frames that are not Python lines: unchanged.
  CHECK(report::ShortFramePath("generate.py(731): <module>") == "generate.py(731): <module>");
  CHECK(report::ShortFramePath("/opt/app/run.py(3): main") == "/opt/app/run.py(3): main");
  CHECK(report::ShortFramePath("aten::mm") == "aten::mm");
  CHECK(report::ShortFramePath("<built-in method conv2d of type object at 0x7f>") ==
        "<built-in method conv2d of type object at 0x7f>");
}

TEST_CASE("relabelled stacks that become equal are summed", "[reporters]") {
  // Two instances under one site-packages frame: both fold to Block_*, 5 + 7 = 12.
  std::map<std::string, int64_t> merged = {
      {"/home/a/site-packages/m.py(1): f;nn.Module: Block_0;aten::mm", 5},
      {"/home/a/site-packages/m.py(1): f;nn.Module: Block_1;aten::mm", 7},
      {"x", 1}};
  CHECK(report::RelabelStacks(merged, {true, true}) ==
        std::map<std::string, int64_t>{{"m.py(1): f;nn.Module: Block_*;aten::mm", 12}, {"x", 1}});
  CHECK(report::RelabelStacks(merged, {false, false}) == merged);
  // export_stacks lines keep their order and weights; only frames change.
  CHECK(report::RelabelLines("a;nn.Module:_B_0 3\na;nn.Module:_B_1 4\n", {true, false}) ==
        "a;nn.Module:_B_* 3\na;nn.Module:_B_* 4\n");
}
