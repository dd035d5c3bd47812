// Broken input: every case in testdata/bad/MANIFEST gives its exact first stderr line and exit
// code; truncation at every byte of a small trace recovers exactly the complete events.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "profana/base/input_buffer.h"
#include "profana/importers/importer.h"
#include "test_util.h"

namespace {

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> fields;
  std::string cur;
  for (char c : line) {
    if (c == '\t') {
      fields.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  fields.push_back(cur);
  return fields;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("every broken input in testdata/bad gives its first error line and exit code", "[bad]") {
  std::ifstream manifest(profana::test::TestData("bad/MANIFEST"));
  int cases = 0;
  for (std::string line; std::getline(manifest, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = SplitTabs(line);
    REQUIRE(f.size() == 4);
    std::string path = "testdata/bad/" + f[0];
    std::vector<std::string> args = {"table", path};
    if (!f[1].empty()) args.push_back(f[1]);
    auto r = profana::test::Run(args);
    INFO("profana " << args[0] << " " << path << " " << f[1]);
    CHECK(r.code == std::stoi(f[2]));
    CHECK(r.err.substr(0, r.err.find('\n')) == Replace(f[3], "{}", path));
    if (r.code == 0) CHECK_FALSE(r.out.empty());  // a warning never costs the result
    else CHECK(r.out.empty());
    ++cases;
  }
  CHECK(cases >= 15);
}

TEST_CASE("a trace cut at any byte keeps exactly its complete events", "[bad]") {
  std::string text = profana::test::ReadFile(profana::test::TestData("bad/wrong_types.json"));
  text = Replace(text, "\"1020.250\"", "1020.250");  // a valid three-event trace
  // Offsets just past each event's closing brace.
  std::vector<size_t> ends;
  for (size_t at = text.find("}},"); at != std::string::npos; at = text.find("}},", at + 1)) ends.push_back(at + 2);
  ends.push_back(text.find("}}\n  ]") + 2);
  REQUIRE(ends.size() == 3);
  for (size_t cut = 1; cut < text.size(); ++cut) {
    auto input = profana::InputFromBytes(text.substr(0, cut), "cut.json");
    REQUIRE(input.ok());
    auto trace = profana::LoadTraceFromBuffer(*input);
    size_t complete = std::upper_bound(ends.begin(), ends.end(), cut) - ends.begin();
    INFO("cut at byte " << cut);
    if (complete == 0) {
      CHECK_FALSE(trace.ok());
      continue;
    }
    REQUIRE(trace.ok());
    CHECK(trace->events.size() == complete);
    // The closing "]\n}" is not an event: cutting inside it loses nothing but is still said.
    bool whole_events_kept = complete == 3;
    CHECK((trace->metadata.lost_bytes == 0 || !whole_events_kept || trace->metadata.lost_bytes < 8));
  }
  auto full = profana::InputFromBytes(text, "full.json");
  auto trace = profana::LoadTraceFromBuffer(*full);
  REQUIRE(trace.ok());
  CHECK(trace->events.size() == 3);
  CHECK(trace->diagnostics.empty());
}
