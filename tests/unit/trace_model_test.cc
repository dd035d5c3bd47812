// Unit tests of the model's column lists: ForEachColumn visits every column of every table once,
// so that sorting, filtering and the native format move whole rows.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "profana/model/trace.h"

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
