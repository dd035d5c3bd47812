// Which op each device activity is credited to, and how the credit was found: the answer
// BuildFunctionEvents gives (each FunctionEvent's kernel list, under the list's --link rule),
// turned around so that a kernel, memcpy or memset names its op (the database's kernel.op_id and
// kernel.link).
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/launch_index.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

enum class LinkKind : uint8_t {
  kNone,       // no op: the activity is credited to nothing
  kRecorded,   // the External id Kineto recorded on the launch (or the activity) names the op
  kEnclosing,  // the op enclosing the launch on its thread (no link recorded, or --link enclosing)
};
const char* LinkKindName(LinkKind kind);  // "none", "external_id", "enclosing"

struct DeviceOwner {
  FnEventId op = FnEventId::None();
  LinkKind link = LinkKind::kNone;
};

// One entry per trace event (kNone for every event that is not credited device work). An activity
// that is in several ops' kernel lists (an overhead event lists its op's kernels too, as PyTorch
// does) is credited to the first of them that is not an overhead event.
std::vector<DeviceOwner> FindDeviceOwners(const Trace& trace, const FunctionEventList& events,
                                          const LaunchIndex& launches);

}  // namespace profana::passes
