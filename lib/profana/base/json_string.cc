#include "profana/base/json_string.h"

#include "profana/base/utf8.h"

namespace profana {
namespace {

constexpr std::string_view kReplacement = "\xef\xbf\xbd";  // U+FFFD

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    auto u = static_cast<unsigned char>(c);
    // A C1 control (U+0080..U+009F, UTF-8 C2 80..C2 9F) is CSI and its kin on some terminals:
    // escaped like C0, so a document printed to a terminal cannot drive it.
    if (u == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
      auto next = static_cast<unsigned char>(s[++i]);
      out->append("\\u00");
      out->push_back(kHex[next >> 4]);
      out->push_back(kHex[next & 15]);
      continue;
    }
    if (u >= 0x80) {
      // JSON is UTF-8: an invalid sequence (a name from a file that never checked it) is written
      // as U+FFFD, as a reader would decode it, never as bytes that make the document invalid.
      bool valid;
      size_t n = Utf8Sequence(s.substr(i), &valid);
      if (valid)
        out->append(s.data() + i, n);
      else
        out->append(kReplacement);
      i += n - 1;
      continue;
    }
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out->append("\\u00");
          out->push_back(kHex[u >> 4]);
          out->push_back(kHex[u & 15]);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

bool ParseJsonString(std::string_view in, std::string* out, size_t* used, bool* replaced) {
  out->clear();
  if (in.empty() || in[0] != '"') return false;
  for (size_t i = 1; i < in.size(); ++i) {
    char c = in[i];
    if (c == '"') {
      *used = i + 1;
      return true;
    }
    if (static_cast<unsigned char>(c) < 0x20) return false;
    if (static_cast<unsigned char>(c) >= 0x80) {
      bool valid;
      size_t n = Utf8Sequence(in.substr(i), &valid);
      if (valid) {
        out->append(in.data() + i, n);
      } else {
        out->append(kReplacement);
        if (replaced) *replaced = true;
      }
      i += n - 1;
      continue;
    }
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (++i >= in.size()) return false;
    switch (in[i]) {
      case '"':
        out->push_back('"');
        break;
      case '\\':
        out->push_back('\\');
        break;
      case '/':
        out->push_back('/');
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'u': {
        auto hex4 = [&](size_t at, uint32_t* v) {
          if (at + 4 > in.size()) return false;
          *v = 0;
          for (size_t k = 0; k < 4; ++k) {
            int d = HexDigit(in[at + k]);
            if (d < 0) return false;
            *v = *v * 16 + static_cast<uint32_t>(d);
          }
          return true;
        };
        uint32_t cp;
        if (!hex4(i + 1, &cp)) return false;
        i += 4;
        uint32_t lo;
        if (cp >= 0xd800 && cp < 0xdc00 && i + 2 < in.size() && in[i + 1] == '\\' &&
            in[i + 2] == 'u' && hex4(i + 3, &lo) && lo >= 0xdc00 && lo < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          i += 6;
        } else if (cp >= 0xd800 && cp < 0xe000) {
          cp = 0xfffd;  // a lone surrogate: the replacement character, as decoders do
          if (replaced) *replaced = true;
        }
        AppendUtf8(cp, out);
        break;
      }
      default:
        return false;
    }
  }
  return false;
}

bool IsJsonNumber(std::string_view t) {
  size_t i = 0;
  auto digits = [&] {
    size_t from = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > from;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0')
    ++i;
  else if (!digits())
    return false;
  if (i < t.size() && t[i] == '.' && (++i, !digits())) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

}  // namespace profana
