// How messages name an input: "<stdin>" for "-", else the path as given.
#pragma once

#include <string>

namespace profana {

inline std::string InputName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

}  // namespace profana
