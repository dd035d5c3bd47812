// The escaping rules of the marked-up outputs, one function per kind, as terminal_text.h has
// terminal text's, csv_field.h CSV's and base/json_string.h JSON's. Every reporter writing one of
// these kinds calls its function for every name it places; none restates the rule.
#pragma once

#include <string>
#include <string_view>

namespace profana::report {

// Text for an SVG or HTML document, in an element or a quoted attribute: & < > " written as
// entities, control characters (not allowed in XML) shown as terminal text shows them
// (Printable), and bytes that are not UTF-8 as U+FFFD, so the document stays well-formed.
std::string MarkupText(std::string_view s);

// Text for a Markdown table cell: shown as terminal text (a newline cannot end the row) and with
// | escaped (it cannot end the cell).
std::string MarkdownCell(std::string_view s);

// A Markdown code span nothing in `s` can end: its fence is one backtick longer than the longest
// run of backticks inside, with a space inside the fence when `s` starts or ends with one; the
// text shown as terminal text. In a table cell it goes through MarkdownCell as any text does.
std::string MarkdownCode(std::string_view s);

}  // namespace profana::report
