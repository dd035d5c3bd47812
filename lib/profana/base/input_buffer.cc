#include "profana/base/input_buffer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "fmt/format.h"

namespace profana {
namespace {

// A growable byte buffer that always keeps kInputPadding zeroed bytes after its content.
class PaddedBytes {
 public:
  void Reserve(size_t n) {
    if (n + kInputPadding <= capacity_) return;
    size_t cap = std::max(n + kInputPadding, capacity_ * 2);
    std::unique_ptr<char[]> grown(new char[cap]);
    if (size_) std::memcpy(grown.get(), data_.get(), size_);
    data_.swap(grown);
    capacity_ = cap;
  }
  char* tail() { return data_.get() + size_; }
  size_t room() const {
    return capacity_ > kInputPadding + size_ ? capacity_ - kInputPadding - size_ : 0;
  }
  void Grow(size_t n) { size_ += n; }
  size_t size() const { return size_; }
  void Finish(InputBuffer* out) {
    Reserve(size_);
    std::memset(data_.get() + size_, 0, kInputPadding);
    out->data = std::move(data_);
    out->size = size_;
  }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

Status ReadAll(int fd, const std::string& name, uint64_t limit, PaddedBytes* bytes) {
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (limit && static_cast<uint64_t>(st.st_size) > limit)
      return TooLargeError(name, "byte 0", "is " + FormatByteSize(st.st_size) + ", more than",
                           limit);
    bytes->Reserve(static_cast<size_t>(st.st_size));
  }
  for (;;) {
    if (limit && bytes->size() > limit)  // a pipe, or a file that grew while read
      return TooLargeError(name, fmt::format("byte {}", bytes->size()), "is longer than", limit);
    if (bytes->room() < (1 << 16)) bytes->Reserve(bytes->size() + (1 << 20));
    ssize_t n = read(fd, bytes->tail(), bytes->room());
    if (n == 0) return Status::Ok();
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status(ErrorCode::kIo, fmt::format("{}: read failed: {}", name, std::strerror(errno)));
    }
    bytes->Grow(static_cast<size_t>(n));
  }
}

// Inflates every gzip member of `in`. A stream that stops early keeps what was inflated and
// records where; corrupt data is an error naming the compressed offset.
Status Gunzip(std::string_view in, uint64_t limit, InputBuffer* out) {
  PaddedBytes bytes;
  // The trailer's ISIZE is the uncompressed size mod 2^32: a good first guess, never trusted
  // past the limit (it is the file's word, and a bomb's is a lie).
  if (in.size() >= 18) {
    uint32_t isize;
    std::memcpy(&isize, in.data() + in.size() - 4, 4);
    if (isize > in.size()) bytes.Reserve(limit ? std::min<uint64_t>(isize, limit + 1) : isize);
  }
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK)
    return Status(ErrorCode::kInternal, out->name + ": cannot initialise zlib");
  size_t consumed = 0;
  Status status;
  for (;;) {
    if (bytes.room() < (1 << 16)) {
      size_t want = bytes.size() + std::max<size_t>(bytes.size() / 2, 1 << 20);
      bytes.Reserve(
          limit ? std::min<uint64_t>(want, std::max<uint64_t>(limit + 1, bytes.size() + (1 << 16)))
                : want);
    }
    size_t avail_in = std::min<size_t>(in.size() - consumed, 1u << 30);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
    zs.avail_in = static_cast<uInt>(avail_in);
    size_t room = std::min<size_t>(bytes.room(), 1u << 30);
    zs.next_out = reinterpret_cast<Bytef*>(bytes.tail());
    zs.avail_out = static_cast<uInt>(room);
    int rc = inflate(&zs, Z_NO_FLUSH);
    consumed += avail_in - zs.avail_in;
    bytes.Grow(room - zs.avail_out);
    if (limit && bytes.size() > limit) {
      status = TooLargeError(out->name, fmt::format("compressed byte {}", consumed),
                             "inflates past", limit);
      break;
    }
    if (rc == Z_STREAM_END) {
      // Another member may follow (concatenated gzip files are one valid gzip file).
      if (consumed < in.size() && HasGzipMagic(in.substr(consumed))) {
        inflateReset(&zs);
        continue;
      }
      break;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && consumed >= in.size()) {
      out->gzip_truncated = true;
      out->gzip_truncated_at = consumed;
      break;
    }
    if (rc == Z_BUF_ERROR) continue;
    status = Status(ErrorCode::kMalformed,
                    fmt::format("{}: compressed byte {}: corrupt gzip data ({})", out->name,
                                consumed, zs.msg ? zs.msg : "inflate failed"));
    break;
  }
  inflateEnd(&zs);
  if (!status.ok()) return status;
  bytes.Finish(out);
  return Status::Ok();
}

Result<InputBuffer> FromRaw(PaddedBytes raw, std::string name, uint64_t limit) {
  InputBuffer out;
  out.name = std::move(name);
  out.max_bytes = limit;
  raw.Finish(&out);
  if (!HasGzipMagic(out.view())) return out;
  InputBuffer inflated;
  inflated.name = out.name;
  inflated.max_bytes = limit;
  inflated.gzipped = true;
  inflated.compressed_size = out.size;
  PROFANA_RETURN_IF_ERROR(Gunzip(out.view(), limit, &inflated));
  return inflated;
}

}  // namespace

bool HasGzipMagic(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Result<InputBuffer> ReadInput(const std::string& path, const InputLimits& limits) {
  std::string name = path == "-" ? "<stdin>" : path;
  int fd = path == "-" ? STDIN_FILENO : open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status(ErrorCode::kIo, fmt::format("{}: cannot open: {}", name, std::strerror(errno)));
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    return Status(ErrorCode::kIo, fmt::format("{}: is a directory", name));
  }
  PaddedBytes raw;
  Status status = ReadAll(fd, name, limits.max_bytes, &raw);
  if (fd != STDIN_FILENO) close(fd);
  PROFANA_RETURN_IF_ERROR(status);
  return FromRaw(std::move(raw), std::move(name), limits.max_bytes);
}

Result<InputBuffer> InputFromBytes(std::string_view bytes, std::string name,
                                   const InputLimits& limits) {
  PaddedBytes raw;
  raw.Reserve(bytes.size());
  if (!bytes.empty()) std::memcpy(raw.tail(), bytes.data(), bytes.size());
  raw.Grow(bytes.size());
  return FromRaw(std::move(raw), std::move(name), limits.max_bytes);
}

}  // namespace profana
