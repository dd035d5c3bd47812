// How flamegraph frames are named: numbered module instances folded into one frame
// (--fold-instances) and Python frames' file paths shortened for display (--full-paths keeps
// them). Both work on folded stack text ("a;b;c") and re-merge stacks that become equal.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace profana::report {

// "nn.Module: Block_12" (or export_stacks' "nn.Module:_Block_12") -> "nn.Module: Block_*"
// ("nn.Module:_Block_*"): the instance number PyTorch appends to a module's class name is
// dropped, so Block_0 ... Block_35 become one frame. Any other frame is returned unchanged.
std::string FoldInstance(std::string_view frame);

// A Python frame "PATH(LINE): FUNC" with PATH's prefix up to site-packages/ or dist-packages/,
// or a home directory (/home/USER/, /Users/USER/, /root/), removed:
// "/home/a/venv/lib/python3.10/site-packages/torch/nn/modules/module.py(1501): _call_impl" ->
// "torch/nn/modules/module.py(1501): _call_impl". Any other frame is returned unchanged.
std::string ShortFramePath(std::string_view frame);

struct FrameLabels {
  bool fold_instances = false;
  bool short_paths = false;
};
// Every frame of one stack ("a;b;c") relabelled.
std::string RelabelStack(std::string_view stack, FrameLabels labels);
// Every frame of every stack relabelled; stacks that become equal are summed.
std::map<std::string, int64_t> RelabelStacks(const std::map<std::string, int64_t>& merged,
                                             FrameLabels labels);
// The same on "stack weight" lines (export_stacks' output), line order kept.
std::string RelabelLines(std::string_view lines, FrameLabels labels);

}  // namespace profana::report
