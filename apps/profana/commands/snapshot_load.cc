#include "profana/commands/snapshot_load.h"

#include "profana/importers/allocator_snapshot/snapshot_importer.h"
#include "profana/job/input_kind.h"

namespace profana::app {

bool IsSnapshotInput(const std::string& path) {
  return job::InputKindOf(path) == job::InputKind::kSnapshot;
}

Result<AllocatorSnapshot> LoadSnapshotForCommand(const std::string& path, const CommonOptions& o,
                                                 Context& ctx) {
  if (!o.filter.empty() || !o.filter.window.empty())
    return Status(ErrorCode::kInvalidArgument,
                  path +
                      ": an allocator snapshot is not a trace: the trace filters (--steps, "
                      "--window, --thread, --device, --stream, --name, --exclude) do not "
                      "apply to it");
  ctx.inputs.push_back(path);
  InputLimits limits;
  if (o.max_memory) limits.max_bytes = *o.max_memory;
  Stopwatch clock;
  Result<AllocatorSnapshot> s = snapshot::LoadAllocatorSnapshot(path, limits);
  if (s.ok())
    ctx.log.Debug(
        "{}: allocator snapshot, {} segments, {} blocks, {} history entries, {} frames "
        "in {:.1f} ms",
        path, s->segments.size(), s->blocks.size(), s->entries.size(), s->frames.size(),
        clock.Lap());
  return s;
}

}  // namespace profana::app
