// OutputSink: where a reporter writes an output too big to hold whole (the op tree of a 1 GB
// trace is ~280 MB of text), a chunk at a time. The library only hands bytes to a sink; apps/
// decides where they go (a file, standard output, a string).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "profana/base/status.h"

namespace profana {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // Takes the next bytes of the output; a failure (a full disk) ends the report with it.
  virtual Status Write(std::string_view bytes) = 0;
  // Write, from a buffer the caller is done with: a sink that keeps the bytes (to write them on
  // another thread) may swap the buffer for one of its own instead of copying hundreds of MB.
  // *chunk is then empty, its capacity whatever the sink gave back.
  virtual Status Take(std::string* chunk) {
    Status written = Write(*chunk);
    chunk->clear();
    return written;
  }
};

// Appends everything to one string: for tests, and where the output goes to a string anyway.
class StringSink final : public OutputSink {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  Status Write(std::string_view bytes) override {
    out_->append(bytes);
    return Status::Ok();
  }

 private:
  std::string* out_;
};

// A reporter's buffer in front of a sink: text is appended to text() and handed over whenever it
// reaches a chunk, so memory stays at one chunk however long the output. The first failed write
// is kept and returned by Finish(); later text is dropped instead of written.
class ChunkedOutput {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 20;

  explicit ChunkedOutput(OutputSink* sink) : sink_(sink) { text_.reserve(kChunkBytes + 4096); }

  std::string* text() { return &text_; }
  // Call between records: writes the buffer out once it holds a chunk.
  void MaybeFlush() {
    if (text_.size() < kChunkBytes) return;
    Flush();
    if (text_.capacity() < kChunkBytes) text_.reserve(kChunkBytes + 4096);  // a sink's swapped one
  }
  // Writes what is left; the status of the whole output.
  Status Finish() {
    Flush();
    return status_;
  }

 private:
  void Flush() {
    if (status_.ok() && !text_.empty()) status_ = sink_->Take(&text_);
    text_.clear();
  }

  OutputSink* sink_;
  std::string text_;
  Status status_;
};

}  // namespace profana
