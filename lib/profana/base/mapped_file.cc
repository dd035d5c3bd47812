#include "profana/base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "fmt/format.h"

namespace profana {

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    if (data_) munmap(data_, size_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_) munmap(data_, size_);
}

Result<MappedFile> MappedFile::Open(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status(ErrorCode::kIo, fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Status(ErrorCode::kIo, fmt::format("{}: not a regular file", path));
  }
  MappedFile file;
  if (st.st_size > 0) {
    void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      close(fd);
      return Status(ErrorCode::kIo, fmt::format("{}: cannot map: {}", path, std::strerror(e)));
    }
    // The reader reads every section right away: ask for read-ahead.
    madvise(p, static_cast<size_t>(st.st_size), MADV_WILLNEED);
    file.data_ = p;
    file.size_ = static_cast<size_t>(st.st_size);
  }
  close(fd);
  return file;
}

}  // namespace profana
