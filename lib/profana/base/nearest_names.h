// "Did you mean": the names near a mistyped word, for every message that refuses a name (a
// command, an option, a sort key, a metric, a format, a unit), so that each suggests the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace profana {

// Optimal string alignment distance: edits, with a swap of two neighbours as one ("tabel").
size_t EditDistance(std::string_view a, std::string_view b);

// The names of `names` near `word`, nearest first, at most `most`: those `word` begins (two
// letters or more), and those at most two edits away with fewer edits than `word` has letters
// ("ls" is not near "help"). Ties keep the order of `names`.
std::vector<std::string> NearestNames(std::string_view word, const std::vector<std::string>& names,
                                      size_t most = 3);

// `did you mean "self_cuda"?` (or `"a" or "b"`), or "" when no name is near.
std::string DidYouMean(std::string_view word, const std::vector<std::string>& names);

// `unknown key "totl"; did you mean "total"? (expected one of: total, count)`: the message for a
// word that is none of `names` (a sort key, a metric, a format), which names the word, the noun it
// should have been and the names it may be.
std::string UnknownNameMessage(std::string_view noun, std::string_view word,
                               const std::vector<std::string>& names);

}  // namespace profana
