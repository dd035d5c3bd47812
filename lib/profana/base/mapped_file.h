// MappedFile: a whole regular file mapped read-only into memory, so a binary reader can look at
// its bytes without copying them. Not for pipes or stdin (ReadInput handles those).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "profana/base/status.h"

namespace profana {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(MappedFile&& o) noexcept { *this = std::move(o); }
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // Maps `path`; an empty file maps to an empty view. Fails for anything but a regular file.
  static Result<MappedFile> Open(const std::string& path);

  std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace profana
