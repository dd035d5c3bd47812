// InputFile: an input opened once. The question what the input is (its first bytes), and then
// each way of reading it (ByteSource's stream, MappedFile's map, ReadInput's whole read), work
// from this one descriptor, each at offsets of its own, so no reader opens the path again: a file
// renamed or replaced between the sniff and the load is still the file that was sniffed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "profana/base/status.h"

namespace profana {

class InputFile {
 public:
  // "-" is standard input. Errors: "NAME: cannot open: REASON", "NAME: is a directory".
  static Result<InputFile> Open(const std::string& path);

  InputFile(InputFile&& o) noexcept { *this = std::move(o); }
  InputFile& operator=(InputFile&& o) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  const std::string& path() const { return path_; }
  int fd() const { return fd_; }
  bool is_stdin() const { return path_ == "-"; }
  // A regular file: sized, mappable, readable at any offset. Standard input, a pipe or a device
  // can be read only once, front to back, and only whole (ReadInput).
  bool regular() const { return regular_; }
  uint64_t size() const { return size_; }  // on disk; regular files only

  // Up to the first n bytes of the content, gunzipped where the file is; empty for what is not
  // a regular file (reading its head would consume it). Kept, so asking again costs nothing.
  std::string_view Head(size_t n);
  // The same read into *buffer, not kept: a reader of many files' heads reuses one buffer. (One
  // freed per file, the small allocations made between them split the holes, and the heap grew by
  // a head per file of a job's directory.)
  std::string_view HeadInto(size_t n, std::string* buffer) const;
  // Lets go of the bytes Head kept (a later Head reads them again).
  void ForgetHead() {
    head_ = std::string();
    head_asked_ = 0;
  }

 private:
  InputFile() = default;
  int fd_ = -1;
  std::string path_;
  bool regular_ = false;
  uint64_t size_ = 0;
  std::string head_;
  size_t head_asked_ = 0;  // the most Head was asked for
};

}  // namespace profana
