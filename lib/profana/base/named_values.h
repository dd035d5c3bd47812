// Values the command line names (a sort key, a metric, an output format): one table per value
// type, read by one parser, so that every such option accepts, lists and refuses names the same
// way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/nearest_names.h"
#include "profana/base/status.h"

namespace profana {

template <typename T>
struct NamedValue {
  std::string_view name;
  T value;
  bool listed = true;  // false for an alias: accepted, not offered by messages and completion
};

// The listed names of `table`, in its order.
template <typename T, size_t N>
std::vector<std::string> ListedNames(const NamedValue<T> (&table)[N]) {
  std::vector<std::string> names;
  for (const NamedValue<T>& entry : table)
    if (entry.listed) names.emplace_back(entry.name);
  return names;
}

// The value `text` names; kInvalidArgument with UnknownNameMessage (base/nearest_names.h) for a
// name not in `table`, `noun` saying what it should have been ("key", "metric").
template <typename T, size_t N>
Result<T> ParseNamedValue(std::string_view text, std::string_view noun,
                          const NamedValue<T> (&table)[N]) {
  for (const NamedValue<T>& entry : table)
    if (entry.name == text) return entry.value;
  return Status(ErrorCode::kInvalidArgument, UnknownNameMessage(noun, text, ListedNames(table)));
}

}  // namespace profana
