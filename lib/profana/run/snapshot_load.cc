#include "profana/run/snapshot_load.h"

#include "profana/job/input_kind.h"
#include "profana/job/snapshot_input.h"

namespace profana::run {

Result<AllocatorSnapshot> LoadSnapshotForCommand(const InputFile& file, const CommonOptions& o,
                                                 Session& session) {
  session.Read(file.path());
  std::vector<job::LoadNote> notes;
  Result<AllocatorSnapshot> s = job::LoadSnapshotInput(file, LoadRequestFor(o), &notes);
  session.Notes(notes);
  return s;
}

bool IsSnapshot(const std::optional<job::JobInput>& input) {
  return input && input->file && job::InputKindOf(*input->file) == job::InputKind::kSnapshot;
}

}  // namespace profana::run
