// Text profana reads is UTF-8 by the time it enters the model, whatever the file held: a database
// value that is not UTF-8 (SQLite stores TEXT as given) has each invalid sequence replaced by
// U+FFFD and counted as an invalid_string warning (--strict makes it fatal), so every output is
// valid UTF-8 and JSON, and what profana writes (converted JSON, summaries) it reads back. Also:
// the JSON writer's own guard, the native reader, views in a database, and UTF-16 input.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>

#include "profana/base/json_string.h"
#include "profana/base/utf8.h"
#include "profana/io/native_reader.h"
#include "profana/io/native_writer.h"
#include "profana/model/trace_builder.h"
#include "simdjson.h"
#include "test_util.h"

namespace {

// Strict JSON: simdjson refuses invalid UTF-8, NaN and trailing bytes.
bool ParsesAsJson(const std::string& text) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  return !parser.parse(simdjson::padded_string(text)).get(doc);
}

const std::string kReplacement = "\xef\xbf\xbd";

}  // namespace

TEST_CASE("invalid UTF-8 becomes one U+FFFD per maximal subpart", "[utf8]") {
  using profana::AppendValidUtf8;
  using profana::IsValidUtf8;
  CHECK(IsValidUtf8("aten::mm caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5"));
  for (const char* bad : {"\xff", "\x80", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
                          "\xf4\x90\x80\x80", "\xe2\x86", "a\xc3"})
    CHECK_FALSE(IsValidUtf8(bad));
  // Unicode 15, table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64.
  std::string out;
  CHECK(AppendValidUtf8("a\xf1\x80\x80\xe1\x80\xc2"
                        "b\x80"
                        "c\x80\xbf"
                        "d",
                        &out) == 6);
  std::string r = kReplacement;
  CHECK(out == "a" + r + r + r + "b" + r + "c" + r + r + "d");
  // Surrogates and overlong forms are ill-formed at their first byte: one U+FFFD per byte.
  out.clear();
  CHECK(AppendValidUtf8("\xed\xa0\x80", &out) == 3);
  out.clear();
  CHECK(AppendValidUtf8("ok", &out) == 0);
  CHECK(out == "ok");
}

TEST_CASE("the JSON writer and reader keep JSON UTF-8 whatever a string holds", "[utf8]") {
  std::string out;
  profana::AppendJsonString("kernel\xff", &out);
  CHECK(out == "\"kernel" + kReplacement + "\"");
  CHECK(ParsesAsJson(out));
  std::string parsed;
  size_t used = 0;
  bool replaced = false;
  REQUIRE(profana::ParseJsonString("\"a\xc3(\"", &parsed, &used, &replaced));
  CHECK(parsed == "a" + kReplacement + "(");
  CHECK(replaced);
}

TEST_CASE("a native file's strings that are not UTF-8 are read with U+FFFD and counted", "[utf8]") {
  // The builder interns what it is given; a native file written from it holds the byte as is, as
  // a file another program wrote could.
  profana::TraceBuilder b;
  profana::TraceBuilder::Event e;
  e.kind = profana::ActivityKind::kCpuOp;
  e.trace_name = b.Intern("op\xff");
  e.category = b.Intern("cpu_op");
  e.thread = b.Thread(1, 1);
  e.start_ns = 0;
  e.end_ns = 1000;
  b.AddEvent(e);
  profana::Trace t = std::move(b).Finish();
  std::string bytes = profana::native::WriteNative(t);
  auto loaded = profana::native::ReadNative(bytes, "x.pfa", nullptr);
  REQUIRE(loaded.ok());
  bool found = false;
  for (size_t i = 0; i < loaded->trace.strings.size(); ++i)
    found = found || loaded->trace.strings.Get(profana::StringId(i)) == "op" + kReplacement;
  CHECK(found);
  CHECK(loaded->trace.diagnostics.count(profana::DiagnosticKind::kInvalidString) == 1);
}

TEST_CASE("a JSON number is what JSON's grammar allows, nothing more", "[json]") {
  for (const char* good : {"0", "-0", "7", "-12", "1.5", "-0.25", "1e3", "2E-7", "3.5e+10"})
    CHECK(profana::IsJsonNumber(good));
  for (const char* bad : {"", "-", "01", "1.", ".5", "+1", "1e", "1e+", "--1", "1.5.5", "0x10",
                          "NaN", "Infinity", "1 "})
    CHECK_FALSE(profana::IsJsonNumber(bad));
}
