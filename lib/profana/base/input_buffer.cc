#include "profana/base/input_buffer.h"

#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "fmt/format.h"
#include "profana/base/byte_size.h"
#include "profana/base/input_name.h"

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
  std::string_view view() const { return {data_.get(), size_}; }
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

// The least room a read() is given.
constexpr size_t kMinRoom = size_t{1} << 16;

Status ReadAll(int fd, const std::string& name, const InputLimits& limits, PaddedBytes* bytes) {
  const uint64_t limit = limits.max_bytes;
  auto could_start = limits.could_start;
  struct stat st;
  uint64_t total = 0;  // unknown for a pipe
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    total = static_cast<uint64_t>(st.st_size);
    if (limit && static_cast<uint64_t>(st.st_size) > limit)
      return TooLargeError(name, "byte 0",
                           "is " + FormatBytes(static_cast<int64_t>(st.st_size)) + ", more than",
                           limit);
    // Room for the read that finds the end too: growing the buffer then would copy the whole
    // file and, for a moment, hold it twice.
    bytes->Reserve(static_cast<size_t>(st.st_size) + kMinRoom);
  }
  for (;;) {
    if (limit && bytes->size() > limit)  // a pipe, or a file that grew while read
      return TooLargeError(name, fmt::format("byte {}", bytes->size()), "is longer than", limit);
    if (bytes->room() < kMinRoom) bytes->Reserve(bytes->size() + (1 << 20));
    ssize_t n = read(fd, bytes->tail(), bytes->room());
    if (n == 0) return Status::Ok();
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status(ErrorCode::kIo, fmt::format("{}: read failed: {}", name, std::strerror(errno)));
    }
    bytes->Grow(static_cast<size_t>(n));
    if (limits.progress) limits.progress(bytes->size(), std::max<uint64_t>(total, bytes->size()));
    if (could_start && bytes->size() >= kSniffBytes) {
      if (!could_start(bytes->view().substr(0, kSniffBytes))) return Status::Ok();
      could_start = nullptr;
    }
  }
}

// zlib's words for the damage ISA-L reports, so messages read the same whichever inflated.
const char* InflateError(int rc) {
  switch (rc) {
    case ISAL_INVALID_BLOCK:
      return "invalid block";
    case ISAL_INVALID_SYMBOL:
      return "invalid code";
    case ISAL_INVALID_LOOKBACK:
      return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER:
      return "invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD:
      return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM:
      return "incorrect data check";
    default:
      return "inflate failed";
  }
}

// Where the compressed bytes stop making sense: the first byte whose arrival makes inflation
// fail. ISA-L decodes ahead, 8 bytes at a time, and notices damage some bytes after it, at
// `found_at`; so the failing call is replayed from its saved state, in one piece up to a margin
// before found_at, then a byte at a time. Runs only on damaged input.
size_t FirstBadByte(std::string_view in, size_t call_start, size_t found_at,
                    const inflate_state& before) {
  auto s = std::make_unique<inflate_state>();
  const uint8_t* base = reinterpret_cast<const uint8_t*>(in.data());
  for (size_t margin = 256; margin < (size_t{1} << 40); margin *= 64) {
    *s = before;  // the same output place too: what the call wrote is written again, unchanged
    size_t bulk_end = found_at > call_start + margin ? found_at - margin : call_start;
    s->next_in = const_cast<uint8_t*>(base + call_start);
    s->avail_in = static_cast<uint32_t>(bulk_end - call_start);
    if (isal_inflate(s.get()) < 0) continue;  // the damage is further back: a wider margin
    for (size_t at = bulk_end; at < in.size(); ++at) {
      s->next_in = const_cast<uint8_t*>(base + at);
      s->avail_in = 1;
      int rc = isal_inflate(s.get());
      if (rc < 0) return at + 1 - s->avail_in;
      if (s->avail_in || s->block_state == ISAL_BLOCK_FINISH) break;  // cannot happen: give up
    }
    break;
  }
  return found_at;
}

// Inflates every gzip member of `in` (ISA-L, as the streaming reader does). A stream that stops
// early keeps what was inflated and records where; corrupt data is an error naming the
// compressed offset.
Status Gunzip(std::string_view in, uint64_t limit, InputBuffer* out) {
  PaddedBytes bytes;
  // The trailer's ISIZE is the uncompressed size mod 2^32: a good first guess, never trusted
  // past the limit (it is the file's word, and a bomb's is a lie), nor past what deflate can
  // expand to (1032:1): the last four bytes of a cut stream are compressed data, and would
  // otherwise reserve up to 4 GiB for a file of a few hundred bytes.
  constexpr uint64_t kMaxDeflateRatio = 1032;
  if (in.size() >= 18) {
    uint32_t isize;
    std::memcpy(&isize, in.data() + in.size() - 4, 4);
    if (isize > in.size() && isize <= kMaxDeflateRatio * in.size())
      bytes.Reserve(limit ? std::min<uint64_t>(isize, limit + 1) : isize);
  }
  // Tens of KiB each: on the heap. `before` is the state as the current call began; the output
  // grows geometrically, so calls (and copies) are few.
  auto state = std::make_unique<inflate_state>();
  auto before = std::make_unique<inflate_state>();
  inflate_state& s = *state;
  isal_inflate_init(&s);
  s.crc_flag = ISAL_GZIP;
  const uint8_t* base = reinterpret_cast<const uint8_t*>(in.data());
  size_t consumed = 0;
  for (;;) {
    if (bytes.room() < (1 << 16)) {
      size_t want = bytes.size() + std::max<size_t>(bytes.size() / 2, 1 << 20);
      bytes.Reserve(
          limit ? std::min<uint64_t>(want, std::max<uint64_t>(limit + 1, bytes.size() + (1 << 16)))
                : want);
    }
    size_t avail_in = std::min<size_t>(in.size() - consumed, 1u << 30);
    s.next_in = const_cast<uint8_t*>(base + consumed);
    s.avail_in = static_cast<uint32_t>(avail_in);
    size_t room = std::min<size_t>(bytes.room(), 1u << 30);
    s.next_out = reinterpret_cast<uint8_t*>(bytes.tail());
    s.avail_out = static_cast<uint32_t>(room);
    *before = s;
    int rc = isal_inflate(&s);
    size_t call_start = consumed;
    consumed += avail_in - s.avail_in;
    bytes.Grow(room - s.avail_out);
    // The bytes decoded so far: ISA-L holds up to 8 read bytes as bits not yet used.
    size_t decoded = consumed - static_cast<size_t>(std::max(s.read_in_length, 0) / 8);
    if (limit && bytes.size() > limit)
      return TooLargeError(out->name, fmt::format("compressed byte {}", decoded), "inflates past",
                           limit);
    if (rc < 0)
      return Status(ErrorCode::kMalformed,
                    fmt::format("{}: compressed byte {}: corrupt gzip data ({})", out->name,
                                FirstBadByte(in, call_start, decoded, *before), InflateError(rc)));
    if (s.block_state == ISAL_BLOCK_FINISH) {
      // Another member may follow (concatenated gzip files are one valid gzip file).
      if (consumed < in.size() && HasGzipMagic(in.substr(consumed))) {
        isal_inflate_reset(&s);
        s.crc_flag = ISAL_GZIP;
        continue;
      }
      break;
    }
    if (consumed >= in.size() && s.avail_out > 0) {  // wants more input, and there is none
      out->gzip_truncated = true;
      out->gzip_truncated_at = in.size();
      break;
    }
    if (consumed == call_start && s.avail_out == room)  // no progress with input and room left
      return Status(ErrorCode::kMalformed,
                    fmt::format("{}: compressed byte {}: corrupt gzip data ({})", out->name,
                                decoded, InflateError(rc)));
  }
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
  PROFANA_ASSIGN_OR_RETURN(InputFile file, InputFile::Open(path));
  return ReadInput(file, limits);
}

Result<InputBuffer> ReadInput(const InputFile& file, const InputLimits& limits) {
  std::string name = InputName(file.path());
  // Its own descriptor of the one open file, read from the start whoever read it before.
  int fd = file.is_stdin() ? STDIN_FILENO : fcntl(file.fd(), F_DUPFD_CLOEXEC, 0);
  if (fd < 0 || (file.regular() && lseek(fd, 0, SEEK_SET) < 0)) {
    int e = errno;
    if (fd >= 0) close(fd);
    return Status(ErrorCode::kIo, fmt::format("{}: read failed: {}", name, std::strerror(e)));
  }
  PaddedBytes raw;
  Status status = ReadAll(fd, name, limits, &raw);
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
