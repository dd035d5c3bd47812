#include "profana/importers/chrome_json/row_forecast.h"

#include <algorithm>

namespace profana::json {

namespace {

// No Chrome-trace event that makes a row (it has a ph, a ts and a thread) is shorter than this, so
// the bytes left bound the rows still to come, whatever the rate so far.
constexpr uint64_t kMinRowBytes = 32;

// The room one table is given once a hundredth of the array is read (before that, a few thousand
// rows tell the rate badly, and the vectors' own doubling costs little): where it is about to run
// out or the rate so far says the array holds more, the rows the array holds at that rate plus an
// eighth; at least twice the room it had (a table whose rows come late, which the rate
// underestimates, grows in no more steps than by doubling) and two more batches like the last; at
// most what the bytes left can hold.
size_t Room(size_t now, size_t added, size_t room, uint64_t read, uint64_t total) {
  if (added == 0 || read < total / 100) return room;
  uint64_t at_rate = static_cast<uint64_t>(static_cast<double>(now) * (static_cast<double>(total) /
                                                                       static_cast<double>(read)));
  if (room >= now + 2 * added && at_rate <= room) return room;
  uint64_t want = std::max({at_rate + at_rate / 8, 2 * uint64_t{room},
                            uint64_t{now} + 2 * uint64_t{added}});
  want = std::min(want, uint64_t{now} + (total - read) / kMinRowBytes);
  return static_cast<size_t>(std::max(want, uint64_t{room}));
}

}  // namespace

void RowForecast::AfterBatch(uint64_t read_to, TraceBuilder* builder) {
  TraceBuilder::Rows now = builder->rows();
  if (end_ > begin_ && read_to > begin_ && read_to <= end_) {
    uint64_t read = read_to - begin_, total = end_ - begin_;
    const TraceBuilder::Rows& room = builder->reserved();
    builder->ReserveRows({Room(now.events, now.events - last_.events, room.events, read, total),
                          Room(now.memory, now.memory - last_.memory, room.memory, read, total),
                          Room(now.flows, now.flows - last_.flows, room.flows, read, total),
                          Room(now.device_args, now.device_args - last_.device_args,
                               room.device_args, read, total)});
  }
  last_ = now;
}

}  // namespace profana::json
