#include "profana/base/byte_source.h"

#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace profana {

namespace {
constexpr size_t kCompressedRead = 1 << 20;
constexpr size_t kBlock = 4 << 20;
constexpr int kBlocksAhead = 3;
}  // namespace

struct ByteSource::Gzip {
  inflate_state state;
  std::vector<uint8_t> in;  // compressed bytes read but not yet inflated: in[next, end)
  size_t next = 0, end = 0;
  bool eof = false;  // the file has no more compressed bytes

  // Inflated blocks handed from the inflater thread to Read, in order.
  struct Block {
    std::vector<char> bytes;
    size_t size = 0;
    // Once inflated: the content bytes through this block, and the compressed bytes they took.
    uint64_t content_to = 0, compressed_to = 0;
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Block> ready;   // inflated, not yet read
  std::vector<Block> spare;  // read, to be refilled
  bool done = false;         // the inflater has finished (all blocks are in `ready`)
  bool stop = false;         // the reader is gone
  Block current;             // the block Read is consuming
  size_t current_at = 0;
  uint64_t inflated = 0;                         // the inflater thread's count of content bytes
  uint64_t end_content = 0, end_compressed = 0;  // the counts when the inflater finished
  // The last block taken by Read: its content_to and compressed_to (Read's thread).
  uint64_t taken_content = 0, taken_compressed = 0;
  std::thread inflater;
};

std::unique_ptr<ByteSource> ByteSource::Open(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  return FromDescriptor(fd);
}

std::unique_ptr<ByteSource> ByteSource::Open(const InputFile& file) {
  if (!file.regular()) return nullptr;
  // Its own descriptor of the one open file: reads go by offset (pread), so the file's other
  // readers are not disturbed.
  int fd = fcntl(file.fd(), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return nullptr;
  return FromDescriptor(fd);
}

std::unique_ptr<ByteSource> ByteSource::FromDescriptor(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return nullptr;
  }
  std::unique_ptr<ByteSource> source(new ByteSource());
  source->fd_ = fd;
  source->file_bytes_ = static_cast<uint64_t>(st.st_size);
  unsigned char magic[2] = {0, 0};
  ssize_t got = pread(fd, magic, 2, 0);
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    source->gzipped_ = true;
    source->gz_ = std::make_unique<Gzip>();
    source->gz_->in.resize(kCompressedRead);
    isal_inflate_init(&source->gz_->state);
    source->gz_->state.crc_flag = ISAL_GZIP;
    source->gz_->inflater = std::thread(&ByteSource::InflateAhead, source.get());
  }
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return source;
}

ByteSource::~ByteSource() {
  if (gz_ && gz_->inflater.joinable()) {
    {
      std::lock_guard<std::mutex> lock(gz_->mutex);
      gz_->stop = true;
    }
    gz_->changed.notify_all();
    gz_->inflater.join();
  }
  if (fd_ >= 0) close(fd_);
}

void ByteSource::InflateAhead() {
  Gzip& g = *gz_;
  for (;;) {
    Gzip::Block block;
    {
      std::unique_lock<std::mutex> lock(g.mutex);
      g.changed.wait(lock, [&] { return g.stop || g.ready.size() < kBlocksAhead; });
      if (g.stop) return;
      if (!g.spare.empty()) {
        block = std::move(g.spare.back());
        g.spare.pop_back();
      }
    }
    block.bytes.resize(kBlock);
    block.size = Inflate(block.bytes.data(), kBlock);
    g.inflated += block.size;
    block.content_to = g.inflated;
    block.compressed_to = read_at_ - (g.end - g.next);  // the input buffer's rest is not inflated
    bool last = block.size == 0;
    {
      std::lock_guard<std::mutex> lock(g.mutex);
      if (!last) g.ready.push_back(std::move(block));
      g.done = last;
      if (last) g.end_content = block.content_to, g.end_compressed = block.compressed_to;
    }
    g.changed.notify_all();
    if (last) return;
  }
}

std::string ByteSource::Head(const std::string& path, size_t n) {
  Result<InputFile> file = InputFile::Open(path);
  return file.ok() ? std::string(file->Head(n)) : std::string();
}

size_t ByteSource::ReadInflated(char* dst, size_t n) {
  Gzip& g = *gz_;
  size_t out = 0;
  while (out < n) {
    if (g.current_at == g.current.size) {
      std::unique_lock<std::mutex> lock(g.mutex);
      if (g.current.bytes.capacity()) g.spare.push_back(std::move(g.current));
      g.current = {};
      g.current_at = 0;
      g.changed.notify_all();
      g.changed.wait(lock, [&] { return !g.ready.empty() || g.done; });
      if (g.ready.empty()) {  // the end (or a failure, which failed_ records)
        g.taken_content = g.end_content, g.taken_compressed = g.end_compressed;
        break;
      }
      g.current = std::move(g.ready.front());
      g.ready.pop_front();
      g.taken_content = g.current.content_to, g.taken_compressed = g.current.compressed_to;
    }
    size_t take = std::min(n - out, g.current.size - g.current_at);
    std::memcpy(dst + out, g.current.bytes.data() + g.current_at, take);
    g.current_at += take;
    out += take;
  }
  return out;
}

size_t ByteSource::ReadRaw(char* dst, size_t n) {
  for (;;) {
    ssize_t got = pread(fd_, dst, n, static_cast<off_t>(read_at_));
    if (got >= 0) {
      read_at_ += static_cast<uint64_t>(got);
      return static_cast<size_t>(got);
    }
    if (errno == EINTR) continue;
    failed_ = true;
    return 0;
  }
}

bool ByteSource::ReadAt(char* dst, size_t n, uint64_t offset) const {
  while (n > 0) {
    ssize_t got = pread(fd_, dst, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    dst += got;
    n -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return true;
}

bool ByteSource::RefillCompressed() {
  Gzip& g = *gz_;
  if (g.next < g.end || g.eof) return true;
  g.end = ReadRaw(reinterpret_cast<char*>(g.in.data()), g.in.size());
  g.next = 0;
  if (g.end == 0) g.eof = true;
  return !failed_;
}

size_t ByteSource::Inflate(char* dst, size_t n) {
  Gzip& g = *gz_;
  size_t out = 0;
  while (out < n && !finished_) {
    if (!RefillCompressed()) return 0;
    inflate_state& s = g.state;
    s.next_in = g.in.data() + g.next;
    s.avail_in = static_cast<uint32_t>(g.end - g.next);
    s.next_out = reinterpret_cast<uint8_t*>(dst + out);
    s.avail_out = static_cast<uint32_t>(std::min<size_t>(n - out, 1u << 30));
    uint32_t before_out = s.avail_out;
    int rc = isal_inflate(&s);
    g.next = g.end - s.avail_in;
    out += before_out - s.avail_out;
    if (rc != ISAL_DECOMP_OK) {
      failed_ = true;  // corrupt data: the whole-file path names the offset
      return 0;
    }
    if (s.block_state == ISAL_BLOCK_FINISH) {
      // Another gzip member may follow (concatenated gzip files are one valid gzip file).
      if (!RefillCompressed()) return 0;
      if (g.next < g.end && g.in[g.next] == 0x1f) {
        isal_inflate_reset(&s);
        s.crc_flag = ISAL_GZIP;
        continue;
      }
      finished_ = true;
      if (g.next < g.end) failed_ = true;  // trailing garbage: let the whole-file path judge
      break;
    }
    if (g.next == g.end && g.eof && before_out == s.avail_out) {
      failed_ = true;  // the stream ends before its last block: a cut-short file
      return 0;
    }
  }
  return out;
}

uint64_t ByteSource::content_estimate() const {
  if (!gzipped_) return file_bytes_;
  const Gzip& g = *gz_;
  if (g.taken_compressed == 0) return 0;
  if (g.taken_compressed >= file_bytes_) return g.taken_content;  // the whole file inflated
  double ratio = static_cast<double>(g.taken_content) / static_cast<double>(g.taken_compressed);
  return std::max(g.taken_content, static_cast<uint64_t>(ratio * static_cast<double>(file_bytes_)));
}

uint64_t ByteSource::compressed_bytes_used() const { return gzipped_ ? gz_->taken_compressed : 0; }

size_t ByteSource::Read(char* dst, size_t n) {
  if (n == 0) return 0;
  size_t got = gzipped_ ? ReadInflated(dst, n) : (failed_ ? 0 : ReadRaw(dst, n));
  produced_ += got;
  return got;
}

}  // namespace profana
