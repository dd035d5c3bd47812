// `sql` tells a database profana wrote from a trace by the file its sniff opened: the header is
// read from that descriptor, so the check holds for a file removed from its folder after the open.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "profana/base/input_file.h"
#include "profana/importers/sqlite/database.h"
#include "profana/reporters/sql/sql_query.h"
#include "test_util.h"

TEST_CASE("a profana database is told by the header of the open file", "[sql][input_file]") {
  // A SQLite header (100 bytes) whose application id, the big-endian number at offset 68, is
  // profana's; then the same bytes with another id.
  std::string header("SQLite format 3", 15);
  header.push_back('\0');
  header.resize(100, '\0');
  for (int k = 0; k < 4; ++k)
    header[68 + k] = static_cast<char>(profana::sqlite::kProfanaDatabaseId >> (24 - 8 * k));
  std::string other = header;
  other[71] = 0;
  for (const auto& [bytes, profana_db] : {std::pair{header, true}, std::pair{other, false}}) {
    std::string path = profana::test::TempPath("sniffed_database.sqlite");
    profana::test::WriteFile(path, bytes);
    auto file = profana::InputFile::Open(path);
    REQUIRE(file.ok());
    REQUIRE(std::remove(path.c_str()) == 0);
    CHECK(profana::report::IsProfanaDatabase(*file) == profana_db);
  }
  // A trace, and standard input (never read here: the load reads it once), are not.
  auto trace = profana::InputFile::Open(profana::test::TestData("job/two_ranks/rank0.json"));
  REQUIRE(trace.ok());
  CHECK_FALSE(profana::report::IsProfanaDatabase(*trace));
  auto in = profana::InputFile::Open("-");
  REQUIRE(in.ok());
  CHECK_FALSE(profana::report::IsProfanaDatabase(*in));
}
