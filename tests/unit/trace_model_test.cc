// Unit tests of the model's building blocks: ForEachColumn visits every column of every table once
// (so that sorting, filtering and the native format move whole rows), and the launch index.
#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "profana/model/launch_index.h"
#include "profana/model/trace.h"
#include "profana/model/trace_builder.h"

using namespace profana;

namespace {

// Visits the table's columns and checks that they are distinct members that, together, make up
// the whole table: a column added to the table but not to ForEachColumn leaves bytes unvisited.
template <typename Table>
void CheckEveryColumnVisited(size_t expected_columns) {
  Table table;
  const char* begin = reinterpret_cast<const char*>(&table);
  std::set<const void*> seen;
  std::set<std::string> names;
  size_t bytes = 0;
  ForEachColumn(table, [&](const char* name, auto& column) {
    const char* at = reinterpret_cast<const char*>(&column);
    CHECK(at >= begin);
    CHECK(at + sizeof(column) <= begin + sizeof(Table));
    CHECK(seen.insert(&column).second);
    CHECK(names.insert(name).second);
    bytes += sizeof(column);
  });
  CHECK(seen.size() == expected_columns);
  CHECK(bytes == sizeof(Table));
  // The const overload visits the same columns.
  const Table& c = table;
  size_t const_visits = 0;
  ForEachColumn(c, [&](const char*, const auto& column) {
    CHECK(seen.count(&column) == 1);
    ++const_visits;
  });
  CHECK(const_visits == expected_columns);
}

}  // namespace

TEST_CASE("ForEachColumn visits every column of every table", "[model]") {
  // The counts are the tables' columns as declared in model/trace.h.
  CheckEveryColumnVisited<EventTable>(14);
  CheckEveryColumnVisited<MemoryTable>(8);
  CheckEveryColumnVisited<FlowTable>(5);
  CheckEveryColumnVisited<StackTable>(3);
}

namespace {

// A duration event of the given kind on one thread; start and end in ns.
void Add(TraceBuilder* b, ThreadId thread, const char* name, ActivityKind kind, int64_t start,
         int64_t end, int64_t correlation) {
  TraceBuilder::Event e;
  e.trace_name = b->Intern(name);
  e.kind = kind;
  e.thread = thread;
  e.start_ns = start;
  e.end_ns = end;
  e.correlation = correlation;
  b->AddEvent(e);
}

std::vector<uint32_t> Activities(const LaunchIndex& index, int64_t correlation) {
  std::vector<uint32_t> out;
  for (EventId e : index.ActivitiesOf(correlation)) out.push_back(e.value);
  return out;
}

}  // namespace

TEST_CASE("the launch index joins launches and device activities on the correlation id",
          "[model]") {
  TraceBuilder b;
  ThreadId host = b.Thread(1, 1), stream = b.Thread(0, 7);
  // Distinct starts, so the event order after Finish is the order written here (events 0..8).
  Add(&b, host, "aten::mm", ActivityKind::kCpuOp, 0, 100, 11);            // 0: not a launch
  Add(&b, host, "cudaLaunchKernel", ActivityKind::kRuntime, 10, 20, 7);   // 1
  Add(&b, host, "cuLaunchKernel", ActivityKind::kDriver, 15, 16, 7);      // 2: second with id 7
  Add(&b, host, "cudaMemcpyAsync", ActivityKind::kRuntime, 30, 31, 9);    // 3: launched nothing
  Add(&b, stream, "gemm", ActivityKind::kKernel, 40, 50, 7);              // 4
  Add(&b, stream, "label", ActivityKind::kGpuUserAnnotation, 45, 46, 7);  // 5
  Add(&b, stream, "Memcpy HtoD", ActivityKind::kMemcpy, 60, 70, 7);       // 6
  Add(&b, stream, "orphan", ActivityKind::kKernel, 80, 90, 12);           // 7: no launch
  Add(&b, stream, "unlinked", ActivityKind::kKernel, 95, 96, kNoId);      // 8: no id
  Trace t = std::move(b).Finish();
  REQUIRE(t.str(t.events.name[4]) == "gemm");
  LaunchIndex index(t.events);
  // The first runtime or driver call with the id, in event order.
  CHECK(index.Launch(7) == std::optional<EventId>(EventId(1)));
  CHECK(index.Launch(9) == std::optional<EventId>(EventId(3)));
  CHECK_FALSE(index.Launch(11).has_value());  // a CPU op's id is no launch
  CHECK_FALSE(index.Launch(12).has_value());
  CHECK_FALSE(index.Launch(kNoId).has_value());
  // Every device activity with the id, in event order.
  CHECK(Activities(index, 7) == std::vector<uint32_t>{4, 5, 6});
  CHECK(index.ActivitiesOf(9).empty());
  CHECK(Activities(index, 12) == std::vector<uint32_t>{7});
  CHECK(index.ActivitiesOf(kNoId).empty());
}

TEST_CASE("the launch index serves ids far apart as well as dense ones", "[model]") {
  TraceBuilder b;
  ThreadId host = b.Thread(1, 1), stream = b.Thread(0, 7);
  const int64_t kFar = int64_t{1} << 50;  // too sparse for a table indexed by id - min
  Add(&b, host, "cudaLaunchKernel", ActivityKind::kRuntime, 0, 1, 1);     // 0
  Add(&b, host, "cudaLaunchKernel", ActivityKind::kRuntime, 2, 3, kFar);  // 1
  Add(&b, stream, "k1", ActivityKind::kKernel, 4, 5, kFar);               // 2
  Add(&b, stream, "k0", ActivityKind::kKernel, 6, 7, 1);                  // 3
  Add(&b, stream, "k1 again", ActivityKind::kKernel, 8, 9, kFar);         // 4
  Trace t = std::move(b).Finish();
  LaunchIndex index(t.events);
  CHECK(index.Launch(1) == std::optional<EventId>(EventId(0)));
  CHECK(index.Launch(kFar) == std::optional<EventId>(EventId(1)));
  CHECK_FALSE(index.Launch(2).has_value());
  CHECK(Activities(index, kFar) == std::vector<uint32_t>{2, 4});
  CHECK(Activities(index, 1) == std::vector<uint32_t>{3});
}
