// Names are text whoever wrote the trace chose: Printable shows control characters visibly, the
// scan finds them at every place of a text, and CSV cells a spreadsheet would run as formulas get
// a leading '. One escaping function per output kind does it (terminal_text.h, markup_text.h,
// csv_field.h, base/json_string.h).
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "profana/base/terminal_text.h"
#include "profana/reporters/csv_field.h"
#include "simdjson.h"
#include "test_util.h"

using profana::MakePrintable;
using profana::Printable;
using profana::report::CsvField;

TEST_CASE("Printable shows C0, DEL and C1 controls and leaves other text alone", "[injection]") {
  CHECK(Printable("aten::mm") == "aten::mm");
  CHECK(Printable("caf\xc3\xa9 \xe2\x86\x92") == "caf\xc3\xa9 \xe2\x86\x92");  // é, →: not C1
  CHECK(Printable("\x1b[2J") == "\\x1b[2J");
  CHECK(Printable("a\nb\tc\x7f") == "a\\x0ab\\x09c\\x7f");
  CHECK(Printable("x\xc2\x9by") == "x\\u009by");
  std::string text = "name \x1b]52;c;aGk=\x07\n\tcolour \x1b[31mred\x1b[0m\n";
  MakePrintable(&text, /*keep_colors=*/true);
  CHECK(text == "name \\x1b]52;c;aGk=\\x07\n\tcolour \x1b[31mred\x1b[0m\n");
  MakePrintable(&text);
  CHECK(text == "name \\x1b]52;c;aGk=\\x07\n\tcolour \\x1b[31mred\\x1b[0m\n");
}

TEST_CASE("control characters are found at every place of a text, in 32- or 8-byte blocks or not",
          "[injection]") {
  using profana::HasControlCharacters;
  using profana::HasControlCharactersInText;
  // The byte-by-byte rule: C0 (newline and tab only in names), DEL, and 0xc2 0x80..0x9f.
  auto naive = [](const std::string& s, bool keep_layout) {
    for (size_t i = 0; i < s.size(); ++i) {
      auto c = static_cast<unsigned char>(s[i]);
      if (keep_layout && (c == '\n' || c == '\t')) continue;
      if (c < 0x20 || c == 0x7f) return true;
      if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
          static_cast<unsigned char>(s[i + 1]) <= 0x9f)
        return true;
    }
    return false;
  };
  // Lengths that end inside a first and a second 32-byte block, an 8-byte word, or neither.
  std::vector<size_t> lengths = {31, 32, 33, 39, 40, 63, 64, 65, 71, 72, 75};
  for (size_t length = 1; length <= 20; ++length) lengths.push_back(length);
  for (size_t length : lengths) {
    for (size_t at = 0; at < length; ++at) {
      for (int b = 0; b < 256; ++b) {
        for (char next : {'a', '\x85', '\xa0'}) {
          std::string s(length, 'a');
          s[at] = static_cast<char>(b);
          if (at + 1 < length) s[at + 1] = next;
          INFO("length " << length << ", byte " << b << " at " << at);
          REQUIRE(HasControlCharacters(s) == naive(s, false));
          REQUIRE(HasControlCharactersInText(s) == naive(s, true));
        }
      }
    }
  }
}

TEST_CASE("CSV cells that start a formula get a leading quote; numbers stay", "[injection]") {
  CHECK(CsvField("aten::mm") == "aten::mm");
  CHECK(CsvField("=1+2") == "'=1+2");
  CHECK(CsvField("+cmd") == "'+cmd");
  CHECK(CsvField("-x") == "'-x");
  CHECK(CsvField("@SUM(A1)") == "'@SUM(A1)");
  CHECK(CsvField("\tx") == "'\tx");
  CHECK(CsvField("=a,b") == "\"'=a,b\"");  // quoted as well: it holds a comma
  CHECK(CsvField("-12") == "-12");
  CHECK(CsvField("-0.25") == "-0.25");
  CHECK(CsvField("+12.5%") == "+12.5%");
  CHECK(CsvField("-1e-3") == "-1e-3");
  CHECK(CsvField("-") == "-");  // the reports' "no value"
  CHECK(CsvField("-1-2") == "'-1-2");
}
