// Collectives across the ranks of a job: each rank's calls matched into collectives, the ranks'
// clocks aligned on the ends of matched collectives, and per collective its arrival skew,
// transfer time, each rank's wait and its bandwidth; per rank, the waiting it caused and
// suffered. Pure: ranks in, numbers out. Definitions in docs/semantics.md, "Collectives":
//  * match: the n-th call of a process group on one rank is the n-th call of that group on
//    every rank; without a recorded group, the n-th call of a label (kind, or kernel name) on
//    the rank. Point-to-point transfers of ranks one clock timed are matched by overlap instead. A
//    collective is matched when at least two ranks have it; a call no other rank has is counted as
//    unmatched;
//  * alignment: collectives complete together on every rank, so each rank's offset is the
//    median, over the collectives it shares with the reference rank (the lowest), of the
//    reference's end minus its own end (an even count: the lower of the two middle values);
//    offsets are added to the rank's times. Ranks recorded on one clock (the processes of one
//    Nsight Systems or ROCm database) keep it: such a group shares one offset, 0 for the
//    reference's group, else the one measured for its lowest rank. Without alignment every
//    offset is 0;
//  * skew: latest start minus earliest; transfer: the shortest duration; a rank's wait: its
//    duration minus the transfer; the rank that started last caused the others' wait;
//  * bandwidth (nccl-tests): algbw = bytes / transfer; busbw = algbw x factor, factor
//    2(n-1)/n for allreduce, (n-1)/n for allgather, reducescatter and alltoall, 1 for
//    broadcast, reduce and sendrecv, where n is the group size (the ranks matched when the trace
//    does not say).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/collective_calls.h"
#include "profana/job/rank_summary.h"

namespace profana::job {

// One rank's input: its calls (FindCollectiveCalls) and its steps.
struct RankCalls {
  int64_t rank = -1;
  std::vector<CollectiveCall> calls;
  int64_t steps = 0;         // ProfilerStep#N windows
  int64_t step_wall_ns = 0;  // their total wall time
  // Ranks with the same non-empty clock were timed by one clock: processes of one database
  // (SharedClock). Empty: the rank's own clock (a Kineto trace per process).
  std::string clock;
};

struct CollectiveRankTimes {
  int64_t rank = -1;
  int64_t start_ns = 0;  // aligned (the rank's offset added)
  int64_t end_ns = 0;
  int64_t wait_ns = 0;  // duration minus the collective's transfer time
};

struct MatchedCollective {
  CollectiveKind kind = CollectiveKind::kOther;
  std::string label;
  std::string group;                       // empty: matched by label and order on each rank
  int64_t index = 0;                       // order within the group (or label), from 0
  std::vector<CollectiveRankTimes> ranks;  // by rank
  int64_t skew_ns = 0;
  int64_t transfer_ns = 0;
  int64_t wait_ns = 0;     // summed over the ranks
  int64_t last_rank = -1;  // started last (ties: the lower rank)
  int64_t bytes = -1;      // -1: unknown, and no bandwidth
  int64_t group_size = 0;  // n of the bus factor
  double algbw_gbps = -1;  // GB/s (1e9 bytes per second); -1 when unknown
  double busbw_gbps = -1;
};

struct RankStraggling {
  int64_t rank = -1;
  int64_t offset_ns = 0;         // added to the rank's times
  bool aligned = false;          // an offset was measured (the reference is aligned by definition)
  int64_t clock_of = -1;         // the rank whose clock it shares (its offset), or -1
  int64_t collectives = 0;       // matched collectives the rank took part in
  int64_t arrived_last = 0;      // of them, how many it started last
  int64_t wait_caused_ns = 0;    // the other ranks' wait in the collectives it started last
  int64_t wait_suffered_ns = 0;  // its own wait, summed
  int64_t steps = 0;
  int64_t step_wall_ns = 0;  // total; the mean is step_wall_ns / steps
};

struct CollectivesResult {
  bool align = true;
  int64_t reference_rank = -1;
  std::vector<MatchedCollective> collectives;  // in order of their earliest (aligned) start
  std::vector<RankStraggling> ranks;           // by rank
  int64_t unmatched_calls = 0;                 // calls no other rank has
};

// Each call's order within its process group on the rank (within its label, without a recorded
// group), from 0: the index the calls are matched by. `calls` in start order.
std::vector<int64_t> OrderInGroup(const std::vector<CollectiveCall>& calls);

// The bus bandwidth factor of nccl-tests for a collective of n ranks.
double BusFactor(CollectiveKind kind, int64_t n);

// `ranks` in rank order. align = false keeps each rank's own clock.
CollectivesResult AnalyzeCollectives(const std::vector<RankCalls>& ranks, bool align);

// The clock a source's ranks share: its database (format and hash, else path) for the formats
// that time every process of a session on one host clock (Nsight Systems, rocpd, RPD); empty for
// the rest.
std::string SharedClock(const SourceInfo& source);

// Every rank of a job (a merged summary holds several per input), in rank order, each with its
// calls (moved out of the job), its steps' count and wall time, and its clock.
std::vector<RankCalls> TakeRankCalls(JobSummary* job);

// kInvalidArgument naming `path` when a summary holds no collective ledger (written by an older
// profana summarize, or merged with such a file): the calls cannot be matched without it.
Status RequireCollectiveLedger(const RankSummary& summary, const std::string& path);

}  // namespace profana::job
