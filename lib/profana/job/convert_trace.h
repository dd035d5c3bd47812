// `profana convert` to a trace file: one trace loaded and written again as the target names:
// profana's native file (with its function event index unless left out), its text twin, or
// Chrome-trace JSON, plain or gzipped. (A database is filled by analysed_traces.h.)
#pragma once

#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/load_input.h"

namespace profana::job {

// `to`: native, text, json or json.gz (io/convert_target.h). `index`: a native file gets the
// function event index, so analyses of it start from the op tree and attributions (a native
// input's own index is written again as it is when `index` is off). Errors: an input of several
// traces (a directory or a glob), or one that does not load. Notes as load_input.h.
Result<std::string> ConvertTrace(const std::string& path, const LoadRequest& load,
                                 const std::string& to, bool index, std::vector<LoadNote>* notes);

}  // namespace profana::job
