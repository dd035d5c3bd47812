// Nsight Systems SQLite importer (`nsys export --type sqlite`, or `nsys profile --export sqlite`).
// Reads the CUDA activity (kernels, runtime and driver calls, memcpys, memsets, synchronisations)
// and NVTX ranges into the Kineto-shaped model: PyTorch's ranges (emit_nvtx,
// `--pytorch=autograd-nvtx`) become ops, other ranges user annotations, kernels link to their
// launch by correlation id. Columns are read by name, so export schemas 3.x of nsys 2022-2026 all
// read; docs/formats.md lists what is read and what each table becomes. Opened from memory,
// read-only, through importers/sqlite.
#pragma once

#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::nsys {

// A SQLite file with nsys's StringIds table and any of its activity, NVTX or target tables.
bool SniffNsys(std::string_view bytes);
Result<Trace> ImportNsys(const InputBuffer& input);

}  // namespace profana::nsys
