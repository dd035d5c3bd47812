#include "golden/unified_diff.h"

#include <algorithm>
#include <vector>

namespace profana::test {
namespace {

std::vector<std::string> DiffLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) {
      lines.push_back(text.substr(at) + "\n\\ No newline at end of file");
      break;
    }
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

struct Edit {
  char op;      // ' ', '-', '+'
  size_t a, b;  // line index in expected / actual (the one the op uses)
};

// The edit script: common prefix and suffix taken as they are, the middle by a longest common
// subsequence table (outputs differ in a few places; a middle too big for the table is shown as
// all removed, then all added).
std::vector<Edit> Script(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre &&
         a[a.size() - 1 - suf] == b[b.size() - 1 - suf])
    ++suf;
  size_t n = a.size() - pre - suf, m = b.size() - pre - suf;
  std::vector<Edit> edits;
  for (size_t i = 0; i < pre; ++i) edits.push_back({' ', i, i});
  if (n * m <= (size_t{1} << 22)) {
    // lcs[i][j]: the LCS length of a[pre+i..] and b[pre+j..].
    std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        lcs[i][j] = a[pre + i] == b[pre + j] ? lcs[i + 1][j + 1] + 1
                                             : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[pre + i] == b[pre + j]) {
        edits.push_back({' ', pre + i++, pre + j++});
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        edits.push_back({'-', pre + i++, pre + j});  // removals first, as diff prints them
      } else {
        edits.push_back({'+', pre + i, pre + j++});
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i) edits.push_back({'-', pre + i, pre});
    for (size_t j = 0; j < m; ++j) edits.push_back({'+', pre + n, pre + j});
  }
  for (size_t k = 0; k < suf; ++k) edits.push_back({' ', pre + n + k, pre + m + k});
  return edits;
}

}  // namespace

std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        const std::string& expected_name, const std::string& actual_name,
                        int context, int max_lines) {
  if (expected == actual) return "";
  std::vector<std::string> a = DiffLines(expected), b = DiffLines(actual);
  std::vector<Edit> edits = Script(a, b);
  std::string out = "--- " + expected_name + "\n+++ " + actual_name + "\n";
  int shown = 0;
  size_t changed_left = 0;
  for (const Edit& e : edits) changed_left += e.op != ' ';
  const size_t ctx = static_cast<size_t>(context);
  for (size_t k = 0; k < edits.size();) {
    if (edits[k].op == ' ') {
      ++k;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last change
    // that is at most 2 * context unchanged lines further on.
    size_t begin = k > ctx ? k - ctx : 0, end = k;
    for (size_t q = k; q < edits.size(); ++q) {
      if (edits[q].op != ' ')
        end = q;
      else if (q - end > 2 * ctx)
        break;
    }
    end = std::min(edits.size(), end + ctx + 1);
    size_t a_count = 0, b_count = 0;
    for (size_t q = begin; q < end; ++q) {
      a_count += edits[q].op != '+';
      b_count += edits[q].op != '-';
    }
    // Whole hunks only, except a first one longer than max_lines.
    if (shown > 0 && shown + static_cast<int>(end - begin) > max_lines) break;
    out += "@@ -" + std::to_string(edits[begin].a + (a_count ? 1 : 0)) + "," +
           std::to_string(a_count) + " +" + std::to_string(edits[begin].b + (b_count ? 1 : 0)) +
           "," + std::to_string(b_count) + " @@\n";
    for (size_t q = begin; q < end && shown < max_lines; ++q, ++shown) {
      const Edit& e = edits[q];
      out += e.op;
      out += e.op == '+' ? b[e.b] : a[e.a];
      out += "\n";
      changed_left -= e.op != ' ';
    }
    k = end;
  }
  if (changed_left) out += "... and " + std::to_string(changed_left) + " more changed lines\n";
  return out;
}

}  // namespace profana::test
