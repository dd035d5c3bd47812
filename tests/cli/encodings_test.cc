// Text profana reads is UTF-8 by the time it enters the model, whatever the file held: a database
// value that is not UTF-8 (SQLite stores TEXT as given) has each invalid sequence replaced by
// U+FFFD and counted as an invalid_string warning (--strict makes it fatal), so every output is
// valid UTF-8 and JSON, and what profana writes (converted JSON, summaries) it reads back. Also:
// views in a database, and UTF-16 input.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>

#include "profana/base/utf8.h"
#include "simdjson.h"
#include "test_util.h"

using profana::test::BuildSqliteDatabase;
using profana::test::ReadFile;
using profana::test::Run;
using profana::test::TempPath;
using profana::test::TestData;

namespace {

// A fixture's SQL with more appended, built into a database file.
std::string Database(const std::string& fixture, const std::string& name,
                     const std::string& extra_sql) {
  std::string path = TempPath(name);
  REQUIRE(BuildSqliteDatabase(ReadFile(TestData(fixture)) + "\n" + extra_sql, path) == "");
  return path;
}

// Strict JSON: simdjson refuses invalid UTF-8, NaN and trailing bytes.
bool IsStrictJson(const std::string& text) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  return !parser.parse(simdjson::padded_string(text)).get(doc);
}

const std::string kReplacementChar = "\xef\xbf\xbd";

}  // namespace

TEST_CASE("database text that is not UTF-8 is replaced, counted, and what is written reads back",
          "[utf8]") {
  struct Case {
    const char* fixture;
    const char* update;  // names ending in byte 0xff: a kernel's ("kernel"), and nvprof's op's
    const char* count;   // the warning's count
  };
  const Case cases[] = {
      {"nvprof/small.sql",
       "UPDATE StringTable SET value = CAST(x'6b65726e656cff' AS TEXT) WHERE _id_ = 3;"
       "UPDATE StringTable SET value = CAST(x'6164646d6dff' AS TEXT) WHERE _id_ = 2;",
       "2 invalid_string"},
      {"nsys/schema_3_25.sql",
       "UPDATE StringIds SET value = CAST(x'6b65726e656cff' AS TEXT) WHERE id = 6;",
       "1 invalid_string"},
  };
  for (const Case& c : cases) {
    INFO(c.fixture);
    std::string db = Database(c.fixture, "invalid.sqlite", c.update);
    for (std::vector<std::string> args : {std::vector<std::string>{"table", "--format", "json"},
                                          {"table", "--raw", "--format", "json"},
                                          {"tree", "--format", "json"},
                                          {"kernels", "--format", "json"}}) {
      args.insert(args.begin() + 1, db);
      auto r = Run(args);
      INFO(args[0] << "\n" << r.err);
      REQUIRE(r.code == 0);
      CHECK(IsStrictJson(r.out));
      CHECK(r.out.find(kReplacementChar) != std::string::npos);
      CHECK(r.err.find(c.count) != std::string::npos);
    }
    auto info = Run({"info", db});
    CHECK(info.out.find("column value: text that is not UTF-8 (1 invalid byte sequence kept as "
                        "U+FFFD)") != std::string::npos);
    auto strict = Run({"table", db, "--strict"});
    CHECK(strict.code == 2);
    CHECK(strict.err.find("invalid_string") != std::string::npos);
    // What profana writes of it, profana reads: the converted trace and a summary.
    std::string json = TempPath("converted.json"), summary = TempPath("invalid.pfs");
    REQUIRE(Run({"convert", db, "-o", json, "-q"}).code == 0);
    auto from_db = Run({"table", db, "-q"});
    auto from_json = Run({"table", json});
    CHECK(from_json.code == 0);
    CHECK(from_json.out == from_db.out);
    REQUIRE(Run({"summarize", db, "-o", summary, "-q"}).code == 0);
    auto steps = Run({"steps", summary});
    CHECK(steps.code == 0);
    auto merged = Run({"merge", summary});
    CHECK(merged.code == 0);
    CHECK(IsStrictJson(merged.out));
    std::remove(json.c_str());
    std::remove(summary.c_str());
    std::remove(db.c_str());
  }
}

TEST_CASE("rocpd and rocmProfileData text that is not UTF-8 is replaced and counted", "[utf8]") {
  for (const char* fixture : {"rocpd/small.sql", "rpd/small.sql"}) {
    INFO(fixture);
    // Every string the fixture stores gets a trailing 0xff byte, whatever its table is named.
    std::string sql = ReadFile(TestData(fixture));
    std::string db = TempPath("invalid_rocm.sqlite");
    REQUIRE(BuildSqliteDatabase(sql, db) == "");
    std::string tables;
    {
      // The string tables: rocpd's are uuid-suffixed (rocpd_string_<uuid>), RPD's rocpd_string.
      size_t at = 0;
      while ((at = sql.find("CREATE TABLE ", at)) != std::string::npos) {
        at += 13;
        std::string name = sql.substr(at, sql.find_first_of(" (", at) - at);
        if (name.find("string") != std::string::npos)
          tables += "UPDATE " + name + " SET string = CAST(CAST(string AS BLOB) || x'ff' AS TEXT);";
      }
    }
    REQUIRE_FALSE(tables.empty());
    REQUIRE(BuildSqliteDatabase(sql + "\n" + tables, db) == "");
    auto r = Run({"table", db, "--format", "json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(IsStrictJson(r.out));
    CHECK(r.out.find(kReplacementChar) != std::string::npos);
    CHECK(r.err.find("invalid_string") != std::string::npos);
    CHECK(Run({"table", db, "--strict"}).code == 2);
    std::remove(db.c_str());
  }
}

TEST_CASE("a view is refused naming it, where a table was expected", "[sqlite]") {
  // nvprof: kernels in a view, which must not load as a profile without kernels.
  std::string nvprof = Database("nvprof/small.sql", "view.nvvp",
                                "ALTER TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL RENAME TO k;"
                                "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM k;");
  auto r = Run({"table", nvprof});
  CHECK(r.code == 2);
  CHECK(r.err.find(nvprof + ": table CUPTI_ACTIVITY_KIND_KERNEL is a view") != std::string::npos);
  // Nsight Systems: the string table a view over a renamed table, which must not be called "not
  // an nvprof profile".
  std::string nsys = Database("nsys/schema_3_25.sql", "view.sqlite",
                              "ALTER TABLE StringIds RENAME TO s;"
                              "CREATE VIEW StringIds AS SELECT * FROM s;");
  r = Run({"table", nsys});
  CHECK(r.code == 2);
  CHECK(r.err.find(nsys + ": table StringIds is a view") != std::string::npos);
  CHECK(r.err.find("nvprof") == std::string::npos);
  std::remove(nvprof.c_str());
  std::remove(nsys.c_str());
}

TEST_CASE("UTF-16 and UTF-32 input is named, not called an unknown format", "[utf8]") {
  CHECK(std::string(profana::OtherUnicodeEncoding(std::string_view("\xff\xfe{\0\"\0", 6))) ==
        "UTF-16LE");
  CHECK(std::string(profana::OtherUnicodeEncoding(std::string_view("\xfe\xff\0{", 4))) ==
        "UTF-16BE");
  CHECK(std::string(profana::OtherUnicodeEncoding(std::string_view("{\0\"\0", 4))) == "UTF-16LE");
  CHECK(std::string(profana::OtherUnicodeEncoding(std::string_view("{\0\0\0", 4))) == "UTF-32LE");
  CHECK(profana::OtherUnicodeEncoding("{\"traceEvents\"") == nullptr);
  std::string path = TempPath("utf16.json");
  std::string text = "\xff\xfe";
  for (char c : std::string("{\"traceEvents\": []}")) text += std::string(1, c) + '\0';
  std::ofstream(path, std::ios::binary) << text;
  auto r = Run({"table", path});
  CHECK(r.code == 2);
  CHECK(r.err == "profana: error: " + path +
                     ": byte 0: UTF-16LE text; profana reads traces in UTF-8 (as JSON is "
                     "written): convert it first, e.g. iconv -f UTF-16LE -t UTF-8\n");
  std::remove(path.c_str());
}
