// SourceHash: a name for a file's bytes, so a summary knows which trace it came from and a merge
// can refuse to count one trace twice. XXH3-128 of the bytes as stored (a gzipped trace and its
// gunzipped copy are different sources), as 32 hex digits.
#pragma once

#include <string>

#include "profana/base/input_file.h"
#include "profana/base/status.h"

namespace profana::job {

// Reads the file once, in blocks. Standard input ("-") has no hash: "" (it cannot be read twice).
Result<std::string> SourceHash(const std::string& path);
// The same from an input already open (base/input_file.h): the file the load read, not the path
// opened again.
Result<std::string> SourceHash(const InputFile& file);

}  // namespace profana::job
