#include "profana/model/launch_index.h"

namespace profana {

LaunchIndex::LaunchIndex(const EventTable& ev) {
  launch_.Build(ev.size(), [&](uint32_t e, int64_t* id) {
    *id = ev.correlation[e];
    return IsRuntimeOrDriver(ev.kind[e]) && *id != kNoId;
  });
  for (uint32_t e = 0; e < ev.size(); ++e)
    if (IsDeviceActivity(ev.kind[e]) && ev.correlation[e] != kNoId) activity_.push_back(e);
  first_activity_.Build(activity_.size(), [&](uint32_t k, int64_t* id) {
    *id = ev.correlation[activity_[k]];
    return true;
  });
  // Chains each activity to the next with its id: `last` holds, per first position, the latest.
  next_.assign(activity_.size(), UINT32_MAX);
  std::vector<uint32_t> last(activity_.size());
  for (uint32_t k = 0; k < activity_.size(); ++k) {
    uint32_t first = *first_activity_.find(ev.correlation[activity_[k]]);
    if (first != k) next_[last[first]] = k;
    last[first] = k;
  }
}

}  // namespace profana
