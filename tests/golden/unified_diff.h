// A unified diff of two texts, line by line, for test failures: what a golden case expected
// against what it got, only the changed lines and a few around them.
#pragma once

#include <string>

namespace profana::test {

// "--- a\n+++ b\n@@ -l,n +l,n @@\n" hunks with `context` unchanged lines around each change.
// Whole hunks while they fit in `max_lines` lines (a first longer one is cut there), then a line
// saying how many changed lines are not shown. Empty when the texts are equal. A missing final
// newline is shown as diff shows it.
std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        const std::string& expected_name, const std::string& actual_name,
                        int context = 3, int max_lines = 80);

}  // namespace profana::test
