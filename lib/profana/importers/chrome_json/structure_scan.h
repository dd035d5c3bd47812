// Finds where the elements of a JSON array end without parsing them: 64 bytes at a time, it
// marks escaped characters, strings (quotes paired by a prefix XOR) and the brackets outside
// strings, and keeps the nesting depth. The streaming importer uses it to cut the traceEvents
// array into runs of whole events; a cut therefore never falls inside a string, whatever the
// string holds (escaped quotes, brackets, braces).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace profana::json {

struct ScanState {
  uint64_t prev_escaped = 0;      // 1 when the last block ended in an unpaired backslash
  uint64_t prev_in_string = 0;    // all ones when the last block ended inside a string
  int64_t depth = 0;              // open containers, counted from the array's inside (0)
  int64_t max_depth = INT64_MAX;  // the deepest level allowed inside the array
};

struct ScanResult {
  size_t next = 0;              // where scanning stopped (a multiple of 64 after begin, or end)
  size_t last_element_end = 0;  // one past the last container closed back to depth 0 (0: none)
  size_t array_close = 0;       // position of the bracket closing the array, + 1 (0: not seen)
  // A block may nest deeper than state->max_depth (its depth plus its opening brackets pass it):
  // scanning stopped there. The caller finds out exactly, and where, with the whole text.
  bool maybe_too_deep = false;
};

// Scans data[begin, end). Blocks read 64 bytes: data must be readable (zero padding) up to
// end + 64. With more_to_come, a tail shorter than 64 bytes is left for the next call, so a
// block never straddles two reads; without it, the tail is scanned (the padding is zeros, which
// are neither quotes nor brackets). Stops early after the array's closing bracket, or once
// stop_after is passed with an element end seen (the batch is big enough).
ScanResult ScanArrayElements(const char* data, size_t begin, size_t end, bool more_to_come,
                             size_t stop_after, ScanState* state);

// The opening brackets ('{' and '[', strings not told apart) in data's 64-byte blocks: before[k]
// is how many the blocks before block k hold, for k up to the last block + 1. Text holding no more
// than n of them nests no deeper than n, which costs no scan. The same blocks: data must be
// readable (zero padding) up to size + 64.
void CountOpeningBrackets(const char* data, size_t size, std::vector<uint32_t>* before);

// Whether a bracket outside strings in data[0, size) opens a level deeper than max_depth. The same
// 64-byte blocks: data must be readable (zero padding) up to size + 64.
bool NestsDeeperThan(const char* data, size_t size, int64_t max_depth);

}  // namespace profana::json
