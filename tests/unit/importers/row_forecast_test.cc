// RowForecast: the tables are sized from the rate of the rows read so far, in one step where the
// rate holds, in few steps where it does not, and never past what the bytes left can hold.
#include "profana/importers/chrome_json/row_forecast.h"

#include <catch2/catch.hpp>
#include <utility>

using profana::TraceBuilder;
using profana::json::RowForecast;

namespace {

void AddRows(TraceBuilder* b, int events, int memory) {
  TraceBuilder::Event e;
  e.thread = b->Thread(1, 1);
  for (int i = 0; i < events; ++i) b->AddEvent(e);
  TraceBuilder::Memory m;
  m.thread = e.thread;
  for (int i = 0; i < memory; ++i) b->AddMemory(m);
}

}  // namespace

TEST_CASE("RowForecast sizes each table once, from the first hundredth, where the rate holds",
          "[importers][forecast]") {
  // 200 batches of 5,000 bytes after a 100-byte opening, each 50 events and 5 memory records.
  TraceBuilder b;
  RowForecast forecast(100);
  const uint64_t end = 100 + 1'000'000;
  AddRows(&b, 50, 5);
  forecast.AfterBatch(100 + 5'000, end, &b);
  CHECK(b.reserved().events == 0);  // half a hundredth read: the vectors grow on their own
  AddRows(&b, 50, 5);
  forecast.AfterBatch(100 + 10'000, end, &b);
  CHECK(b.reserved().events == 11'250);
  for (int batch = 2; batch <= 100; ++batch) {
    AddRows(&b, 100, 10);
    forecast.AfterBatch(100 + uint64_t(batch) * 10'000, end, &b);
    // The rate projects 10,000 events and 1,000 records; an eighth more is room for a rate that
    // drifts up.
    CHECK(b.reserved().events == 11'250);
    CHECK(b.reserved().memory == 1'125);
  }
  CHECK(b.rows().events == 10'000);
  CHECK(b.rows().memory == 1'000);
  CHECK(b.reserved().flows == 0);  // no flow was read: no room is made for any
}

namespace {

// 100 batches of 100,000 bytes, each of 10 events and memory_in(batch) memory records, into a
// fresh forecast: how many times the memory table's room changed, and its last room. Each change
// is checked to give at least half as much again and never more rows than the bytes left could
// hold (32 bytes each at least), and the room to hold the next batch.
template <typename MemoryIn>
std::pair<int, size_t> MemoryRoomSteps(MemoryIn memory_in) {
  TraceBuilder b;
  RowForecast forecast(0);
  int steps = 0;
  size_t room = 0;
  for (int batch = 1; batch <= 100; ++batch) {
    AddRows(&b, 10, memory_in(batch));
    uint64_t read = uint64_t(batch) * 100'000;
    forecast.AfterBatch(read, 10'000'000, &b);
    if (b.reserved().memory != room) {
      CHECK(b.reserved().memory >= room + room / 2);
      CHECK(b.reserved().memory <= b.rows().memory + (10'000'000 - read) / 32);
      ++steps, room = b.reserved().memory;
    }
    if (batch < 100 && room > 0) CHECK(room >= b.rows().memory + size_t(memory_in(batch + 1)));
  }
  return {steps, room};
}

}  // namespace

TEST_CASE("RowForecast sizes a table whose rows come late from its own rate",
          "[importers][forecast]") {
  // Memory records only in the second half, 1,000 a batch. Their rate since they began projects
  // 50,000 at the first batch of them; an eighth more is the room, given once.
  auto [steps, room] = MemoryRoomSteps([](int batch) { return batch > 50 ? 1000 : 0; });
  CHECK(steps == 1);
  CHECK(room == 56'250);
}

TEST_CASE("RowForecast grows a table whose rate keeps rising in few large steps",
          "[importers][forecast]") {
  // Batch k holds 10k memory records: 50,500 in all, the rate rising to the end. Doubling from the
  // first batch's 10 takes 13 steps; at the rate so far, plus an eighth, it takes 11.
  auto [steps, room] = MemoryRoomSteps([](int batch) { return 10 * batch; });
  CHECK(steps == 11);
  CHECK(room >= 50'500);
}

TEST_CASE("RowForecast sizes a small file's tables once", "[importers][forecast]") {
  // Five batches: the two-more-batches rule must not grow the room at the end.
  TraceBuilder b;
  RowForecast forecast(0);
  for (int batch = 1; batch <= 5; ++batch) {
    AddRows(&b, 1000, 0);
    forecast.AfterBatch(uint64_t(batch) * 100'000, 500'000, &b);
    CHECK(b.reserved().events == 5'625);
  }
}

TEST_CASE("RowForecast follows an estimate of the input's size, or leaves the tables alone without",
          "[importers][forecast]") {
  TraceBuilder b;
  RowForecast forecast(0);
  AddRows(&b, 100, 10);
  forecast.AfterBatch(10'000, 0, &b);  // standard input
  CHECK(b.reserved().events == 0);
  CHECK(b.reserved().memory == 0);
  // A gzipped input's size is estimated as it inflates, and may be off either way: a batch read
  // past the estimate leaves the room as it is (the bytes left would wrap to an absurd request,
  // which the sanitized build aborts on and the release build's bad_alloc hides).
  AddRows(&b, 100, 10);
  forecast.AfterBatch(20'000, 1'000'000, &b);
  CHECK(b.reserved().events == 11'250);
  AddRows(&b, 100, 10);
  forecast.AfterBatch(30'000, 20'000, &b);
  CHECK(b.reserved().events == 11'250);
}
