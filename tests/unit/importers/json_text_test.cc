// The Chrome JSON importer's text: exact number parsing (microseconds to nanoseconds, JSON's
// grammar, eight digits at a time), Python-style Input Dims, and truncation repair.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "profana/importers/chrome_json/json_numbers.h"
#include "profana/importers/chrome_json/shapes_text.h"
#include "profana/importers/chrome_json/truncation.h"

using namespace profana;

TEST_CASE("microsecond text becomes exact nanoseconds", "[numbers]") {
  int64_t ns = 0;
  CHECK(json::ParseMicrosToNanos("1727743122123.456", &ns));
  CHECK(ns == 1727743122123456ll);  // epoch-scale microseconds, exact to the nanosecond
  CHECK(json::ParseMicrosToNanos("5.1", &ns));
  CHECK(ns == 5100);
  CHECK(json::ParseMicrosToNanos("9.434000000000005", &ns));
  CHECK(ns == 9434);
  CHECK(json::ParseMicrosToNanos("0.0005", &ns));
  CHECK(ns == 1);  // half away from zero
  CHECK(json::ParseMicrosToNanos("-4", &ns));
  CHECK(ns == -4000);
  CHECK(json::ParseMicrosToNanos("1.5e3", &ns));
  CHECK(ns == 1500000);
  CHECK(json::ParseMicrosToNanos("42 ", &ns));
  CHECK(ns == 42000);
  CHECK_FALSE(json::ParseMicrosToNanos("99999999999999999", &ns));  // overflows int64 ns
  CHECK_FALSE(json::ParseMicrosToNanos("1.", &ns));
  // Either side of 18 digits, where the one-pass reader hands over to the careful one.
  CHECK(json::ParseMicrosToNanos("999999999999999.9996", &ns));
  CHECK(ns == 999999999999999999ll + 1);
  CHECK(json::ParseMicrosToNanos("9223372036854775.807", &ns));  // 16 digits, then INT64_MAX
  CHECK(ns == INT64_MAX);
  CHECK_FALSE(json::ParseMicrosToNanos("9223372036854775.808", &ns));
  CHECK_FALSE(
      json::ParseMicrosToNanos("99999999999999999999e-10", &ns));  // past int64 before the exponent
  CHECK(json::ParseMicrosToNanos("-0.0015", &ns));
  CHECK(ns == -2);
  CHECK_FALSE(json::ParseMicrosToNanos("00.5", &ns));
  CHECK_FALSE(json::ParseMicrosToNanos("abc", &ns));
  int64_t v = 0;
  CHECK(json::ParseInteger("-9223372036854775808", &v));
  CHECK(v == INT64_MIN);
  CHECK_FALSE(json::ParseInteger("18446744073709551615", &v));
  CHECK(json::ParseInteger("999999999999999999", &v));  // 18 digits
  CHECK(v == 999999999999999999ll);
  CHECK(json::ParseInteger("9223372036854775807", &v));  // 19
  CHECK(v == INT64_MAX);
  CHECK(json::ParseInteger("-0", &v));
  CHECK(v == 0);
  CHECK(json::ParseInteger("42.0", &v));
  CHECK(v == 42);
  CHECK(json::ParseInteger("4.2e1", &v));
  CHECK(v == 42);
}

TEST_CASE("numbers follow JSON's grammar, and a refusal says what was wrong", "[numbers]") {
  using json::NumberError;
  int64_t v = 0;
  NumberError why = NumberError::kNone;
  // strtod would read hexadecimal as 16; JSON has no hexadecimal.
  CHECK_FALSE(json::ParseInteger("0x10", &v, &why));
  CHECK(why == NumberError::kSyntax);
  CHECK_FALSE(json::ParseMicrosToNanos("0x10", &v, &why));
  CHECK(why == NumberError::kSyntax);
  // Leading zeros are not JSON ("0005"), a lone zero and "0.5" are.
  CHECK_FALSE(json::ParseMicrosToNanos("0005", &v, &why));
  CHECK(why == NumberError::kLeadingZero);
  CHECK_FALSE(json::ParseInteger("-01", &v, &why));
  CHECK(why == NumberError::kLeadingZero);
  CHECK(json::ParseInteger("0", &v));
  CHECK(v == 0);
  CHECK(json::ParseMicrosToNanos("0.5", &v));
  CHECK(v == 500);
  // An integer field is not rounded: 1.5 and 15e-1 are refused, 1.0 is an integer.
  CHECK_FALSE(json::ParseInteger("1.5", &v, &why));
  CHECK(why == NumberError::kNotInteger);
  CHECK_FALSE(json::ParseInteger("15e-1", &v, &why));
  CHECK(why == NumberError::kNotInteger);
  CHECK(json::ParseInteger("1.0", &v));
  CHECK(v == 1);
  // Other texts strtod accepts and JSON does not.
  for (const char* text : {"inf", "nan", "+1", "1.", ".5", "1e", "1e+", "--1", "1 2", "0x"}) {
    INFO(text);
    CHECK_FALSE(json::ParseInteger(text, &v, &why));
    CHECK(why == NumberError::kSyntax);
  }
  CHECK_FALSE(json::ParseInteger("9223372036854775808", &v, &why));
  CHECK(why == NumberError::kRange);
  CHECK_FALSE(json::ParseMicrosToNanos("1e300", &v, &why));
  CHECK(why == NumberError::kRange);
  CHECK(std::string(json::NumberErrorText(NumberError::kLeadingZero)) ==
        "is not a JSON number (leading zeros)");
}

TEST_CASE("numbers read eight digits at a time give what the digits spell, padded or not",
          "[numbers]") {
  using json::Padding;
  int64_t v = 0;
  // The bytes past the text are digits here: a word load that counted them would change the value.
  // Each text below has at least 8 bytes of the array after it, as kEightBytes promises.
  const char padded[] = "1727743122123.456789012345678 12345678901234567890123456789";
  CHECK(json::ParseMicrosToNanos(std::string_view(padded, 17), &v, nullptr, Padding::kEightBytes));
  CHECK(v == 1727743122123456ll);
  CHECK(json::ParseInteger(std::string_view(padded + 30, 2), &v, nullptr, Padding::kEightBytes));
  CHECK(v == 12);
  CHECK(json::ParseInteger(std::string_view(padded + 30, 18), &v, nullptr, Padding::kEightBytes));
  CHECK(v == 123456789012345678ll);
  CHECK(json::ParseInteger(std::string_view(padded + 30, 19), &v, nullptr, Padding::kEightBytes));
  CHECK(v == 1234567890123456789ll);  // 19 digits: the careful path
  // Every length from 1 to 24 over digits, points, signs, exponents and other bytes, each with
  // random bytes after it: the padded reading agrees with the byte-by-byte one.
  uint64_t state = 88172645463325252ull;
  auto next = [&] {  // xorshift64: the same texts on every platform
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
  };
  const char alphabet[] = "0123456789.-eE+ x0123456789";
  int parsed = 0;
  for (int round = 0; round < 200000; ++round) {
    char buf[64];
    for (char& c : buf) c = alphabet[next() % (sizeof alphabet - 1)];
    size_t length = 1 + next() % 24;
    if (next() % 2) std::fill(buf + (buf[0] == '-' ? 1 : 0), buf + length, '7');
    if (next() % 3 == 0) buf[next() % length] = '.';
    std::string_view text(buf, length);
    std::string alone(text);  // nothing readable past it
    int64_t a = 0, b = 0;
    json::NumberError why_a = json::NumberError::kNone, why_b = json::NumberError::kNone;
    bool ok_a = json::ParseMicrosToNanos(alone, &a, &why_a);
    bool ok_b = json::ParseMicrosToNanos(text, &b, &why_b, Padding::kEightBytes);
    REQUIRE(ok_a == ok_b);
    REQUIRE(why_a == why_b);
    if (ok_a) REQUIRE(a == b);
    ok_a = json::ParseInteger(alone, &a, &why_a);
    ok_b = json::ParseInteger(text, &b, &why_b, Padding::kEightBytes);
    REQUIRE(ok_a == ok_b);
    REQUIRE(why_a == why_b);
    if (ok_a) REQUIRE(a == b);
    parsed += ok_a;
  }
  CHECK(parsed >
        20000);  // the texts are numbers often enough to test the digits, not only refusals
}

TEST_CASE("Input Dims print as Python prints the list", "[shapes]") {
  std::string out;
  CHECK(json::RenderPythonShapes("[[4, 3, 16, 16], [8,3,3,3], [8], [], [], [], []]", &out));
  CHECK(out == "[[4, 3, 16, 16], [8, 3, 3, 3], [8], [], [], [], []]");
  out.clear();
  // A TensorList argument (its tensors' shapes nested one level deeper) shows as [], as PyTorch
  // 2.x's FunctionEvent.input_shapes has it; the other arguments are kept.
  CHECK(json::RenderPythonShapes("[\n  [[1, 2], [3]],\n  [5]\n]", &out));
  CHECK(out == "[[], [5]]");
  out.clear();
  CHECK(json::RenderPythonShapes("[[8], [ [[1]], [2] ], []]", &out));
  CHECK(out == "[[8], [], []]");
  out.clear();
  CHECK_FALSE(json::RenderPythonShapes("[[[1, 2], [3]", &out));
  out.clear();
  CHECK(json::RenderPythonShapes("[\"a\", true, null, 1.5]", &out));
  CHECK(out == "['a', True, None, 1.5]");
  out.clear();
  CHECK_FALSE(json::RenderPythonShapes("[[1, 2]", &out));
}

TEST_CASE("truncation repair cuts after the last whole event and closes what is open",
          "[truncation]") {
  auto r = json::FindTruncationRepair("{\"traceEvents\": [{\"a\": 1}, {\"b\": \"x}");
  CHECK(r.truncated);
  CHECK(r.cut == 25);
  CHECK(r.closers == "]}");
  r = json::FindTruncationRepair("[{\"a\": [1, 2]}, {\"b\": [3,");
  CHECK(r.truncated);
  CHECK(r.cut == 14);
  CHECK(r.closers == "]");
  r = json::FindTruncationRepair("{\"traceEvents\": [{\"a\": \"}]\"}]}");
  CHECK_FALSE(r.truncated);
  r = json::FindTruncationRepair("{\"traceEvents\": [{\"a");
  CHECK(r.truncated);
  CHECK(r.cut == 0);
}

TEST_CASE("Input Dims that are not one well-formed JSON list are refused", "[shapes]") {
  // The parser takes the args' arrays as raw text without reading them; the shapes are read here.
  for (const char* bad :
       {"[[16, 16], []2 [], []]", "[[1 2]]", "[[1,, 2]]", "[[1, 2],]", "[, [1]]", "[[1]] [2]",
        "[[1]],", "[[1.]]", "[[01]]", "[[--1]]", "[[1e]]", "[[x]]", "[\"a\" 1]"}) {
    std::string out;
    INFO(bad);
    CHECK_FALSE(json::RenderPythonShapes(bad, &out));
  }
  std::string out = "kept ";
  CHECK(json::RenderPythonShapes("[ [1, -2.5e-3] , [] ]", &out));
  CHECK(out == "kept [[1, -2.5e-3], []]");
}
