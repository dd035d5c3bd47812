#include "profana/commands/snapshot_load.h"

#include "profana/job/snapshot_input.h"

namespace profana::app {

Result<AllocatorSnapshot> LoadSnapshotForCommand(const std::string& path, const CommonOptions& o,
                                                 Context& ctx) {
  ctx.inputs.push_back(path);
  std::vector<job::LoadNote> notes;
  Result<AllocatorSnapshot> s = job::LoadSnapshotInput(path, LoadRequestFor(o), &notes);
  PrintNotes(notes, ctx);
  return s;
}

}  // namespace profana::app
