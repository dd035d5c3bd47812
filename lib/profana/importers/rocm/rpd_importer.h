// rocmProfileData (RPD) importer: the SQLite database `runTracer.sh` / rpdTracer writes (rocpd_api,
// rocpd_op, rocpd_api_ops, rocpd_string, schema version 2). HIP calls become runtime events, GPU
// ops (kernels, graph-launched tasks, copies, fills) device activities linked to the call that
// enqueued them through rocpd_api_ops, and roctx ranges (UserMarker rows) ops when they are
// PyTorch's (their text, or RPD's autograd table ext_autogradapi, says so) and user annotations
// otherwise. docs/formats.md lists the columns read.
#pragma once

#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::rocm {

bool SniffRpd(std::string_view bytes);
Result<Trace> ImportRpd(const InputBuffer& input);

}  // namespace profana::rocm
