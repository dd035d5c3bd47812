#include "profana/base/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "fmt/format.h"
#include "profana/base/byte_source.h"
#include "profana/base/input_name.h"

namespace profana {

Result<InputFile> InputFile::Open(const std::string& path) {
  InputFile file;
  file.path_ = path;
  std::string name = InputName(path);
  file.fd_ = path == "-" ? STDIN_FILENO : open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd_ < 0)
    return Status(ErrorCode::kIo, fmt::format("{}: cannot open: {}", name, std::strerror(errno)));
  struct stat st;
  if (fstat(file.fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status(ErrorCode::kIo, fmt::format("{}: is a directory", name));
    file.regular_ = S_ISREG(st.st_mode) && !file.is_stdin();
    if (file.regular_) file.size_ = static_cast<uint64_t>(st.st_size);
  }
  return file;
}

InputFile& InputFile::operator=(InputFile&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0 && !is_stdin()) close(fd_);
    fd_ = o.fd_;
    path_ = std::move(o.path_);
    regular_ = o.regular_;
    size_ = o.size_;
    head_ = std::move(o.head_);
    head_asked_ = o.head_asked_;
    o.fd_ = -1;
  }
  return *this;
}

InputFile::~InputFile() {
  if (fd_ >= 0 && !is_stdin()) close(fd_);
}

std::string_view InputFile::Head(size_t n) {
  if (n > head_asked_ && head_.size() == head_asked_) {  // more was asked, and there may be more
    HeadInto(n, &head_);
    head_asked_ = n;
  }
  return std::string_view(head_).substr(0, n);
}

std::string_view InputFile::HeadInto(size_t n, std::string* buffer) const {
  buffer->clear();
  if (!regular_) return {};
  std::unique_ptr<ByteSource> src = ByteSource::Open(*this);
  if (!src) return {};
  buffer->resize(n);
  size_t got = 0;
  while (got < n) {
    size_t r = src->Read(buffer->data() + got, n - got);
    if (r == 0) break;
    got += r;
  }
  buffer->resize(got);
  return *buffer;
}

}  // namespace profana
