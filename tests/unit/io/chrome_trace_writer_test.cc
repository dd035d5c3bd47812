// What the Chrome-trace writer makes of input shapes and collective args it cannot write as the
// JSON Kineto writes: it leaves them out, so the document still parses. A native file may hold any
// text there (its text twin is edited by hand here, as a damaged or foreign file would be).
#include "profana/io/chrome_trace_writer.h"

#include <simdjson.h>

#include <catch2/catch.hpp>
#include <string>

#include "profana/io/native_text.h"
#include "test_util.h"

namespace {

// The text twin of one aten::mm whose input shapes text is `shapes`.
std::string TwinWithShapes(const std::string& shapes) {
  std::string twin = R"(profana-native-text 2
metadata format "kineto-json"
string 1 "X"
string 2 "cpu_op"
string 3 "aten::mm"
string 4 SHAPES
columns threads pid tid pid_text tid_text name process_name
threads 1 1 0 0 0 0
columns events name trace_name category kind thread start_ns end_ns external_id correlation sequence_nr fwd_thread input_shapes stack device comm flop_inputs device_args
events 3 3 2 0 0 1000 3000 -9223372036854775808 -9223372036854775808 -1 0 4 0 -1 0 0 4294967295
columns stacks parent frame depth
stacks 0 0 0
)";
  std::string quoted = "\"" + shapes + "\"";
  return profana::test::ReplaceAll(twin, "SHAPES", quoted);
}

// The "Input Dims" the writer gives the event, or "-" when it leaves them out. Requires the
// document to be strict JSON.
std::string WrittenDims(const std::string& shapes) {
  auto trace = profana::native::ReadNativeText(TwinWithShapes(shapes), "twin");
  REQUIRE(trace.ok());
  std::string json = profana::io::WriteChromeTrace(*trace);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(simdjson::padded_string(json)).get(doc) == simdjson::SUCCESS);
  const std::string key = "\"Input Dims\":";
  size_t at = json.find(key);
  if (at == std::string::npos) return "-";
  at += key.size();
  return json.substr(at, json.find('}', at) - at);
}

}  // namespace

TEST_CASE("input shapes are written back as JSON, or left out when they are not a list",
          "[chrome-writer]") {
  CHECK(WrittenDims("[[2, 3], [3, 4]]") == "[[2, 3], [3, 4]]");
  CHECK(WrittenDims("[[], ['a b', True, None, -1.5e3]]") == R"([[], ["a b", true, null, -1.5e3]])");
  // Not one well-formed list: a missing or a doubled comma, a value after the list, a number
  // JSON cannot read, an unclosed list or string, a bare value.
  for (const char* bad :
       {"[[16, 16], [], 2[], []]", "[[1 2]]", "[[1,, 2]]", "[[1, 2],]", "[, [1]]", "[[1]] [2]",
        "[[1]],", "[[1.]]", "[[01]]", "[[--1]]", "[[1e]]", "[[1, 2]", "[['a]]", "[[x]]", "7", "]"})
    CHECK(WrittenDims(bad) == "-");
}
