#include "profana/job/trace_events.h"

#include "fmt/format.h"
#include "profana/base/input_name.h"
#include "profana/passes/event_sums.h"

namespace profana::job {

Result<passes::FunctionEventList> BuildTraceEvents(const Trace& trace,
                                                   const std::optional<FunctionEventIndex>& index,
                                                   const std::string& path, passes::LinkRule link,
                                                   std::vector<LoadNote>* notes, bool counts) {
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace, index, link, counts);
  PROFANA_RETURN_IF_ERROR(passes::CheckEventSumsFit(trace, events, InputName(path)));
  // Only a list worked out from the events has launch counts; one from an index has links.
  if (link == passes::LinkRule::kAuto && CreditedByEnclosureOnly(trace, events))
    notes->push_back(
        {LoadNote::Level::kWarning,
         fmt::format("the trace records no kernel-op links (External id == correlation): {} "
                     "launches were credited to the cpu_op enclosing them (--link auto)",
                     events.launches_enclosed)});
  return events;
}

bool TraceWritesExternalIds(const Trace& trace) {
  for (int64_t id : trace.events.external_id)
    if (id != kNoId) return true;
  return false;
}

bool CreditedByEnclosureOnly(const Trace& trace, const passes::FunctionEventList& events) {
  return !events.trace_has_links && events.launches_enclosed > 0 && TraceWritesExternalIds(trace);
}

}  // namespace profana::job
