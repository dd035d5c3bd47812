// rocprofv3 JSON importer: the file `rocprofv3 --output-format json` writes (rocprofiler-sdk's
// {"rocprofiler-sdk-tool": [ {metadata, agents, strings, kernel_symbols, buffer_records, ...} ]},
// one entry per process). Kernel dispatches and memory copies become device activities, HIP/HSA
// calls runtime and driver events linked to them by correlation id, roctx ranges ops (PyTorch's)
// or user annotations; agents name the devices. Read with simdjson On-Demand in two passes (the
// dictionaries, then the records), so the records are never held as a document tree.
#pragma once

#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::rocm {

// A JSON object whose first key is "rocprofiler-sdk-tool".
bool SniffRocprofv3Json(std::string_view bytes);
Result<Trace> ImportRocprofv3Json(const InputBuffer& input);

}  // namespace profana::rocm
