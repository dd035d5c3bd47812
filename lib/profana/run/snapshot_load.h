// The load step of `profana memory` and `profana diff` for allocator snapshots
// (job/snapshot_input.h), with the command's --max-memory and filters (refused).
#pragma once

#include <optional>
#include <string>

#include "profana/job/job_inputs.h"
#include "profana/model/allocator_snapshot.h"
#include "profana/run/command_load.h"

namespace profana::run {

// job::LoadSnapshotInput, its note and its path handed to the session.
Result<AllocatorSnapshot> LoadSnapshotForCommand(const InputFile& file,
                                                 const CommonOptions& options, Session& session);

// Whether the one input job::SingleTraceInput found (its file opened once, then read by whichever
// load follows) is an allocator snapshot.
bool IsSnapshot(const std::optional<job::JobInput>& input);

}  // namespace profana::run
