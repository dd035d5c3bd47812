// UTF-8, as every text profana keeps is: importers pass what they read through ToValidUtf8, so
// that whatever a trace's names hold, each output profana writes (JSON above all, which must be
// UTF-8) is text profana and other tools read back. An invalid sequence becomes U+FFFD, one per
// maximal subpart (Unicode's recommended practice, chapter 3.9, "U+FFFD Substitution of Maximal
// Subparts"), as decoders everywhere replace it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace profana {

// True when `s` is well-formed UTF-8 (Unicode table 3-7: no overlong forms, no surrogates, nothing
// past U+10FFFF, no sequence cut short).
bool IsValidUtf8(std::string_view s);

// Appends `s` to `out` with each invalid sequence replaced by U+FFFD (EF BF BD); returns how many
// were replaced (0: `s` was appended as it is).
size_t AppendValidUtf8(std::string_view s, std::string* out);

// `s` itself when it is valid, else its repaired copy in `*scratch` (which the result then views).
// `*replaced` counts the sequences replaced (0 when `s` was valid).
std::string_view ToValidUtf8(std::string_view s, std::string* scratch, size_t* replaced);

// The bytes of the sequence at the start of non-empty `s`: a valid character (*valid true), or
// the maximal subpart that AppendValidUtf8 replaces by one U+FFFD (*valid false). For writers
// that go through text a character at a time.
size_t Utf8Sequence(std::string_view s, bool* valid);

// The name of the Unicode encoding other than UTF-8 that a text starting with `first_bytes` is in
// ("UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"): by its byte-order mark, or without one by the
// zero bytes beside an ASCII first character (a JSON file saved as UTF-16 by Windows tools).
// Null when it is none of them.
const char* OtherUnicodeEncoding(std::string_view first_bytes);

}  // namespace profana
