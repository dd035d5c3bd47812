#include "profana/passes/stack_text.h"

#include "profana/base/int_sum.h"
#include "profana/base/terminal_text.h"

namespace profana::passes {

const std::string& StackText::Get(StackId node) {
  if (done_[node.value]) return memo_[node.value];
  std::vector<uint32_t> path;
  for (uint32_t n = node.value; n != 0 && !done_[n]; n = samples_.trie.parent[n].value)
    path.push_back(n);
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    uint32_t n = *it, parent = samples_.trie.parent[n].value;
    std::string text = parent ? memo_[parent] + ";" : "";
    text += FrameText(strings_, samples_, StackId(n), export_text_);
    memo_[n] = std::move(text);
    done_[n] = 1;
  }
  return memo_[node.value];
}

std::string FrameText(const StringPool& strings, const StackSamples& samples, StackId node,
                      bool export_text) {
  std::string_view name = strings.Get(samples.trie.frame[node.value]);
  if (node == samples.orphan_root && node.value) name = StackSamples::kOrphanFrame;
  if (samples.trie.depth[node.value] > kMaxStackFrames) name = StackSamples::kDeeperFrame;
  // A name of megabytes would be repeated on every line under it: the frame keeps its start.
  constexpr size_t kMaxFrameText = 4096;
  std::string text(name.substr(0, kMaxFrameText));
  if (name.size() > kMaxFrameText) text += "[...]";
  for (char& c : text)
    if ((export_text && c == ' ') || c == ';' || c == '\t' || c == '\n') c = '_';
  return Printable(text);
}

std::map<std::string, int64_t> MergeStacks(const StringPool& strings, const StackSamples& samples,
                                           bool export_text) {
  std::vector<int64_t> per_node(samples.trie.size(), 0);
  for (size_t i = 0; i < samples.stack.size(); ++i) {
    int64_t w = samples.weight_ns[i];
    if (w > 0 && samples.stack[i].value) {
      int64_t& sum = per_node[samples.stack[i].value];
      sum = SatAdd(sum, w);
    }
  }
  StackText text(strings, samples, export_text);
  std::map<std::string, int64_t> merged;
  for (uint32_t n = 1; n < per_node.size(); ++n)
    if (per_node[n]) {
      int64_t& sum = merged[text.Get(StackId(n))];
      sum = SatAdd(sum, per_node[n]);
    }
  return merged;
}

}  // namespace profana::passes
