// Where each ProfilerStep#N's time goes on one rank: the GPU time split into computation,
// communication not overlapped with computation, memcpy/memset not overlapped with either, and
// idle (the categories of HTA's temporal breakdown and of the TensorBoard plugin's overview, by
// the interval arithmetic TraceLens' gpu_timeline uses), the share of communication hidden
// behind computation, and what the step's host thread did outside ops. Rules in
// docs/semantics.md, "Step breakdown"; in short:
//  * a step's window starts at its ProfilerStep#N start (or the previous window's end, if that
//    is later) and ends at the later of the step's end and the end of the last device activity
//    launched inside it: windows never overlap, so the devices' time is split once;
//  * device activities are kernels (communication when the name holds "nccl" or "rccl", memory
//    when it starts with Memcpy or Memset, else computation), memcpys and memsets (memory);
//    each category is the union of its intervals on the device (all streams), clipped to the
//    window; computation + exposed communication + exposed memory + idle = window, per device.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/event_roles.h"
#include "profana/model/trace.h"
#include "profana/passes/efficiency/device_efficiency.h"

namespace profana::job {

struct StepDevice {
  int32_t device = -1;  // -1: the rank has no device activity in the trace
  int64_t compute_ns = 0;
  int64_t comm_exposed_ns = 0;    // communication outside computation
  int64_t memory_exposed_ns = 0;  // memcpy/memset outside computation and communication
  int64_t idle_ns = 0;            // the window minus all of the above
  int64_t comm_ns = 0;            // all communication (union)
  int64_t comm_hidden_ns = 0;     // communication during computation
  int64_t memory_ns = 0;          // all memcpy/memset (union); memory_exposed_ns of it is exposed
  // Memcpys and memsets that start in the window, by whether computation ran on the device at
  // some time during them (they overlap it) or at no time (they stall it): count and time.
  int64_t copy_overlap_count = 0, copy_overlap_ns = 0;
  int64_t copy_stall_count = 0, copy_stall_ns = 0;
  // How well the device used the window (passes/efficiency/device_efficiency.h), as sums: the
  // plugin's SM efficiency is sm_busy_ns / wall, occupancy occupancy_ns / occupancy_weight_ns,
  // the Tensor Core share tensor_core_ns / kernel_ns.
  passes::DeviceUse use;
};

struct StepRow {
  int64_t step = 0;      // N of ProfilerStep#N
  int64_t start_ns = 0;  // the window, on the trace's clock
  int64_t wall_ns = 0;   // the window's length
  int64_t host_ns = 0;   // the ProfilerStep#N event's own duration
  // The step's host thread, inside the ProfilerStep#N event: time in no traced event at all,
  // in the data loader (enumerate(DataLoader)...), in the optimizer (Optimizer.step /
  // Optimizer.zero_grad annotations), and in synchronize calls (cuda/hip *Synchronize).
  int64_t host_untraced_ns = 0;
  int64_t host_dataloader_ns = 0;
  int64_t host_optimizer_ns = 0;
  int64_t host_sync_ns = 0;
  std::vector<StepDevice> devices;  // by device index; one entry (-1) without device activity
};

// Whether StepDevice::use is measured: it takes a pass over the kernels and their FLOPs that
// readers of the windows and the breakdown alone (the database, the overlay) do without.
enum class StepDeviceUse { kMeasure, kSkip };

// Steps in order of N. Empty when the trace has no ProfilerStep#N markers.
std::vector<StepRow> ComputeStepBreakdown(const Trace& trace,
                                          StepDeviceUse use = StepDeviceUse::kMeasure);

// Kernel categories (model/event_roles.h).
using profana::CategoryOf;
using profana::DeviceCategory;

}  // namespace profana::job
