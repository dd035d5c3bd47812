#include "profana/model/allocator_snapshot.h"

namespace profana {

const char* SnapshotActionName(SnapshotAction a) {
  static const char* const kNames[kSnapshotActions] = {
      "alloc",         "free_requested", "free_completed",
      "segment_alloc", "segment_free",   "segment_map",
      "segment_unmap", "snapshot",       "oom"};
  return kNames[static_cast<int>(a)];
}

}  // namespace profana
