// A CUPTI kernel record's launch configuration, as nsys and nvprof exports both store it: the
// columns below, in this order, each optional (an export of another version may lack some).
#pragma once

#include "profana/importers/sqlite/query.h"
#include "profana/model/device_args.h"

namespace profana::sqlite {

// Ask a Query for these, consecutively, from column `first` on.
#define PROFANA_CUPTI_LAUNCH_COLUMNS                                                    \
  "gridX?", "gridY?", "gridZ?", "blockX?", "blockY?", "blockZ?", "registersPerThread?", \
      "staticSharedMemory?", "dynamicSharedMemory?"

// The row's grid, block, registers and shared memory (static and dynamic together); -1 for a
// column the table lacks or a value that is NULL or out of range.
inline DeviceArgs CuptiLaunch(const Query& q, int first) {
  DeviceArgs args;
  for (int d = 0; d < 3; ++d) {
    args.grid[d] = q.Count32(first + d);
    args.block[d] = q.Count32(first + 3 + d);
  }
  args.registers = q.Count32(first + 6);
  args.SetSharedMemory(q.Count32(first + 7), q.Count32(first + 8));
  return args;
}

}  // namespace profana::sqlite
