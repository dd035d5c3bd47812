#include "profana/base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "fmt/format.h"

namespace profana {

namespace {

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// The files mapped now, by address range, so that a SIGBUS can say which one was cut short. A
// fixed table of slots, each claimed with a compare-and-swap; the handler only reads it.
struct MappedName {
  enum : int { kFree, kWriting, kLive };
  std::atomic<int> state{kFree};
  const char* begin = nullptr;
  size_t size = 0;
  char name[512];
};
constexpr size_t kNamedMappings = 64;  // a job maps one file per worker; more go unnamed
MappedName g_mapped[kNamedMappings];
std::string (*g_show_name)(std::string_view) = nullptr;

void Remember(const void* data, size_t size, const std::string& path) {
  std::string shown = g_show_name ? g_show_name(path) : path;
  if (shown.size() >= sizeof(MappedName::name)) shown.resize(sizeof(MappedName::name) - 1);
  for (MappedName& m : g_mapped) {
    int expected = MappedName::kFree;
    if (!m.state.compare_exchange_strong(expected, MappedName::kWriting)) continue;
    m.begin = static_cast<const char*>(data);
    m.size = size;
    std::memcpy(m.name, shown.c_str(), shown.size() + 1);
    m.state.store(MappedName::kLive, std::memory_order_release);
    return;
  }
}

void Drop(const void* data) {
  for (MappedName& m : g_mapped)
    if (m.state.load(std::memory_order_acquire) == MappedName::kLive && m.begin == data) {
      m.state.store(MappedName::kFree, std::memory_order_release);
      return;
    }
}

}  // namespace

const char* MappedFileAt(const void* address) {
  const char* a = static_cast<const char*>(address);
  for (const MappedName& m : g_mapped)
    if (m.state.load(std::memory_order_acquire) == MappedName::kLive && a >= m.begin &&
        a < m.begin + m.size)
      return m.name;
  return nullptr;
}

void SetMappedFileNameStyle(std::string (*show)(std::string_view name)) { g_show_name = show; }

void MappedFile::Forget() {
  if (!data_) return;
  Drop(data_);
  munmap(data_, mapped_);
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    Forget();
    data_ = o.data_;
    size_ = o.size_;
    mapped_ = o.mapped_;
    o.data_ = nullptr;
    o.size_ = o.mapped_ = 0;
  }
  return *this;
}

MappedFile::~MappedFile() { Forget(); }

Result<MappedFile> MappedFile::Open(const std::string& path, size_t padding, bool read_ahead) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status(ErrorCode::kIo, fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  Result<MappedFile> file = Map(fd, path, padding, read_ahead);
  close(fd);
  return file;
}

Result<MappedFile> MappedFile::Open(const InputFile& input, size_t padding, bool read_ahead) {
  if (!input.regular())  // standard input, even from a file, is read once, front to back
    return Status(ErrorCode::kIo, fmt::format("{}: not a regular file", input.path()));
  return Map(input.fd(), input.path(), padding, read_ahead);
}

Result<MappedFile> MappedFile::Map(int fd, const std::string& path, size_t padding,
                                   bool read_ahead) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return Status(ErrorCode::kIo, fmt::format("{}: not a regular file", path));
  MappedFile file;
  if (st.st_size > 0) {
    size_t size = static_cast<size_t>(st.st_size), page = PageSize();
    size_t file_pages = (size + page - 1) / page * page;
    // The padding: zero pages of address space after the file's, which reserves them too. The
    // rest of the file's last page reads as zeros already.
    size_t total = padding ? (size + padding + page - 1) / page * page : size;
    void* p = MAP_FAILED;
    if (total > file_pages) {
      p = mmap(nullptr, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p != MAP_FAILED &&
          mmap(p, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(p, total);
        p = MAP_FAILED;
      }
    } else {
      p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    if (p == MAP_FAILED) {
      int e = errno;
      return Status(ErrorCode::kIo, fmt::format("{}: cannot map: {}", path, std::strerror(e)));
    }
    madvise(p, size, read_ahead ? MADV_WILLNEED : MADV_SEQUENTIAL);
    Remember(p, total, path);
    file.data_ = p;
    file.size_ = size;
    file.mapped_ = total;
  }
  return file;
}

}  // namespace profana
