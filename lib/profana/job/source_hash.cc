#include "profana/job/source_hash.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "fmt/format.h"
#include "xxhash.h"

namespace profana::job {

Result<std::string> SourceHash(const std::string& path) {
  if (path == "-") return std::string();
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return Status(ErrorCode::kIo, fmt::format("{}: {}", path, std::strerror(errno)));
  std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> state(XXH3_createState(),
                                                                        &XXH3_freeState);
  if (!state || XXH3_128bits_reset(state.get()) != XXH_OK)
    return Status(ErrorCode::kInternal, "cannot start a hash");
  std::vector<char> block(1 << 20);
  while (size_t n = std::fread(block.data(), 1, block.size(), f.get()))
    XXH3_128bits_update(state.get(), block.data(), n);
  if (std::ferror(f.get())) return Status(ErrorCode::kIo, fmt::format("{}: read error", path));
  XXH128_hash_t h = XXH3_128bits_digest(state.get());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

}  // namespace profana::job
