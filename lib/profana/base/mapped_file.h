// MappedFile: a whole regular file mapped read-only into memory, so a reader can look at its bytes
// without copying them. Not for pipes or stdin (ReadInput handles those).
//
// A mapped file that shrinks while it is mapped (another program truncating it) raises SIGBUS
// where its lost pages are touched, where read() would have said the file ended: the program's
// SIGBUS handler reports it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "profana/base/input_file.h"
#include "profana/base/status.h"

namespace profana {

// For the program's SIGBUS handler: the name of the mapped file whose pages hold `address`, or
// null (not a file profana mapped, or more files mapped at once than are kept). Only reads
// memory: async-signal-safe.
const char* MappedFileAt(const void* address);
// How the names MappedFileAt returns are shown (the app's escaping of text for a terminal): set
// once, before any file is mapped. Without it they are kept as given.
void SetMappedFileNameStyle(std::string (*show)(std::string_view name));

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(MappedFile&& o) noexcept { *this = std::move(o); }
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Maps `path`; an empty file maps to an empty view. Fails for anything but a regular file.
  // `padding` bytes past the end read as zeros (a block scanner's or simdjson's overread);
  // `read_ahead` asks the kernel to read the whole file in at once (a reader of every section).
  static Result<MappedFile> Open(const std::string& path, size_t padding = 0,
                                 bool read_ahead = true);
  // The same from an input already open (base/input_file.h), without opening it again.
  static Result<MappedFile> Open(const InputFile& input, size_t padding = 0,
                                 bool read_ahead = true);

  std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

 private:
  static Result<MappedFile> Map(int fd, const std::string& path, size_t padding,
                                bool read_ahead);  // leaves fd open
  void Forget();  // unmaps, and drops the name MappedFileAt knows it by

  void* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_ = 0;  // bytes of address space held: the file's pages and the padding's
};

}  // namespace profana
