// Sums never wrap: duration statistics refuse a merge whose sums would not fit in 64 bits.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "profana/job/duration_stats.h"
#include "profana/job/kernel_stats.h"
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

TEST_CASE("a kernel's stats merge whole or not at all", "[sums]") {
  // The launch record would merge (64 more bytes), the durations would not (their sum passes
  // 2^63): nothing of the other row is taken.
  profana::job::KernelStat a, b;
  REQUIRE(a.duration.Add(INT64_MAX - 5));
  a.launch.bytes = 1000, a.launch.bytes_count = 1, a.launch.bytes_ns = 5;
  REQUIRE(b.duration.Add(10));
  b.launch.bytes = 64, b.launch.bytes_count = 1, b.launch.bytes_ns = 10;
  CHECK_FALSE(a.Merge(b));
  CHECK(a.duration.count() == 1);
  CHECK(a.launch.bytes == 1000);
  CHECK(a.launch.bytes_count == 1);
  // And the other way round: the launch's bytes would pass 2^63, the durations fit.
  profana::job::KernelStat c, d;
  REQUIRE(c.duration.Add(5));
  c.launch.bytes = INT64_MAX - 1;
  REQUIRE(d.duration.Add(7));
  d.launch.bytes = 2;
  CHECK_FALSE(c.Merge(d));
  CHECK(c.duration.count() == 1);
  CHECK(c.duration.sum() == 5);
  CHECK(c.launch.bytes == INT64_MAX - 1);
}
