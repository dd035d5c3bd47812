// profana kernels: kernel, runtime API and transfer statistics (nsys stats' cuda_gpu_kern_sum,
// cuda_api_sum, cuda_gpu_mem_time_sum), for one trace or a whole job.
#pragma once

#include <string>

#include "profana/reporters/kernels_reporter.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct KernelsArgs {
  CommonOptions common;
  JobArgs job;
  bool by_op = false;
  bool api = false;
  bool transfers = false;
  bool full_names = false;
  int64_t row_limit = 0;  // -n: its default is AddRowLimitOption's
  report::KernelSort sort = report::KernelSort::kTotal;
};

Status RunKernels(const KernelsArgs& args, Session& session);

}  // namespace profana::run
