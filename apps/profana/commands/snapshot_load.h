// The load step of `profana memory` and `profana diff` for allocator snapshots
// (job/snapshot_input.h), with the command's --max-memory and filters (refused).
#pragma once

#include <string>

#include "profana/commands/commands.h"
#include "profana/model/allocator_snapshot.h"

namespace profana::app {

// job::LoadSnapshotInput, its note printed and its path known to Emit.
Result<AllocatorSnapshot> LoadSnapshotForCommand(const std::string& path,
                                                 const CommonOptions& options, Context& ctx);

}  // namespace profana::app
