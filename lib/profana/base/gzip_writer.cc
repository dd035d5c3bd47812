#include "profana/base/gzip_writer.h"

#include <zlib.h>

#include <algorithm>

namespace profana {

Result<std::string> GzipBytes(std::string_view bytes, int level) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return Status(ErrorCode::kInternal, "cannot initialise zlib");
  std::string out;
  size_t consumed = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    size_t in_chunk = std::min<size_t>(bytes.size() - consumed, 1u << 30);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
    zs.avail_in = static_cast<uInt>(in_chunk);
    size_t old = out.size();
    out.resize(old + (1 << 20));
    zs.next_out = reinterpret_cast<Bytef*>(&out[old]);
    zs.avail_out = 1 << 20;
    rc = deflate(&zs, consumed + in_chunk == bytes.size() ? Z_FINISH : Z_NO_FLUSH);
    consumed += in_chunk - zs.avail_in;
    out.resize(old + (1 << 20) - zs.avail_out);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      deflateEnd(&zs);
      return Status(ErrorCode::kInternal, "gzip compression failed");
    }
  }
  deflateEnd(&zs);
  return out;
}

}  // namespace profana
