// Unit tests of base/'s building blocks: interning, the JSON writer, CRC-32C, columns and sparse
// rows, durations, the pipeline.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "profana/base/column.h"
#include "profana/base/crc32c.h"
#include "profana/base/duration.h"
#include "profana/base/json_writer.h"
#include "profana/base/memory_release.h"
#include "profana/base/pipeline.h"
#include "profana/base/sparse_rows.h"
#include "profana/base/string_pool.h"
#include "profana/reporters/number_format.h"

using namespace profana;

TEST_CASE("the string pool gives one id per distinct string and 0 for the empty string", "[pool]") {
  StringPool pool;
  StringId a = pool.Intern("aten::add");
  CHECK(pool.Intern("aten::add") == a);
  CHECK(pool.Intern("") == StringId(0));
  CHECK(pool.Get(a) == "aten::add");
  std::vector<StringId> ids;
  for (int i = 0; i < 20000; ++i) ids.push_back(pool.Intern("name" + std::to_string(i)));
  for (int i = 0; i < 20000; ++i) CHECK(pool.Get(ids[i]) == "name" + std::to_string(i));
  CHECK(pool.Get(a) == "aten::add");  // views stay valid while the pool grows
  StringId found;
  CHECK(pool.Find("name19999", &found));
  CHECK(found == ids.back());
  CHECK_FALSE(pool.Find("absent", &found));
}

TEST_CASE("JSON writer escapes and writes nanoseconds as exact microseconds", "[json]") {
  std::string out;
  JsonWriter w(&out, JsonLayout::kCompact);
  w.BeginObject()
      .Key("a\"b")
      .String("x\n\x01")
      .Key("t")
      .Micros(1500)
      .Key("n")
      .Micros(-500)
      .Key("z")
      .Micros(2000)
      .EndObject();
  CHECK(out == "{\"a\\\"b\":\"x\\n\\u0001\",\"t\":1.5,\"n\":-0.5,\"z\":2}");
}

TEST_CASE("CRC-32C matches the bitwise definition at every length and split", "[crc]") {
  CHECK(Crc32c("123456789", 9) == 0xE3069283u);  // the standard check value
  CHECK(Crc32c("", 0) == 0u);
  // Long enough for several rounds of the three-stream loop, plus odd tails.
  std::vector<unsigned char> bytes(3 * 8192 * 4 + 1234);
  uint32_t x = 12345;
  for (unsigned char& b : bytes) b = static_cast<unsigned char>((x = x * 1103515245 + 12345) >> 16);
  auto bitwise = [](const unsigned char* p, size_t n) {
    uint32_t c = ~0u;
    for (size_t i = 0; i < n; ++i) {
      c ^= p[i];
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1)));
    }
    return ~c;
  };
  for (size_t n :
       {size_t{7}, size_t{8192 * 3 - 1}, size_t{8192 * 3}, size_t{8192 * 3 + 9}, bytes.size()}) {
    CAPTURE(n);
    CHECK(Crc32c(bytes.data(), n) == bitwise(bytes.data(), n));
  }
  for (size_t split : {size_t{1}, size_t{8192}, size_t{30001}}) {
    CAPTURE(split);
    CHECK(Crc32c(bytes.data() + split, bytes.size() - split, Crc32c(bytes.data(), split)) ==
          Crc32c(bytes.data(), bytes.size()));
  }
}

TEST_CASE("a column that views memory copies it before the first write", "[column]") {
  const int64_t values[] = {5, 6, 7};
  Column<int64_t> view = Column<int64_t>::View(values, 3);
  CHECK(view.is_view());
  CHECK(view.size() == 3);
  CHECK(view[2] == 7);
  Column<int64_t> copy = view;  // copies the view, not the values
  CHECK(copy.data() == values);
  view.push_back(8);
  CHECK_FALSE(view.is_view());
  CHECK(view == Column<int64_t>({5, 6, 7, 8}));
  CHECK(values[2] == 7);
  copy.owned()[0] = 1;  // element writes go through owned(), which copies first
  CHECK(copy == Column<int64_t>({1, 6, 7}));
  CHECK(values[0] == 5);
}

TEST_CASE("a uniform column reads its one value at every row until another is written",
          "[column]") {
  Column<int32_t> c = Column<int32_t>::Uniform(3, -1);
  CHECK(c.is_uniform());
  CHECK(c.size() == 3);
  CHECK(c[0] == -1);
  CHECK(c[2] == -1);
  CHECK(c.back() == -1);
  int64_t sum = 0;
  size_t rows = 0;
  for (int32_t v : c) sum += v, ++rows;  // iterators see every row, not the one stored value
  CHECK(rows == 3);
  CHECK(sum == -3);
  CHECK(std::count(c.begin(), c.end(), -1) == 3);
  CHECK(c == Column<int32_t>({-1, -1, -1}));
  CHECK_FALSE(c == Column<int32_t>({-1, -1}));
  c.reserve(100);
  c.push_back(-1);  // the same value: still one value, counted
  CHECK(c.is_uniform());
  CHECK(c.size() == 4);
  c.push_back(7);  // another: the column becomes an array, with the room asked for
  CHECK_FALSE(c.is_uniform());
  CHECK(c == Column<int32_t>({-1, -1, -1, -1, 7}));
  CHECK(c.owned().capacity() >= 100);
  Column<int64_t> written = Column<int64_t>::Uniform(2, 5);
  written.owned()[1] = 6;  // an element write makes the array first
  CHECK(written == Column<int64_t>({5, 6}));
  Column<int64_t> empty = Column<int64_t>::Uniform(0, 9);
  CHECK(empty.empty());
  CHECK(empty.begin() == empty.end());
}

TEST_CASE("a column of ids keeps 32-bit offsets while its values fit, and widens when one does not",
          "[column]") {
  Column<int64_t> ids = Column<int64_t>::Uniform(0, INT64_MIN);
  ids.NarrowWhenArray();
  ids.push_back(INT64_MIN);  // "no id": still one value
  CHECK(ids.is_uniform());
  ids.push_back(1'000'000);  // the first id: offsets from here on
  CHECK(ids.is_narrow());
  CHECK_FALSE(ids.is_array());
  ids.push_back(5);  // below the first, within half the range
  ids.push_back(INT64_MIN);
  ids.push_back(1'000'000 + (int64_t{1} << 31) - 5);  // above it, within the other half
  CHECK(ids.is_narrow());
  const std::vector<int64_t> want = {INT64_MIN, 1'000'000, 5, INT64_MIN,
                                     1'000'000 + (int64_t{1} << 31) - 5};
  CHECK(ids.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(ids[i] == want[i]);
  CHECK(std::vector<int64_t>(ids.begin(), ids.end()) == want);
  // The sort moves the offsets.
  size_t stored = 0;
  ids.ForStoredValues([&](auto& values) { stored = values.size() * sizeof(values[0]); });
  CHECK(stored == want.size() * 4);
  // An id out of reach: the values become a plain array, every one kept.
  Column<int64_t> wide = ids;
  wide.push_back(INT64_MAX);
  CHECK(wide.is_array());
  std::vector<int64_t> all = want;
  all.push_back(INT64_MAX);
  CHECK(std::vector<int64_t>(wide.begin(), wide.end()) == all);
  // Any other write widens first.
  ids.owned()[2] = 6;
  CHECK(ids.is_array());
  CHECK(ids[2] == 6);
  CHECK(ids[3] == INT64_MIN);
  // Negative and huge ids fit as well as small ones, each from its own base.
  for (int64_t first : {int64_t{-7}, INT64_MAX - 3, INT64_MIN + 2}) {
    INFO(first);
    Column<int64_t> c = Column<int64_t>::Uniform(2, INT64_MIN);
    c.NarrowWhenArray();
    c.push_back(first);
    c.push_back(first + 1);
    CHECK(c.is_narrow());
    CHECK(c[0] == INT64_MIN);
    CHECK(c[2] == first);
    CHECK(c[3] == first + 1);
  }
}

TEST_CASE("a vector's spare room goes back to the system and stays room", "[column]") {
  std::vector<int64_t> values;
  values.resize(1 << 18);  // 2 MiB, every page written
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i) * 3;
  values.resize(1000);
  size_t capacity = values.capacity();
  ReleaseSpareCapacity(&values);
  CHECK(values.capacity() == capacity);
  REQUIRE(values.size() == 1000);
  for (size_t i = 0; i < values.size(); ++i) REQUIRE(values[i] == static_cast<int64_t>(i) * 3);
#if defined(__linux__)
  // The whole pages past the values are no longer resident; the one holding the last value is.
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t kept = reinterpret_cast<uintptr_t>(values.data() + values.size() - 1) & ~(page - 1);
  uintptr_t spare =
      (reinterpret_cast<uintptr_t>(values.data() + values.size()) + page - 1) & ~(page - 1);
  uintptr_t end = reinterpret_cast<uintptr_t>(values.data() + capacity) & ~(page - 1);
  std::vector<unsigned char> resident((end - spare) / page);
  REQUIRE(mincore(reinterpret_cast<void*>(spare), end - spare, resident.data()) == 0);
  for (unsigned char r : resident) CHECK((r & 1) == 0);
  unsigned char last = 0;
  REQUIRE(mincore(reinterpret_cast<void*>(kept), page, &last) == 0);
  CHECK((last & 1) == 1);
#endif
  values.resize(capacity, 7);  // the room is there to write again
  CHECK(values.back() == 7);
  CHECK(values[999] == 999 * 3);
}

TEST_CASE("sparse rows give each row its value, V{} where none was given", "[column]") {
  // Appended in rising order, across words of 64 rows.
  SparseRows<int64_t> appended(200);
  const size_t rows[] = {0, 63, 64, 65, 130, 199};
  for (size_t r : rows) appended.Append(r, static_cast<int64_t>(r) * 10 + 1);
  appended.Seal();
  CHECK(appended.count() == 6);
  int64_t sum = 0, given = 0;
  for (size_t r = 0; r < 200; ++r) {
    sum += appended[r];
    given += appended[r] != 0;
  }
  CHECK(given == 6);
  CHECK(sum == (0 + 63 + 64 + 65 + 130 + 199) * 10 + 6);
  CHECK(appended[64] == 641);
  CHECK(appended[66] == 0);
  CHECK(appended[500] == 0);  // past the rows: none
  // Marked in any order, then written.
  SparseRows<double> marked(70);
  marked.Mark(69);
  marked.Mark(3);
  CHECK(marked.Marked(3));
  CHECK_FALSE(marked.Marked(4));
  marked.Seal();
  marked.At(69) = 2.5;
  marked.At(3) = -1.0;
  CHECK(marked[3] == -1.0);
  CHECK(marked[69] == 2.5);
  CHECK(marked[68] == 0.0);
  CHECK(SparseRows<int>()[0] == 0);  // never built
}

TEST_CASE("durations take the units the outputs print, a bare number in the default unit",
          "[duration]") {
  auto ns = [](const char* text, DurationUnit unit) { return ParseDuration(text, unit).value(); };
  CHECK(ns("100", DurationUnit::kUs) == 100'000);
  CHECK(ns("100", DurationUnit::kNs) == 100);
  CHECK(ns("1.234ms", DurationUnit::kUs) == 1'234'000);  // as FormatTime prints it
  CHECK(ns("12.345us", DurationUnit::kMs) == 12'345);
  CHECK(ns("2 s", DurationUnit::kUs) == 2'000'000'000);
  CHECK(ns("30ns", DurationUnit::kUs) == 30);
  CHECK_FALSE(ParseDuration("\xC2\xB5s", DurationUnit::kUs).ok());  // a unit without a number
  CHECK(ns("5\xC2\xB5s", DurationUnit::kNs) == 5'000);              // micro sign
  CHECK(ns(".5ms", DurationUnit::kUs) == 500'000);
  CHECK(ns("-3us", DurationUnit::kUs) == -3'000);
  CHECK(ns("0.0004us", DurationUnit::kUs) == 0);  // 0.4 ns rounds to 0
  // Past int64 nanoseconds: held at the end, not wrapped.
  CHECK(ns("99999999999999999999", DurationUnit::kUs) == INT64_MAX);
  for (const char* bad : {"", "ms", "1min", "1 ", "1..2", "--1", "1e3", "1 ms ", "+1"})
    CHECK_FALSE(ParseDuration(bad, DurationUnit::kUs).ok());
  // A threshold is 0 or more, and the message says so, naming the text and the bare unit.
  CHECK(ParseDuration("-3us", DurationUnit::kMs, DurationSign::kNonNegative).status().message() ==
        "-3us: expected a duration, 0 or more: a number of milliseconds or one with a unit (ns, "
        "us, ms, s), e.g. 250us or 1.5ms");
}

TEST_CASE("chunks made on either thread are used once each, in order, each with its own",
          "[parallel]") {
  // With rows enough to pay for a thread, both threads make chunks into slots used in turn where
  // there are two cores; with fewer, each chunk is made and used in turn. A slot is made again only
  // once it has been used: each use finds its own chunk's value there.
  for (size_t rows : {size_t{10}, kRowsWorthAThread}) {
    INFO(rows << " rows");
    constexpr size_t kChunks = 500, kSlots = 3;
    std::vector<size_t> made_in(kSlots, SIZE_MAX);
    std::vector<size_t> used;
    UseInOrder(
        rows, kChunks, kSlots, [&](size_t k, size_t slot) { made_in[slot] = k; },
        [&](size_t k, size_t slot) {
          if (k % 50 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          used.push_back(made_in[slot] == k ? k : SIZE_MAX);
        });
    REQUIRE(used.size() == kChunks);
    for (size_t k = 0; k < kChunks; ++k) REQUIRE(used[k] == k);
  }
}

TEST_CASE("a use that throws stops the helper and passes the error on", "[parallel]") {
  size_t last_used = 0;
  auto use = [&](size_t k, size_t) {
    if (k == 5) throw std::runtime_error("chunk 5");
    last_used = k;
  };
  CHECK_THROWS_WITH(UseInOrder(
                        kRowsWorthAThread, 1000, 2, [](size_t, size_t) {}, use),
                    "chunk 5");
  CHECK(last_used == 4);
}

TEST_CASE("each run is followed once it is led, in order", "[parallel]") {
  for (size_t rows : {size_t{10}, kRowsWorthAThread}) {
    INFO(rows << " rows");
    constexpr size_t kRuns = 300;
    std::vector<std::atomic<int>> led(kRuns);
    std::vector<size_t> followed;  // runs followed, or SIZE_MAX for one followed before it was led
    FollowInOrder(
        rows, kRuns,
        [&](size_t k) {
          if (k % 30 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          led[k] = 1;
        },
        [&](size_t k) { followed.push_back(led[k] ? k : SIZE_MAX); });
    REQUIRE(followed.size() == kRuns);
    for (size_t k = 0; k < kRuns; ++k) REQUIRE(followed[k] == k);
  }
  CHECK_THROWS_WITH(FollowInOrder(
                        kRowsWorthAThread, 100,
                        [](size_t k) {
                          if (k == 7) throw std::runtime_error("run 7");
                        },
                        [](size_t) {}),
                    "run 7");
}
