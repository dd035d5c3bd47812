// Writes a Trace as Chrome-trace JSON that Perfetto and chrome://tracing open and that profana
// reads back into the same model: the semantics of PyTorch's EventList.export_chrome_trace (CPU
// events as complete events, device activities on their own tracks, flow arrows from each
// launch to its kernels), in Kineto's layout so that every field the analyses use survives.
// Unlike the reference, every string is JSON-escaped. Pure: returns the text.
#pragma once

#include <string>

#include "profana/model/trace.h"

namespace profana::io {

std::string WriteChromeTrace(const Trace& trace);

}  // namespace profana::io
