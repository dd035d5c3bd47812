// How profana writes a size of bytes everywhere outside PyTorch's own table layout (which keeps
// its Kb/Mb, reporters/number_format.h): outputs, error messages and progress alike.
#pragma once

#include <cstdint>
#include <string>

namespace profana {

// "8 B", "512.00 KiB", "9.39 GiB": binary units, two decimals, as the memory timeline's title.
std::string FormatBytes(int64_t bytes);

}  // namespace profana
