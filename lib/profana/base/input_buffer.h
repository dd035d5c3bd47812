// InputBuffer holds the bytes of one input (a file, or stdin for "-"), gunzipped when the bytes
// start with the gzip magic 1f 8b (never by file name), with zeroed padding after the end so
// simdjson may read past it. Nothing here knows about trace formats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "profana/base/input_file.h"
#include "profana/base/memory_limit.h"
#include "profana/base/progress.h"
#include "profana/base/status.h"

namespace profana {

// simdjson reads up to 64 bytes past the end of its input.
constexpr size_t kInputPadding = 64;

struct InputBuffer {
  std::unique_ptr<char[]> data;
  size_t size = 0;   // bytes of content (after gunzip)
  std::string name;  // what messages call this input ("<stdin>" for "-")
  bool gzipped = false;
  uint64_t compressed_size = 0;
  // Set when a gzip stream ends early: the compressed offset where it stopped. The content
  // inflated so far is kept, and importers treat it like a truncated file.
  bool gzip_truncated = false;
  uint64_t gzip_truncated_at = 0;
  // The --max-memory budget the content was read under (0: none); importers that derive more
  // data than they read (SQLite's computed values) hold it to the same budget.
  uint64_t max_bytes = 0;

  std::string_view view() const { return {data.get(), size}; }
};

// How much content one input may hold (docs: memory_limit.h, --max-memory).
struct InputLimits {
  uint64_t max_bytes = DefaultMaxMemory();  // content after gunzip; 0 = no limit
  // Asked once about the first kSniffBytes read (or the whole input, if shorter): false when no
  // format can start with them. Reading then stops, so an endless or huge input that is no trace
  // (/dev/zero) fails at once instead of after max_bytes. Null reads on regardless.
  bool (*could_start)(std::string_view first_bytes) = nullptr;
  // Told after each read (the file's bytes, compressed where it is gzipped); may be empty.
  ProgressFn progress;
};

constexpr size_t kSniffBytes = 4096;

// Reads a whole input. path "-" reads standard input. Content beyond limits.max_bytes (a big
// file, a gzip bomb) is a kTooLarge error, found before the memory is spent. When
// limits.could_start rejects the first bytes, only those are read.
Result<InputBuffer> ReadInput(const std::string& path, const InputLimits& limits = {});
// The same from an input already open (base/input_file.h), from its first byte.
Result<InputBuffer> ReadInput(const InputFile& file, const InputLimits& limits = {});
// Wraps bytes already in memory (tests, fuzzers); gunzips like ReadInput.
Result<InputBuffer> InputFromBytes(std::string_view bytes, std::string name,
                                   const InputLimits& limits = {});

bool HasGzipMagic(std::string_view bytes);

}  // namespace profana
