// A CUDA allocator snapshot as a command's input (`memory`, `diff`): a file whose content (after
// gunzip) is a pickle, read by importers/allocator_snapshot under the request's memory limit. It
// is not a trace: the trace filters do not apply to it and are refused.
#pragma once

#include <string>
#include <vector>

#include "profana/base/input_file.h"
#include "profana/base/status.h"
#include "profana/job/load_input.h"
#include "profana/model/allocator_snapshot.h"

namespace profana::job {

// Errors: a filter in the request, or a snapshot that does not read. A note says what was read.
// The file is read through its descriptor (whatever the sniff read of its head is read again).
Result<AllocatorSnapshot> LoadSnapshotInput(const InputFile& file, const LoadRequest& request,
                                            std::vector<LoadNote>* notes);

}  // namespace profana::job
