// rocpd importer: the SQLite database rocprofiler-sdk's rocprofv3 writes by default (ROCm 7+,
// `rocprofv3 --output-format rocpd`; schema version 3). Its tables carry a per-process suffix
// (rocpd_region_<uuid>, ...) behind plain-named views; profana reads the tables themselves (it
// never runs a view) and each suffix as one process. Regions (HIP and HSA calls, roctx ranges)
// become runtime and driver events and ops or user annotations, kernel dispatches and memory
// copies device activities linked to their call through the correlation id both events record
// (rocpd_event.stack_id), agents name the devices. docs/formats.md lists the columns read.
#pragma once

#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::rocm {

bool SniffRocpd(std::string_view bytes);
Result<Trace> ImportRocpd(const InputBuffer& input);

}  // namespace profana::rocm
