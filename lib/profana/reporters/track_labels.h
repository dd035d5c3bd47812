// How reports name threads and device streams: as the trace wrote them where it wrote text
// ("stream 7", "CPU functions"), else from the numbers.
// They take the Trace: a label reads its threads (and, for an event, the event's stream).
#pragma once

#include <cstdint>
#include <string>

#include "profana/model/trace.h"

namespace profana::report {

// The tid as written: "59976", or the text a trace gave instead of a number.
std::string TidText(const Trace& trace, const ThreadInfo& thread);
// `thread 59976 (pid 59976) "python"`: the heading of a thread in the tree.
std::string ThreadLabel(const Trace& trace, ThreadId thread);
// "stream 7" (or the track's own text); "all" for the invalid id of a whole-device row.
std::string StreamName(const Trace& trace, ThreadId stream);
// "device 0 stream 7": where a device activity ran; the stream alone without a device.
std::string StreamLabel(const Trace& trace, uint32_t event);

}  // namespace profana::report
