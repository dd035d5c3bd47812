// The collectives one rank took part in, read from its trace: one CollectiveCall per NCCL/RCCL
// kernel (the GPU's start and end), in start order, with what the trace says of the collective;
// for gloo, which has no kernels, one per host range c10d records ("gloo:all_reduce").
// Matching the calls of several ranks, and the statistics, are collective_analysis.h's job.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profana/model/trace.h"

namespace profana::job {

// The NCCL collective a kernel runs, from its name ("ncclKernel_AllReduce_RING_LL_Sum_float",
// "ncclDevKernel_AllGather_RING_LL"); kOther when the name says none of these.
enum class CollectiveKind : uint8_t {
  kAllReduce,
  kAllGather,
  kReduceScatter,
  kBroadcast,
  kReduce,
  kSendRecv,  // point to point, and all_to_all known by its kernel only (NCCL runs it as grouped
              // sends and receives)
  kAllToAll,  // all_to_all, where the trace's "Collective name" says so
  kOther,
};
const char* CollectiveKindName(CollectiveKind k);  // "allreduce", ..., "other"
CollectiveKind CollectiveKindOfKernel(std::string_view kernel_name);
// From Kineto's "Collective name" (allreduce, all_gather, _reduce_scatter_base, all_to_all, ...).
CollectiveKind CollectiveKindOfName(std::string_view collective_name);
// The bytes of one element of a c10 dtype as Kineto names it ("Float" 4, "BFloat16" 2, ...);
// -1 for a name it does not know.
int64_t DtypeBytes(std::string_view dtype);

struct CollectiveCall {
  CollectiveKind kind = CollectiveKind::kOther;
  // How calls are matched across ranks when no process group is known: the kind's name, or the
  // shortened kernel name for kOther.
  std::string label;
  // The process group (Kineto's "Process Group Name"); empty when the trace does not record it,
  // and the calls are then matched by label and order on the rank.
  std::string group;
  int64_t start_ns = 0;  // the kernel, on the rank's own clock
  int64_t end_ns = 0;
  int64_t bytes = -1;       // the message size; -1 when the trace does not record it
  int64_t group_size = -1;  // ranks in the process group; -1 when not recorded
  std::string dtype;        // Kineto's "dtype" ("Float", "BFloat16"); empty when not recorded
};

// A process group one rank took part in, as Kineto records it on collectives.
struct ProcessGroup {
  std::string name;   // "Process Group Name"
  std::string ranks;  // "Process Group Ranks" as written ("[0, 1, 2, 3]"); empty if not recorded
  int64_t size = -1;  // "Group size"; -1 when not recorded
  int64_t calls = 0;  // the rank's communication kernels in this group
};

// Every communication kernel of the trace (step_breakdown.h's rule: a kernel whose name holds
// "nccl" or "rccl"), in order of start. Where the kernel carries Kineto's collective args
// (EventTable::comm): the kind from "Collective name", the group from "Process Group Name",
// group_size from "Group size", and bytes = the larger of "In msg nelems" and "Out msg nelems"
// times the dtype's size (the whole buffer: nccl-tests' size for every collective).
std::vector<CollectiveCall> FindCollectiveCalls(const Trace& trace);

// The named process groups of the trace's collective args (on kernels and on record_param_comms
// ops alike), by name; ranks and size from the first event of the group that records them.
std::vector<ProcessGroup> FindProcessGroups(const Trace& trace);

}  // namespace profana::job
