// What the trace's header says about a device (which device an activity ran on is
// model/activity_device.h).
#pragma once

#include <cstdint>
#include <string_view>

#include "profana/model/trace.h"

namespace profana {

// The header's description of device `device`: the entry whose id it is, else the entry at its
// index (a header without ids lists devices in order); null when the trace does not describe it.
inline const DeviceProperties* PropertiesOf(const TraceMetadata& m, int32_t device) {
  for (const DeviceProperties& p : m.device_properties)
    if (p.id == device) return &p;
  if (device >= 0 && static_cast<size_t>(device) < m.device_properties.size() &&
      m.device_properties[device].id < 0)
    return &m.device_properties[device];
  return nullptr;
}

// The device's name as the header gives it; empty when it does not.
inline std::string_view DeviceNameOf(const TraceMetadata& m, int32_t device) {
  for (size_t i = 0; i < m.device_properties.size() && i < m.devices.size(); ++i)
    if (m.device_properties[i].id == device) return m.devices[i];
  if (device >= 0 && static_cast<size_t>(device) < m.devices.size()) return m.devices[device];
  return {};
}

}  // namespace profana
