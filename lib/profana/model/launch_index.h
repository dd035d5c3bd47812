// LaunchIndex: the join of host and device on the "correlation" id. A runtime or driver call that
// enqueues device work (a kernel launch, cudaMemcpyAsync) and the device activity that ran it carry
// the same correlation id; passes ask which call launched an activity (queue depth, idle gaps,
// filters, validation) and which activities a call launched, and the Chrome writer draws the
// arrows between them. Built from a trace's events in linear time, once per analysis, and shared.
// It reads the events while it is used: keep the trace alive and unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profana/base/id_index.h"
#include "profana/model/trace.h"

namespace profana {

class LaunchIndex {
 public:
  explicit LaunchIndex(const EventTable& events);
  LaunchIndex(const LaunchIndex&) = delete;  // large; pass it by reference
  LaunchIndex& operator=(const LaunchIndex&) = delete;

  // The call that launched the work with this correlation id: the first runtime or driver call
  // (in event order) that has it. None for kNoId.
  std::optional<EventId> Launch(int64_t correlation) const {
    const uint32_t* e = correlation != kNoId ? launch_.find(correlation) : nullptr;
    return e ? std::optional<EventId>(EventId(*e)) : std::nullopt;
  }

  // The device activities (IsDeviceActivity) with this correlation id, in event order.
  class Activities {
   public:
    class iterator {
     public:
      EventId operator*() const { return EventId(index_->activity_[k_]); }
      iterator& operator++() {
        k_ = index_->next_[k_];
        return *this;
      }
      bool operator!=(const iterator& o) const { return k_ != o.k_; }

     private:
      friend class Activities;
      iterator(const LaunchIndex* index, uint32_t k) : index_(index), k_(k) {}
      const LaunchIndex* index_;
      uint32_t k_;
    };
    iterator begin() const { return iterator(index_, first_); }
    iterator end() const { return iterator(index_, UINT32_MAX); }
    bool empty() const { return first_ == UINT32_MAX; }

   private:
    friend class LaunchIndex;
    Activities(const LaunchIndex* index, uint32_t first) : index_(index), first_(first) {}
    const LaunchIndex* index_;
    uint32_t first_;
  };
  Activities ActivitiesOf(int64_t correlation) const {
    const uint32_t* k = correlation != kNoId ? first_activity_.find(correlation) : nullptr;
    return Activities(this, k ? *k : UINT32_MAX);
  }

 private:
  IdIndex launch_;                  // correlation -> launch event
  std::vector<uint32_t> activity_;  // device activities with a correlation id, in event order
  IdIndex first_activity_;          // correlation -> its first position in activity_
  std::vector<uint32_t> next_;      // per position: the next with the same id, or UINT32_MAX
};

}  // namespace profana
