#include "profana/io/convert_target.h"

#include <string_view>

namespace profana::io {
namespace {

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string ConvertTargetFromName(const std::string& name) {
  if (EndsWith(name, ".pfa")) return "native";
  if (EndsWith(name, ".sqlite") || EndsWith(name, ".sqlite3") || EndsWith(name, ".db"))
    return "sqlite";
  if (EndsWith(name, ".txt")) return "text";
  if (EndsWith(name, ".json.gz")) return "json.gz";
  if (EndsWith(name, ".json")) return "json";
  return "";
}

}  // namespace profana::io
