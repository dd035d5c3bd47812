#include "profana/job/source_hash.h"

#include <unistd.h>

#include <cerrno>
#include <memory>
#include <vector>

#include "fmt/format.h"
#include "xxhash.h"

namespace profana::job {

Result<std::string> SourceHash(const std::string& path) {
  if (path == "-") return std::string();
  PROFANA_ASSIGN_OR_RETURN(InputFile file, InputFile::Open(path));
  return SourceHash(file);
}

Result<std::string> SourceHash(const InputFile& file) {
  if (file.is_stdin()) return std::string();
  std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> state(XXH3_createState(),
                                                                        &XXH3_freeState);
  if (!state || XXH3_128bits_reset(state.get()) != XXH_OK)
    return Status(ErrorCode::kInternal, "cannot start a hash");
  std::vector<char> block(1 << 20);
  // A regular file from its first byte, whatever its readers did with the descriptor; a pipe or a
  // device from where its load left it (its end: it cannot be read twice).
  off_t at = 0;
  for (;;) {
    ssize_t n = file.regular() ? pread(file.fd(), block.data(), block.size(), at)
                               : read(file.fd(), block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status(ErrorCode::kIo, fmt::format("{}: read error", file.path()));
    if (n == 0) break;
    XXH3_128bits_update(state.get(), block.data(), static_cast<size_t>(n));
    at += n;
  }
  XXH128_hash_t h = XXH3_128bits_digest(state.get());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

}  // namespace profana::job
