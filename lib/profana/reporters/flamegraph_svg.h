// A self-contained interactive flamegraph SVG (frame titles on hover, click to zoom, Escape or
// "Reset zoom" to unzoom, regular-expression search), drawn from merged folded stacks. No
// external scripts, fonts or styles.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace profana::report {

// merged: folded stack text ("a;b;c") -> weight in exact nanoseconds; frame titles show it as
// the tables print times ("574.484us") with its share of the total, so the drawing is never made
// from times cut to whole microseconds.
// With `base` (a differential flamegraph, as flamegraph.pl draws difffolded.pl's output): frame
// widths come from `merged` (the new run) and each frame is coloured by DiffColour of its
// inclusive weights in base and new; frames only in base have no width in the new run and are
// counted in a note under the title instead.
std::string FormatFlamegraphSvg(const std::map<std::string, int64_t>& merged,
                                const std::string& title,
                                const std::map<std::string, int64_t>* base = nullptr);

// A differential frame's fill, from its inclusive weight before and after. Red where it grew,
// blue where it shrank, near-white where unchanged (flamegraph.pl's colour scale); saturation by
// the relative change |new - base| / max(base, new), so a frame new in this run is full red and
// one gone from it full blue: the other channels are int(210 * (1 - change)).
std::string DiffColour(int64_t base, int64_t next);

}  // namespace profana::report
