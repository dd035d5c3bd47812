// The function event list and the FunctionEventIndex a native file stores (model/
// function_event_index.h): the index is the list's own columns and counts, so each is made from
// the other by copying (views stay views). MakeFunctionEventIndex is declared with the list in
// function_events.h.
#pragma once

#include "profana/model/function_event_index.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

// The list's structure from an index: its columns as they are. The fields read from the trace
// are bound afterwards, as for a list worked out from the events.
FunctionEventList ListFromIndex(const FunctionEventIndex& index);

}  // namespace profana::passes
