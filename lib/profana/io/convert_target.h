// The file formats `profana convert` writes, told from an output file's name.
#pragma once

#include <string>

namespace profana::io {

// "native" (*.pfa), "text" (*.txt), "json.gz" (*.json.gz), "json" (*.json) or "sqlite"
// (*.sqlite, *.sqlite3, *.db); empty when the name says none of them.
std::string ConvertTargetFromName(const std::string& file_name);

}  // namespace profana::io
