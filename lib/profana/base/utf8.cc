#include "profana/base/utf8.h"

#include <cstdint>
#include <cstring>

namespace profana {
namespace {

// The length of the well-formed sequence that starts at s[i] (a lead byte >= 0x80), or, for an
// ill-formed one, 0 with *maximal set to the bytes of its maximal subpart (at least 1): the lead
// byte and the continuation bytes that could still have begun a valid sequence with it.
size_t MultiByte(const unsigned char* s, size_t n, size_t i, size_t* maximal) {
  unsigned char b = s[i];
  size_t need;
  unsigned char lo = 0x80, hi = 0xbf;  // the second byte's range (table 3-7)
  if (b >= 0xc2 && b <= 0xdf) {
    need = 2;
  } else if (b >= 0xe0 && b <= 0xef) {
    need = 3;
    if (b == 0xe0) lo = 0xa0;  // overlong
    if (b == 0xed) hi = 0x9f;  // surrogates
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 4;
    if (b == 0xf0) lo = 0x90;  // overlong
    if (b == 0xf4) hi = 0x8f;  // past U+10FFFF
  } else {
    *maximal = 1;  // a continuation byte alone, C0, C1, F5..FF
    return 0;
  }
  size_t k = 1;
  for (; k < need && i + k < n; ++k) {
    unsigned char c = s[i + k];
    bool ok = k == 1 ? (c >= lo && c <= hi) : (c >= 0x80 && c <= 0xbf);
    if (!ok) break;
  }
  if (k == need) return need;
  *maximal = k;
  return 0;
}

// The bytes from `from` up to the first non-ASCII one.
size_t AsciiRun(const unsigned char* s, size_t n, size_t from) {
  size_t i = from;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, s + i, 8);
    if (word & 0x8080808080808080ull) break;
  }
  while (i < n && s[i] < 0x80) ++i;
  return i;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size(), i = 0, maximal;
  while ((i = AsciiRun(s, n, i)) < n) {
    size_t len = MultiByte(s, n, i, &maximal);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

size_t AppendValidUtf8(std::string_view text, std::string* out) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size(), i = 0, replaced = 0;
  while (i < n) {
    size_t run = AsciiRun(s, n, i);
    out->append(text.data() + i, run - i);
    i = run;
    if (i == n) break;
    size_t maximal = 0, len = MultiByte(s, n, i, &maximal);
    if (len) {
      out->append(text.data() + i, len);
      i += len;
    } else {
      out->append("\xef\xbf\xbd");
      ++replaced;
      i += maximal;
    }
  }
  return replaced;
}

std::string_view ToValidUtf8(std::string_view s, std::string* scratch, size_t* replaced) {
  *replaced = 0;
  if (IsValidUtf8(s)) return s;
  scratch->clear();
  *replaced = AppendValidUtf8(s, scratch);
  return *scratch;
}

size_t Utf8Sequence(std::string_view text, bool* valid) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  *valid = true;
  if (s[0] < 0x80) return 1;
  size_t maximal = 1, len = MultiByte(s, text.size(), 0, &maximal);
  *valid = len != 0;
  return len ? len : maximal;
}

const char* OtherUnicodeEncoding(std::string_view b) {
  auto starts = [&](std::string_view prefix) { return b.substr(0, prefix.size()) == prefix; };
  using namespace std::string_view_literals;
  if (starts("\xff\xfe\0\0"sv)) return "UTF-32LE";
  if (starts("\0\0\xfe\xff"sv)) return "UTF-32BE";
  if (starts("\xff\xfe"sv)) return "UTF-16LE";
  if (starts("\xfe\xff"sv)) return "UTF-16BE";
  if (b.size() < 4) return nullptr;
  auto ascii = [](char c) { return c > 0 && static_cast<unsigned char>(c) < 0x80; };
  if (ascii(b[0]) && b[1] == 0 && b[2] == 0 && b[3] == 0) return "UTF-32LE";
  if (b[0] == 0 && b[1] == 0 && b[2] == 0 && ascii(b[3])) return "UTF-32BE";
  if (ascii(b[0]) && b[1] == 0 && ascii(b[2]) && b[3] == 0) return "UTF-16LE";
  if (b[0] == 0 && ascii(b[1]) && b[2] == 0 && ascii(b[3])) return "UTF-16BE";
  return nullptr;
}

}  // namespace profana
