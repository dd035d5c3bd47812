// PyTorch 2.x computes an op's times as floats: microseconds relative to the profiler's `Trace`
// span (ns / 1000), an event's time as end_us - start_us of those floats, and sums in event
// order. Where the exact value sits half-way at the printed digit, or two rows tie exactly, the
// float error decides what PyTorch prints; profana must print the same. The traces are hand-made
// (testdata/float/) and every expected value below is what Python's floats give.
#include <catch2/catch.hpp>
#include <string>

#include "test_util.h"

using profana::test::Run;
using profana::test::TestData;

TEST_CASE("an average half-way at the printed digit rounds as PyTorch's float sum", "[float]") {
  // Trace start T0 = 1700000000000000.123 us. Two aten::mm calls, [592682.483, 592719.438) and
  // [592728.185, 592767.449) us after T0: exactly 36.955 + 39.264 = 76.219 us, an average of
  // 38.1095 us, which rounds half-up to 38.110. In floats: (592719.438 - 592682.483) +
  // (592767.449 - 592728.185) = 76.21899999992456, / 2 = 38.10949999996228: "38.109".
  auto r = Run({"table", TestData("float/average_half_way.json")});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("76.219us      38.109us             2") != std::string::npos);
  CHECK(r.out.find("38.110us") == std::string::npos);
}

TEST_CASE("an exact tie is broken as PyTorch's floats break it", "[float]") {
  // aten::a and aten::b each last exactly 275.521 us, a from 355512.575 us after T0 and b from
  // 723685.183 us. As floats, a's time is 275.5210000000079 us and b's 275.5210000000661 us, so
  // sorting by CPU total (Python's sort, descending) puts b first, though a came first.
  auto r = Run({"table", TestData("float/sort_tie.json"), "--sort", "cpu_time_total"});
  INFO(r.out);
  REQUIRE(r.code == 0);
  size_t a = r.out.find("aten::a"), b = r.out.find("aten::b");
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  CHECK(b < a);
  // Without a sort the rows keep their first-appearance order.
  auto unsorted = Run({"table", TestData("float/sort_tie.json")});
  CHECK(unsorted.out.find("aten::a") < unsorted.out.find("aten::b"));
}
