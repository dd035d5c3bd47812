// Broken input in the importer: a trace cut at every byte keeps exactly its complete events, and
// an E naming another event than its B is counted at its byte offset.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "profana/base/input_buffer.h"
#include "profana/importers/importer.h"
#include "test_util.h"

using profana::test::ReplaceAll;

TEST_CASE("a trace cut at any byte keeps exactly its complete events", "[bad]") {
  std::string text = profana::test::ReadFile(profana::test::TestData("bad/wrong_types.json"));
  text = ReplaceAll(text, "\"1020.250\"", "1020.250");  // a valid three-event trace
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
