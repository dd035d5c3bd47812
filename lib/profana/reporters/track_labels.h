// How reports name threads and device streams: as the trace wrote them where it wrote text
// ("stream 7", "CPU functions"), else from the numbers.
#pragma once

#include <cstdint>
#include <string>

#include "profana/model/trace_names.h"

namespace profana::report {

// The tid as written: "59976", or the text a trace gave instead of a number.
std::string TidText(TraceNames names, const ThreadInfo& thread);
// `thread 59976 (pid 59976) "python"`: the heading of a thread in the tree.
std::string ThreadLabel(TraceNames names, ThreadId thread);
// "stream 7" (or the track's own text); "all" for the invalid id of a whole-device row.
std::string StreamName(TraceNames names, ThreadId stream);
// "device 0 stream 7": where a device activity ran; the stream alone without a device.
std::string StreamLabel(TraceNames names, uint32_t event);

}  // namespace profana::report
