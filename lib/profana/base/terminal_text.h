// Names from a trace are text an attacker may have written: `\e]52;c;...\a` sets a terminal's
// clipboard, `\e[2J` clears its screen. Everything profana prints as text shows control
// characters visibly instead of sending them to the terminal.
#pragma once

#include <string>
#include <string_view>

namespace profana {

// `name` with every C0 control character (newline and tab included), DEL and C1 control
// (U+0080..U+009F) written visibly: "\x1b", "\x7f", "\u009b". Text without them comes back
// unchanged. For names and other trace text placed in a text report or a message.
std::string Printable(std::string_view name);
// Printable(name) appended to `out`, without a copy when there is nothing to escape.
void AppendPrintable(std::string* out, std::string_view name);

// A whole text report or message, in place: like Printable, but keeps newline and tab (the
// layout) and, with keep_colors, SGR colour sequences (ESC [ digits ; m: colours only) the
// reporter wrote. Text without control characters is left as it is, uncopied.
void MakePrintable(std::string* text, bool keep_colors = false);

// True when Printable(s) would differ from s.
bool HasControlCharacters(std::string_view s);

// True when MakePrintable would look further at `text`: it holds a control character other than
// newline and tab (a colour sequence included).
bool HasControlCharactersInText(std::string_view text);

}  // namespace profana
