#include "profana/importers/chrome_json/row_forecast.h"

#include <algorithm>
#include <array>
#include <new>

namespace profana::json {

namespace {

// No Chrome-trace event that makes a row (it has a ph, a ts and a thread) is shorter than this, so
// the bytes left bound the rows still to come, whatever the rate so far.
constexpr uint64_t kMinRowBytes = 32;

using Tables = std::array<size_t, 4>;  // events, memory, flows, device args
Tables Of(const TraceBuilder::Rows& r) { return {r.events, r.memory, r.flows, r.device_args}; }
TraceBuilder::Rows Rows(const Tables& t) { return {t[0], t[1], t[2], t[3]}; }

// The room one table is given once a hundredth of the array is read (before that, a few thousand
// rows tell the rate badly, and the vectors' own doubling costs little). `since`: the bytes read
// before the table's first rows. The rows still to come are projected at the table's rate since
// those; a table keeps its room while that holds the projection and either two more batches like
// the last or an eighth more than the projection. Otherwise it gets the projection plus an eighth,
// at least two more batches like the last and half as much again as it had (so a rate that keeps
// rising still grows the table in few steps), at most what the bytes left can hold.
size_t Room(size_t now, size_t added, size_t room, uint64_t read, uint64_t total, uint64_t since) {
  if (added == 0 || read < total / 100 || since >= read) return room;
  uint64_t left = total - read;
  uint64_t projected =
      now + static_cast<uint64_t>(static_cast<double>(now) *
                                  (static_cast<double>(left) / static_cast<double>(read - since)));
  uint64_t margin = projected + projected / 8;
  uint64_t next_two = uint64_t{now} + 2 * uint64_t{added};
  if (projected <= room && room >= std::min(next_two, margin)) return room;
  uint64_t want = std::max({margin, next_two, uint64_t{room} + room / 2});
  want = std::min(want, uint64_t{now} + left / kMinRowBytes);
  return static_cast<size_t>(std::max(want, uint64_t{room}));
}

}  // namespace

void RowForecast::AfterBatch(uint64_t read_to, uint64_t input_end, TraceBuilder* builder) {
  Tables now = Of(builder->rows());
  if (input_end > begin_ && read_to > begin_ && read_to <= input_end) {
    uint64_t read = read_to - begin_, total = input_end - begin_;
    Tables room = Of(builder->reserved()), last = Of(last_), want;
    for (size_t t = 0; t < now.size(); ++t) {
      want[t] = Room(now[t], now[t] - last[t], room[t], read, total, since_[t]);
      if (now[t] == 0) since_[t] = read;
    }
    // The room is a hint: under a memory cap (RLIMIT_DATA counts it) the import goes on without.
    try {
      builder->ReserveRows(Rows(want));
    } catch (const std::bad_alloc&) {
    }
  }
  last_ = Rows(now);
}

}  // namespace profana::json
