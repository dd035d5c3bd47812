// The allocator-snapshot importer: a pickle that torch.cuda.memory._dump_snapshot() wrote
// (plain or gzipped; recognised by content) becomes an AllocatorSnapshot. The pickle is read by
// the data-only reader (pickle_reader.h); this file knows the snapshot's layout, as
// torch/cuda/_memory_viz.py reads it: a dict of `segments` (each with its `blocks`),
// `device_traces` (one list of history entries per device), `allocator_settings` and
// `external_annotations`; a bare list of segments (torch.cuda.memory_snapshot()) too. Blocks of
// snapshots before PyTorch 2.1 (a `history` list instead of `frames`) are read as _memory_viz
// reads them.
//
// Every segment, block and history entry must be a dict of its own (shared ones would multiply
// rows without bytes to show for them); frames lists and frame dicts may be shared, and each is
// read once. Wrong types, unknown block states and sizes outside 0..kMaxSnapshotBytes are
// refused with the byte offset of the value and where it sits ("segment #3, block #2: ...").
#pragma once

#include <string>
#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/input_file.h"
#include "profana/base/status.h"
#include "profana/model/allocator_snapshot.h"

namespace profana::snapshot {

// Whether content (after gunzip) starts as a protocol 2-5 pickle does.
bool SniffPickle(std::string_view first_bytes);

Result<AllocatorSnapshot> ImportAllocatorSnapshot(const InputBuffer& input);

// Reads a file ("-": standard input) under `limits` and imports it.
Result<AllocatorSnapshot> LoadAllocatorSnapshot(const std::string& path,
                                                const InputLimits& limits = {});
// The same from a file already open (its whole content, whatever was read of its head).
Result<AllocatorSnapshot> LoadAllocatorSnapshot(const InputFile& file,
                                                const InputLimits& limits = {});

}  // namespace profana::snapshot
