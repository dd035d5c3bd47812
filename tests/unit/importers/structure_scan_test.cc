// The element scanner (64-byte blocks, masks, carry-less prefix XOR, branchless bracket walk)
// against a byte-by-byte reading of the same text: on random runs of quotes, backslashes and
// brackets, both find the same last element end, the same array close and the same depth.
#include "profana/importers/chrome_json/structure_scan.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

struct Expected {
  size_t last_element_end = 0, array_close = 0;
  int64_t depth = 0;
};

// The reference: one byte at a time. A quote after an odd run of backslashes does not open or
// close a string, as simdjson's stage 1 reads it; other bytes count whatever precedes them (a
// backslash outside a string is invalid JSON, which the parser reports).
Expected ReadByteByByte(const std::string& text) {
  Expected e;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool after_escape = escaped;
    escaped = c == '\\' && !after_escape;
    if (c == '"') {
      if (!after_escape) in_string = !in_string;
    } else if (in_string) {
      continue;
    } else if (c == '{' || c == '[') {
      ++e.depth;
    } else if (c == '}' || c == ']') {
      if (--e.depth == 0) e.last_element_end = i + 1;
      if (e.depth < 0) {
        e.array_close = i + 1;
        return e;
      }
    }
  }
  return e;
}

}  // namespace

TEST_CASE("the element scanner agrees with a byte-by-byte reading", "[streaming]") {
  const char alphabet[] = {'"', '\\', '{', '}', '[', ']', 'a', ',', ' '};
  uint64_t state = 12345;
  auto next = [&] {
    return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33;
  };
  for (int trial = 0; trial < 3000; ++trial) {
    INFO("trial " << trial);
    // Opening brackets weigh more, so that most texts stay inside the array for a while. Every
    // other text is mostly plain letters: blocks without a backslash, some after a block that
    // ends in one.
    size_t size = 1 + next() % 700;
    bool sparse = trial % 2 == 1;
    std::string text;
    for (size_t i = 0; i < size; ++i) {
      uint64_t r = next() % (sparse ? 96 : 16);
      text += r >= 16 ? 'a' : r < 3 ? '{' : r < 5 ? '[' : alphabet[r % sizeof(alphabet)];
    }
    Expected want = ReadByteByByte(text);
    std::string padded = text + std::string(64, '\0');
    profana::json::ScanState scan;
    profana::json::ScanResult got =
        profana::json::ScanArrayElements(padded.data(), 0, text.size(), false, SIZE_MAX, &scan);
    REQUIRE(!got.maybe_too_deep);
    CHECK(got.array_close == want.array_close);
    CHECK(got.last_element_end == want.last_element_end);
    if (!want.array_close) {
      CHECK(scan.depth == want.depth);
      CHECK(got.next == text.size());
    }
  }
}
