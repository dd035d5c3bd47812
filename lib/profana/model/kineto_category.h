// The category Kineto writes in a Chrome trace's "cat" for each activity kind: what importers
// of formats without categories (nvprof, Nsight Systems, ROCm) give their events, and what the
// Chrome-trace writer writes for an event that has none, so that a trace read from any format
// lines up with Kineto's. Defined beside ActivityKindName (activity_kind.cc), from one table of
// each kind's names.
#pragma once

#include "profana/model/activity_kind.h"

namespace profana {

// "cpu_op", "cuda_runtime", "gpu_memcpy", ... as Kineto spells them today; for kDeviceOther,
// which stands for several of Kineto's device categories, "cuda_sync". Null for a value outside
// the enum.
const char* KinetoCategory(ActivityKind kind);

}  // namespace profana
