// Broken input: every case in testdata/bad/MANIFEST gives its exact first stderr line and exit
// code; truncation at every byte of a small trace recovers exactly the complete events.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

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

std::string Trim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  return s;
}

// An input column is a file in testdata/bad, optionally followed by " | step" recipes that make
// the damaged input at test time from readable text (binary fixtures are never committed):
//   sql STATEMENT    append a statement to the SQL text (one damage to a sound fixture)
//   sqlite           build the SQL text into a SQLite database
//   native           convert the trace to profana's native binary file
//   truncate N       keep the first N bytes
//   poke OFFSET HEX  overwrite bytes at OFFSET with the hex bytes
// Returns the path to run profana on: the file itself, or a made file in /tmp.
std::string MakeInput(const std::string& column, const std::string& made) {
  std::vector<std::string> steps;
  for (size_t pos = 0;;) {
    size_t bar = column.find('|', pos);
    steps.push_back(
        Trim(column.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos)));
    if (bar == std::string::npos) break;
    pos = bar + 1;
  }
  std::string path = "testdata/bad/" + steps[0];
  if (steps.size() == 1) return path;
  std::string bytes = profana::test::ReadFile(path);
  for (size_t i = 1; i < steps.size(); ++i) {
    std::istringstream step(steps[i]);
    std::string verb;
    step >> verb;
    if (verb == "sql") {
      bytes += "\n" + steps[i].substr(4) + ";\n";
    } else if (verb == "sqlite") {
      REQUIRE(profana::test::BuildSqliteDatabase(bytes, made) == "");
      bytes = profana::test::ReadFile(made);
    } else if (verb == "native") {
      std::ofstream(made + ".json", std::ios::binary | std::ios::trunc) << bytes;
      REQUIRE(profana::test::Run({"convert", "-q", made + ".json", "-o", made + ".pfa"}).code == 0);
      bytes = profana::test::ReadFile(made + ".pfa");
      std::remove((made + ".json").c_str());
      std::remove((made + ".pfa").c_str());
    } else if (verb == "truncate") {
      size_t n;
      step >> n;
      REQUIRE(n <= bytes.size());
      bytes.resize(n);
    } else if (verb == "poke") {
      size_t offset;
      std::string hex;
      step >> offset >> hex;
      REQUIRE(offset + hex.size() / 2 <= bytes.size());
      for (size_t k = 0; k + 1 < hex.size(); k += 2)
        bytes[offset + k / 2] = static_cast<char>(std::stoi(hex.substr(k, 2), nullptr, 16));
    } else {
      FAIL("unknown MANIFEST step: " << steps[i]);
    }
  }
  std::ofstream(made, std::ios::binary | std::ios::trunc) << bytes;
  return made;
}

}  // namespace

TEST_CASE("every broken input in testdata/bad gives its first error line and exit code", "[bad]") {
  std::ifstream manifest(profana::test::TestData("bad/MANIFEST"));
  int cases = 0;
  for (std::string line; std::getline(manifest, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = SplitTabs(line);
    REQUIRE(f.size() == 4);
    std::string made =
        "/tmp/profana_bad_" + std::to_string(::getpid()) + "_" + std::to_string(cases);
    std::string path = MakeInput(f[0], made);
    std::vector<std::string> args = {"table", path};
    std::istringstream extra(f[1]);
    for (std::string arg; extra >> arg;) args.push_back(arg);
    auto r = profana::test::Run(args);
    INFO("profana " << args[0] << " " << path << " " << f[1]);
    CHECK(r.code == std::stoi(f[2]));
    CHECK(r.err.substr(0, r.err.find('\n')) == Replace(f[3], "{}", path));
    if (r.code == 0)
      CHECK_FALSE(r.out.empty());  // a warning never costs the result
    else
      CHECK(r.out.empty());
    std::remove(made.c_str());
    ++cases;
  }
  CHECK(cases >= 15);
}

TEST_CASE("a trace cut at any byte keeps exactly its complete events", "[bad]") {
  std::string text = profana::test::ReadFile(profana::test::TestData("bad/wrong_types.json"));
  text = Replace(text, "\"1020.250\"", "1020.250");  // a valid three-event trace
  // Offsets just past each event's closing brace.
  std::vector<size_t> ends;
  for (size_t at = text.find("}},"); at != std::string::npos; at = text.find("}},", at + 1))
    ends.push_back(at + 2);
  ends.push_back(text.find("}}\n  ]") + 2);
  REQUIRE(ends.size() == 3);
  for (size_t cut = 1; cut < text.size(); ++cut) {
    auto input = profana::InputFromBytes(text.substr(0, cut), "cut.json");
    REQUIRE(input.ok());
    auto loaded = profana::LoadTraceFromBuffer(*input);
    size_t complete = std::upper_bound(ends.begin(), ends.end(), cut) - ends.begin();
    INFO("cut at byte " << cut);
    if (complete == 0) {
      CHECK_FALSE(loaded.ok());
      continue;
    }
    REQUIRE(loaded.ok());
    const profana::Trace* trace = &loaded->trace;
    CHECK(trace->events.size() == complete);
    // The closing "]\n}" is not an event: cutting inside it loses nothing but is still said.
    bool whole_events_kept = complete == 3;
    CHECK(
        (trace->metadata.lost_bytes == 0 || !whole_events_kept || trace->metadata.lost_bytes < 8));
  }
  auto full = profana::InputFromBytes(text, "full.json");
  auto loaded = profana::LoadTraceFromBuffer(*full);
  REQUIRE(loaded.ok());
  const profana::Trace* trace = &loaded->trace;
  CHECK(trace->events.size() == 3);
  CHECK(trace->diagnostics.empty());
}

TEST_CASE("an E naming another event than its B is counted at its byte offset", "[bad]") {
  // The first E (event #3, at byte 169) names "b" but closes "c"; the events are as if it named
  // "c": a [1, 9] us holding c [3, 7] us. An E without a name, or with its B's, is not counted.
  std::string text =
      "[{\"ph\": \"B\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1},\n"
      " {\"ph\": \"B\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": 3},\n"
      " {\"ph\": \"B\", \"name\": \"b\", \"pid\": 1, \"tid\": 2, \"ts\": 4},\n"
      " {\"ph\": \"E\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 7},\n"
      " {\"ph\": \"E\", \"name\": \"b\", \"pid\": 1, \"tid\": 2, \"ts\": 8},\n"
      " {\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 9}]\n";
  size_t mismatched_at = text.find("{\"ph\": \"E\"");
  REQUIRE(mismatched_at == 169);
  auto input = profana::InputFromBytes(text, "mismatch.json");
  REQUIRE(input.ok());
  auto loaded = profana::LoadTraceFromBuffer(*input);
  REQUIRE(loaded.ok());
  const profana::Trace& t = loaded->trace;
  CHECK(t.diagnostics.count(profana::DiagnosticKind::kMismatchedEnd) == 1);
  REQUIRE(t.diagnostics.samples().size() == 1);
  CHECK(t.diagnostics.samples()[0].byte_offset == mismatched_at);
  CHECK(t.diagnostics.samples()[0].event_index == 3);
  CHECK(t.diagnostics.samples()[0].detail == "E \"b\" closes B \"c\" on its thread");
  REQUIRE(t.events.size() == 3);
  CHECK(t.str(t.events.name[0]) == "a");
  CHECK(t.events.end_ns[0] == 9000);
  CHECK(t.str(t.events.name[1]) == "c");
  CHECK(t.events.end_ns[1] == 7000);
  CHECK(t.str(t.events.name[2]) == "b");
  CHECK(t.events.end_ns[2] == 8000);
}
