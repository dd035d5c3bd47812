#include "profana/io/convert_target.h"

#include "profana/base/ends_with.h"

namespace profana::io {

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
