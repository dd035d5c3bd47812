// Steps from a range the user names (--step-marker REGEX), for traces recorded without a profiler
// schedule: no ProfilerStep#N, but a record_function("train_step") or NVTX range around each
// iteration. Every analysis that asks which step an event is (StepNumberOf, the --steps filter,
// steps, collectives, check, advise) then sees those ranges as ProfilerStep#0, #1, ... .
#pragma once

#include <string>

#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::passes {

// The host ranges (ops and annotations) whose name matches `regex` (RE2, found anywhere in the
// name, as --name), outermost only (a match inside another on its thread is not a step of its
// own), become the steps, numbered from 0 in order of start: their trace_name becomes
// ProfilerStep#N, their name (what tables group by) stays. ProfilerStep#N markers already in the
// trace stop being steps. kInvalidArgument for a bad regex or one that matches no range.
Status MarkSteps(const std::string& regex, Trace* trace);

// Whether any event is a ProfilerStep#N marker.
bool HasStepMarkers(const Trace& trace);

// What to say of a trace without ProfilerStep#N markers: `no ProfilerStep#N markers; "train_step"
// is the most repeated top-level range (17 times): try --step-marker 'train_step'`, naming the
// host range that most often stands at the top of its thread (no op or annotation around it),
// seen at least twice; the first part alone when none repeats.
std::string NoStepsHint(const Trace& trace);

}  // namespace profana::passes
