// PyTorch's number formats, and widths and slices that count code points as Python does.
#include "profana/reporters/number_format.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "fmt/format.h"
#include "profana/reporters/table_reporter.h"

using namespace profana;

TEST_CASE("PyTorch's number formats", "[format]") {
  using namespace profana::report;
  CHECK(FormatTime(0) == "0.000us");
  CHECK(FormatTime(-36) == "-36.000us");
  CHECK(FormatTime(999.9994) == "999.999us");
  CHECK(FormatTime(1000) == "1.000ms");
  CHECK(FormatTime(1234567) == "1.235s");
  CHECK(FormatTime(0.0005) == "0.001us");  // the double just above 0.0005 rounds up, as in fmt
  CHECK(FormatTime(1.0005) == "1.000us");  // the double just below 1.0005 rounds down
  CHECK(FormatTime(1e300) == fmt::format("{:.3f}s", 1e300 / 1e6));  // past the integer path
  // Every time a trace can hold, in ns as the reporters pass them, reads as fmt writes it.
  uint64_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t ns = static_cast<int64_t>(state >> (11 + (i % 40)));
    if (i % 7 == 0) ns = -ns;
    double us = ns / 1000.0;
    std::string want = us >= 1e6   ? fmt::format("{:.3f}s", us / 1e6)
                       : us >= 1e3 ? fmt::format("{:.3f}ms", us / 1e3)
                                   : fmt::format("{:.3f}us", us);
    REQUIRE(FormatTime(us) == want);
  }
  CHECK(FormatTimeShare(1, 3) == "33.33%");
  CHECK(FormatTimeShare(0, 0) == "NaN");
  CHECK(FormatMemory(1023) == "1023 B");
  CHECK(FormatMemory(-1024) == "-1.00 KB");
  CHECK(FormatMemory(41984) == "41.00 KB");
  CHECK(FormatMemory(3 * 1024 * 1024) == "3.00 MB");
  using profana::report::MemoryUnits;
  CHECK(FormatMemory(1023, MemoryUnits::kPyTorch113) == "1023 b");
  CHECK(FormatMemory(-1024, MemoryUnits::kPyTorch113) == "-1.00 Kb");
  CHECK(FormatMemory(3 * 1024 * 1024, MemoryUnits::kPyTorch113) == "3.00 Mb");
  CHECK(FormatMemory(5LL << 30, MemoryUnits::kPyTorch113) == "5.00 Gb");
  CHECK(FormatMemory(int64_t{5} << 30) == "5.00 GB");
  // -2^63 bytes = -2^33 GiB; its magnitude does not fit in an int64_t.
  CHECK(FormatMemory(INT64_MIN) == "-8589934592.00 GB");
}

TEST_CASE("widths and slices count code points like Python", "[format]") {
  using namespace profana::report;
  CHECK(CodePointLength("µs") == 2);
  CHECK(CodePointPrefix("aµb", 2) == "aµ");
  CHECK(CodePointSuffix("aµb", 2) == "µb");
}
