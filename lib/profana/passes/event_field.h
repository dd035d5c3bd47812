// EventField<T>: a FunctionEventList column whose values are the trace's own. Row j reads
// events[source[j]]; a [memory] row, which has no trace event, reads its memory record's value
// (or one constant). Nothing is copied: a list of millions of events costs no memory and no time
// for its names, times, threads, shapes and stacks, which matters most for a native file, whose
// columns are themselves views of the mapped file.
//
// A pass that must change values (backward stack propagation) takes them with owned(), which
// copies them out once, as Column::owned() does. The list's source and the trace's columns must
// outlive the field; FunctionEventList is move-only so that they do.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "profana/base/column.h"
#include "profana/base/ids.h"

namespace profana::passes {

// The source of a FunctionEvent made by a pass ([memory]): it has no trace event.
constexpr EventId kSynthetic = EventId::None();

// Where the [memory] rows of a list are: their row numbers (rising) and their memory records.
struct SyntheticRows {
  const FnEventId* row = nullptr;
  const uint32_t* record = nullptr;
  size_t count = 0;
};

template <typename T>
class EventField {
 public:
  EventField() = default;
  // Rows read events[source[j]]; [memory] rows read records[record] or, without records, constant.
  // A uniform column of events is read through a mask, as Column reads it. (The fields are never
  // narrow columns: only ids are kept narrow, and no field is an id.)
  EventField(const EventId* source, size_t size, const Column<T>& events, SyntheticRows synthetic,
             const T* records, T constant)
      : source_(source),
        size_(size),
        events_(events.data()),
        events_mask_(events.is_uniform() ? 0 : SIZE_MAX),
        synthetic_(synthetic),
        records_(records),
        constant_(constant) {}

  size_t size() const { return owning_ ? owned_.size() : size_; }
  T operator[](size_t j) const {
    if (owning_) return owned_[j];
    EventId s = source_[j];
    return s != kSynthetic ? events_[s.value & events_mask_] : Synthetic(j);
  }
  bool operator==(const EventField& o) const {
    if (size() != o.size()) return false;
    for (size_t j = 0; j < size(); ++j)
      if (!((*this)[j] == o[j])) return false;
    return true;
  }

  // The values as a vector this field owns from now on (copied out the first time).
  std::vector<T>& owned() {
    if (!owning_) {
      std::vector<T> values(size_);
      for (size_t j = 0; j < size_; ++j) values[j] = (*this)[j];
      owned_ = std::move(values);
      owning_ = true;
    }
    return owned_;
  }

 private:
  T Synthetic(size_t j) const {
    size_t k = std::lower_bound(synthetic_.row, synthetic_.row + synthetic_.count,
                                FnEventId(static_cast<uint32_t>(j))) -
               synthetic_.row;
    return records_ ? records_[synthetic_.record[k]] : constant_;
  }

  const EventId* source_ = nullptr;
  size_t size_ = 0;
  const T* events_ = nullptr;
  size_t events_mask_ = SIZE_MAX;  // 0: every event has the one value at events_
  SyntheticRows synthetic_;
  const T* records_ = nullptr;
  T constant_{};
  bool owning_ = false;
  std::vector<T> owned_;
};

}  // namespace profana::passes
