// Sums never wrap: duration statistics refuse a merge whose sums would not fit in 64 bits.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "profana/job/duration_stats.h"
#include "test_util.h"

TEST_CASE("duration stats refuse a merge whose sums would not fit", "[sums]") {
  profana::job::DurationStats a, b;
  REQUIRE(a.Add(0, INT64_MAX));
  REQUIRE(b.Add(5));
  profana::job::DurationStats before = a;
  CHECK_FALSE(a.Merge(b));
  CHECK(a.count() == before.count());
  CHECK_FALSE(a.Add(1));
  profana::job::DurationStats c;
  CHECK_FALSE(c.Add(int64_t{1} << 40, int64_t{1} << 40));  // the sum would pass 2^63
  CHECK(c.count() == 0);
  // The standard deviation of values whose n * sum(x^2) passes 128 bits: in long double.
  profana::job::DurationStats d;
  REQUIRE(d.Add(int64_t{1} << 61));
  REQUIRE(d.Add(0, 1 << 20));
  CHECK(d.stddev() > 0);
}
