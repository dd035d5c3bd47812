// RowForecast sizes the model's tables from the importer's own estimate, so that their columns grow
// in a few large steps rather than by doubling: each doubling copies the column into fresh pages,
// which the kernel must zero first, and leaves half of it unused (docs/performance.md, "Page
// faults").
#pragma once

#include <array>
#include <cstdint>

#include "profana/model/trace_builder.h"

namespace profana::json {

class RowForecast {
 public:
  // The events array starts at input offset `events_begin`.
  explicit RowForecast(uint64_t events_begin) : begin_(events_begin) {}

  // After each batch of events, read up to input offset `read_to` of `input_end` (the content's
  // size, or for gzipped content its estimate so far: base/byte_source.h; 0 before anything is
  // inflated, and then the tables grow as vectors do): once a hundredth of the array is
  // read, a table whose room would not hold the rows the array holds at its rate so far gets room
  // for those rows plus an eighth (row_forecast.cc says exactly when and how much).
  void AfterBatch(uint64_t read_to, uint64_t input_end, TraceBuilder* builder);

 private:
  uint64_t begin_ = 0;
  TraceBuilder::Rows last_;  // the rows after the batch before
  // Per table (events, memory, flows, device args): the bytes read before its first rows.
  std::array<uint64_t, 4> since_{};
};

}  // namespace profana::json
