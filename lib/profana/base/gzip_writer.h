// Gzip compression of a whole buffer in memory (zlib, one member), for outputs named *.gz.
#pragma once

#include <string>
#include <string_view>

#include "profana/base/status.h"

namespace profana {

Result<std::string> GzipBytes(std::string_view bytes, int level = 6);

}  // namespace profana
