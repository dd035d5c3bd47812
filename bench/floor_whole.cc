// Floor 1: whole-file On-Demand parse. Loads the trace into one padded_string (RSS ~ file size),
// walks traceEvents, sums dur by name. Usage: floor_whole TRACE.json
#include <simdjson.h>

#include <cstdio>
#include <string>
#include <unordered_map>

using namespace simdjson;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: floor_whole TRACE.json\n");
    return 2;
  }
  padded_string json;
  if (auto err = padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "floor_whole: %s\n", error_message(err));
    return 1;
  }
  ondemand::parser parser;
  std::unordered_map<std::string, double> dur_by_name;
  size_t events = 0;
  double dur_sum = 0;  // summed in file order, so floor_stream must print the same bits
  try {
    ondemand::document doc = parser.iterate(json);
    for (ondemand::object ev : doc["traceEvents"].get_array()) {
      std::string name(std::string_view(ev["name"].get_string()));
      double dur;
      if (ev["dur"].get_double().get(dur)) dur = 0;  // absent on instants, flows and metadata
      dur_by_name[name] += dur;
      dur_sum += dur;
      ++events;
    }
  } catch (const simdjson_error& e) {
    std::fprintf(stderr, "floor_whole: %s\n", e.what());
    return 1;
  }
  std::printf("events=%zu names=%zu dur_sum=%.3f\n", events, dur_by_name.size(), dur_sum);
  return 0;
}
