// A stack of StackSamples as text: its frames root first, joined by ';', each frame as a
// flamegraph line shows it. The text a summary keeps for a rank's stacks and the stacks reporter
// prints.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profana/base/string_pool.h"
#include "profana/passes/stacks.h"

namespace profana::passes {

// The frame's text as a flamegraph line shows it: printable, ';', tab and newline as "_" (and,
// with `export_text`, spaces too, as export_stacks writes them), cut after 4096 bytes. Frames are
// StringIds of `strings`, the pool of the trace the samples came from.
std::string FrameText(const StringPool& strings, const StackSamples& samples, StackId node,
                      bool export_text = true);

// Root-first frames joined by ';'. Memoised per node: many samples share a stack.
class StackText {
 public:
  StackText(const StringPool& strings, const StackSamples& samples, bool export_text)
      : strings_(strings),
        samples_(samples),
        export_text_(export_text),
        memo_(samples.trie.size()),
        done_(samples.trie.size(), 0) {}
  const std::string& Get(StackId node);

 private:
  const StringPool& strings_;
  const StackSamples& samples_;
  bool export_text_;
  std::vector<std::string> memo_;
  std::vector<uint8_t> done_;
};

// Distinct stack text -> summed exact weight in nanoseconds of the samples with a positive
// weight. Without `export_text`, frames keep their spaces (the flamegraph SVG's names; only ";",
// tab and newline become "_").
std::map<std::string, int64_t> MergeStacks(const StringPool& strings, const StackSamples& samples,
                                           bool export_text = true);

}  // namespace profana::passes
