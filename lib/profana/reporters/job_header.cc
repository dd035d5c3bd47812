#include "profana/reporters/job_header.h"

namespace profana::report {

void WriteJobHeader(JsonWriter& w, std::string_view schema, const std::vector<std::string>& inputs,
                    const std::vector<int64_t>& ranks, std::string_view view) {
  w.BeginObject();
  w.Key("schema").String(schema);
  w.Key("inputs").BeginArray();
  for (const std::string& in : inputs) w.String(in);
  w.EndArray();
  w.Key("ranks").BeginArray();
  for (int64_t rank : ranks) w.Int(rank);
  w.EndArray();
  if (!view.empty()) w.Key("view").String(view);
  w.Key("unit").String("us");
}

}  // namespace profana::report
