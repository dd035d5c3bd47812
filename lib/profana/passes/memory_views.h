// What the memory reports show of each device, worked out before they format it: the device's
// peak report, its ops by self-allocated bytes, and its coalesced timeline; and the device the
// single-device formats draw when none is named.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/passes/memory_device_report.h"
#include "profana/passes/memory_timeline.h"

namespace profana::passes {

struct MemoryDeviceView {
  uint32_t device = 0;  // index into MemoryTimeline::devices
  MemoryDeviceReport report;
  // MemoryByOp on this device, by self-allocated bytes, descending (ties keep MemoryByOp's order).
  std::vector<MemoryOpRow> ops_by_self_alloc;
  CoalescedTimeline timeline;  // export_memory_timeline's [times, sizes]
};

// The parts a report needs (the others stay empty): a bit set of these.
enum MemoryViewPart : unsigned {
  kMemoryReport = 1,    // report
  kMemoryOps = 2,       // ops_by_self_alloc
  kMemoryTimeline = 4,  // timeline
};

std::vector<MemoryDeviceView> ViewMemoryDevices(const Trace& trace, const FunctionEventList& events,
                                                const MemoryTimeline& timeline,
                                                const std::vector<uint32_t>& devices,
                                                unsigned parts);

// The devices a report shows: the one `name` names ("cuda:0", "cpu"), or every device when the
// name is empty. A name no record has is kInvalidArgument, listing the devices there are.
Result<std::vector<uint32_t>> SelectMemoryDevices(const MemoryTimeline& timeline,
                                                  const std::string& name);

// The accelerator with the highest peak, else the CPU. The timeline has at least one device.
uint32_t DefaultMemoryDevice(const MemoryTimeline& timeline);

}  // namespace profana::passes
