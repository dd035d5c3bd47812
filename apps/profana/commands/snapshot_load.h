// The load step of `profana memory` and `profana diff` for allocator snapshots: a file whose
// content (after gunzip) is a pickle is read as one (importers/allocator_snapshot), under the
// command's --max-memory; trace filters do not apply to it and are refused.
#pragma once

#include <string>

#include "profana/commands/commands.h"
#include "profana/model/allocator_snapshot.h"

namespace profana::app {

// Whether `path` names an allocator snapshot rather than a trace (read by content; "-" is a
// trace).
bool IsSnapshotInput(const std::string& path);

Result<AllocatorSnapshot> LoadSnapshotForCommand(const std::string& path,
                                                 const CommonOptions& options, Context& ctx);

}  // namespace profana::app
