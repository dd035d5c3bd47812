#include "profana/job/snapshot_input.h"

#include "fmt/format.h"
#include "profana/base/stopwatch.h"
#include "profana/importers/allocator_snapshot/snapshot_importer.h"

namespace profana::job {

Result<AllocatorSnapshot> LoadSnapshotInput(const InputFile& file, const LoadRequest& request,
                                            std::vector<LoadNote>* notes) {
  const std::string& path = file.path();
  if (!request.filter.empty() || !request.filter.window.empty())
    return Status(ErrorCode::kInvalidArgument,
                  path +
                      ": an allocator snapshot is not a trace: the trace filters (--steps, "
                      "--window, --thread, --device, --stream, --name, --exclude) do not "
                      "apply to it");
  InputLimits limits;
  limits.max_bytes = request.load.limits.max_bytes;
  Stopwatch clock;
  Result<AllocatorSnapshot> s = snapshot::LoadAllocatorSnapshot(file, limits);
  if (s.ok())
    notes->push_back(
        {LoadNote::Level::kDebug,
         fmt::format("{}: allocator snapshot, {} segments, {} blocks, {} history entries, {} "
                     "frames in {:.1f} ms",
                     path, s->segments.size(), s->blocks.size(), s->entries.size(),
                     s->frames.size(), clock.Lap())});
  return s;
}

}  // namespace profana::job
