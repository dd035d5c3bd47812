#include "profana/base/nearest_names.h"

#include <algorithm>
#include <utility>

#include "fmt/format.h"

namespace profana {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::vector<std::string> NearestNames(std::string_view word, const std::vector<std::string>& names,
                                      size_t most) {
  std::vector<std::pair<size_t, const std::string*>> near;
  for (const std::string& name : names) {
    if (name == word) continue;
    size_t distance = EditDistance(word, name);
    bool prefix = word.size() >= 2 && name.compare(0, word.size(), word) == 0;
    if (prefix || (distance <= 2 && distance < word.size())) near.emplace_back(distance, &name);
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < near.size() && i < most; ++i) out.push_back(*near[i].second);
  return out;
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& names) {
  std::vector<std::string> near = NearestNames(word, names);
  if (near.empty()) return "";
  std::string list;
  for (size_t i = 0; i < near.size(); ++i)
    list += fmt::format("{}\"{}\"", i == 0 ? "" : " or ", near[i]);
  return fmt::format("did you mean {}?", list);
}

std::string UnknownNameMessage(std::string_view noun, std::string_view word,
                               const std::vector<std::string>& names) {
  std::string hint = DidYouMean(word, names);
  return fmt::format("unknown {} \"{}\"{} (expected one of: {})", noun, word,
                     hint.empty() ? "" : "; " + hint, fmt::join(names, ", "));
}

}  // namespace profana
