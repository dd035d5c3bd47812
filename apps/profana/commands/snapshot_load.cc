#include "profana/commands/snapshot_load.h"

#include "profana/job/input_kind.h"
#include "profana/job/snapshot_input.h"

namespace profana::app {

Result<AllocatorSnapshot> LoadSnapshotForCommand(const InputFile& file, const CommonOptions& o,
                                                 Context& ctx) {
  ctx.inputs.push_back(file.path());
  std::vector<job::LoadNote> notes;
  Result<AllocatorSnapshot> s = job::LoadSnapshotInput(file, LoadRequestFor(o), &notes);
  PrintNotes(notes, ctx);
  return s;
}

bool IsSnapshot(const std::optional<job::JobInput>& input) {
  return input && input->file && job::InputKindOf(*input->file) == job::InputKind::kSnapshot;
}

}  // namespace profana::app
