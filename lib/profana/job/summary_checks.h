// What a summary file must hold beyond its JSON Schema: the invariants profana's writer
// guarantees across fields (steps of the file's ranks, each once; device time that adds up to the
// step; float sums that are the exact sums' derived values; statistics whose count, sum, extremes
// and values agree; times in range; totals that fit in 64 bits). A summary that breaks one was
// edited or damaged, and the numbers it would print cannot be trusted: reading it fails, naming
// the field ("steps[3].rank"), as for a field of the wrong type.
#pragma once

#include "profana/base/status.h"
#include "profana/job/rank_summary.h"

namespace profana::job {

// Ok, or kMalformed with "FIELD: what is wrong" (the caller adds the file).
Status CheckSummary(const RankSummary& summary);

}  // namespace profana::job
