// The load step of `profana convert -o trace.sqlite` and `profana sql`: every trace of the inputs
// (one file, or a job's FILE, DIR or GLOB arguments) into one database, a trace at a time.
#pragma once

#include <string>
#include <vector>

#include "profana/commands/commands.h"
#include "profana/reporters/sql/sql_writer.h"

namespace profana::app {

// One trace gets its header's rank (0 when it records none); a job's traces get theirs as the
// whole-job commands number them (job_inputs.h).
Status WriteTracesToDatabase(const std::vector<std::string>& inputs, const CommonOptions& options,
                             Context& ctx, report::SqlDatabaseWriter* writer);

}  // namespace profana::app
