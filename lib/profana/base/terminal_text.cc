#include "profana/base/terminal_text.h"

#include <cstdint>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "fmt/format.h"

namespace profana {
namespace {

// Length of the control character at s[i] (1 for C0 and DEL, 2 for a UTF-8 C1), or 0.
size_t ControlAt(std::string_view s, size_t i) {
  auto c = static_cast<uint8_t>(s[i]);
  if (c < 0x20 || c == 0x7f) return 1;
  if (c == 0xc2 && i + 1 < s.size()) {
    auto next = static_cast<uint8_t>(s[i + 1]);
    if (next >= 0x80 && next <= 0x9f) return 2;
  }
  return 0;
}

// Length of an SGR sequence (ESC [ digits and semicolons m) at s[i], or 0.
size_t ColorAt(std::string_view s, size_t i) {
  if (s[i] != '\x1b' || i + 1 >= s.size() || s[i + 1] != '[') return 0;
  for (size_t j = i + 2; j < s.size(); ++j) {
    if (s[j] == 'm') return j + 1 - i;
    if (!((s[j] >= '0' && s[j] <= '9') || s[j] == ';')) return 0;
  }
  return 0;
}

std::string Escape(std::string_view s, bool keep_layout, bool keep_colors) {
  std::string out;
  out.reserve(s.size() + 16);
  for (size_t i = 0; i < s.size();) {
    size_t n = ControlAt(s, i);
    if (n == 0 || (keep_layout && (s[i] == '\n' || s[i] == '\t'))) {
      out.push_back(s[i++]);
      continue;
    }
    if (size_t color = keep_colors ? ColorAt(s, i) : 0) {
      out.append(s.substr(i, color));
      i += color;
      continue;
    }
    if (n == 2)
      out += fmt::format("\\u{:04x}", static_cast<uint8_t>(s[i + 1]));
    else
      out += fmt::format("\\x{:02x}", static_cast<uint8_t>(s[i]));
    i += n;
  }
  return out;
}

// Per byte of `v`, its high bit set where the byte is zero and clear elsewhere (exact, with no
// carry between bytes: "Bit Twiddling Hacks", determine if a word has a zero byte).
uint64_t ZeroBytes(uint64_t v) {
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  return ~(((v & kLow7) + kLow7) | v | kLow7);
}

// Whether any of the 8 bytes of `w` may start a control character: a byte below 0x20 (but a
// newline or tab, where the layout is kept), DEL (0x7f), or 0xc2 (the lead byte of a C1
// control). A word that may is then looked at byte by byte.
bool MayHoldControl(uint64_t w, bool keep_layout) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  uint64_t below_space = ZeroBytes(w & (kOnes * 0xe0));
  if (keep_layout) below_space &= ~(ZeroBytes(w ^ (kOnes * '\n')) | ZeroBytes(w ^ (kOnes * '\t')));
  return (below_space | ZeroBytes(w ^ (kOnes * 0x7f)) | ZeroBytes(w ^ (kOnes * 0xc2))) != 0;
}

// Whether a control character starts at s[i] (a newline or tab only where the layout is not kept).
bool ControlHere(std::string_view s, size_t i, bool keep_layout) {
  auto c = static_cast<uint8_t>(s[i]);
  if (c >= 0x20 && c != 0x7f && c != 0xc2) return false;
  if (keep_layout && (c == '\n' || c == '\t')) return false;
  return ControlAt(s, i) != 0;
}

// Whether any of the 32 bytes at p may start a control character (MayHoldControl's test).
#if defined(__AVX2__)
bool BlockMayHoldControl(const char* p, bool keep_layout) {
  __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  auto eq = [&](char c) { return _mm256_cmpeq_epi8(v, _mm256_set1_epi8(c)); };
  // Unsigned v <= 0x1f: max(v, 0x1f) is 0x1f.
  __m256i low =
      _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(0x1f)), _mm256_set1_epi8(0x1f));
  if (keep_layout) low = _mm256_andnot_si256(_mm256_or_si256(eq('\n'), eq('\t')), low);
  __m256i any = _mm256_or_si256(low, _mm256_or_si256(eq('\x7f'), eq('\xc2')));
  return _mm256_movemask_epi8(any) != 0;
}
#endif

bool HasControls(std::string_view s, bool keep_layout) {
  size_t i = 0;
#if defined(__AVX2__)
  // 32 bytes at a time past the blocks that cannot hold one: a whole output streams through here.
  for (; i + 32 <= s.size(); i += 32) {
    if (!BlockMayHoldControl(s.data() + i, keep_layout)) continue;
    for (size_t j = i; j < i + 32; ++j)
      if (ControlHere(s, j, keep_layout)) return true;
  }
#endif
  // Eight bytes at a time past the words that cannot hold one.
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (!MayHoldControl(w, keep_layout)) continue;
    for (size_t j = i; j < i + 8; ++j)
      if (ControlHere(s, j, keep_layout)) return true;
  }
  for (; i < s.size(); ++i)
    if (ControlHere(s, i, keep_layout)) return true;
  return false;
}

}  // namespace

bool HasControlCharacters(std::string_view s) { return HasControls(s, false); }

bool HasControlCharactersInText(std::string_view text) { return HasControls(text, true); }

std::string Printable(std::string_view name) {
  std::string out;
  AppendPrintable(&out, name);
  return out;
}

void AppendPrintable(std::string* out, std::string_view name) {
  if (!HasControls(name, false))
    out->append(name);
  else
    out->append(Escape(name, false, false));
}

void MakePrintable(std::string* text, bool keep_colors) {
  if (HasControls(*text, true)) *text = Escape(*text, true, keep_colors);
}

}  // namespace profana
