// Memory categories against PyTorch's own: every live PyTorch 2.x session with a memory timeline
// (testdata/live/*/all/memory_timeline*.json*, exported by prof.export_memory_timeline from the
// same profiler object as trace.json.gz). profana reads only the trace. At PyTorch's peak (the row
// of its [times, sizes] with the highest total), for memory allocated inside the trace, each
// category's bytes are compared; then the memory from before the trace that both identify. The
// figures are docs/memory.md's table ("How close to PyTorch").
//
// PyTorch's raw export (time, action, bytes, category) has one CREATE or DESTROY per allocator
// record, at the record's time (Unix-epoch ns) and with its bytes: each is matched to its record.
// PyTorch's part allocated before the trace at the peak is its PREEXISTING entries less the
// DESTROYs of blocks the trace frees without having allocated them; the rest of its row is what
// the trace allocated.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <vector>

#include "profana/base/input_buffer.h"
#include "profana/importers/importer.h"
#include "profana/passes/function_events.h"
#include "profana/passes/memory_timeline.h"
#include "simdjson.h"
#include "test_util.h"

namespace fs = std::filesystem;
using profana::passes::kMemoryCategories;
using profana::passes::MemoryCategory;
using profana::passes::MemoryCategoryName;
using profana::test::TestData;

namespace {

using Sizes = std::array<int64_t, kMemoryCategories>;

struct RawEvent {
  int64_t ts_ns, action, bytes, category;
};

// A gzipped or plain JSON file, parsed (the InputBuffer's padding is simdjson's).
simdjson::dom::element ParseJson(const std::string& path, simdjson::dom::parser* parser,
                                 profana::InputBuffer* keep) {
  auto in = profana::ReadInput(path);
  REQUIRE(in.ok());
  *keep = std::move(*in);
  simdjson::dom::element doc;
  REQUIRE(parser->parse(keep->data.get(), keep->size, false).get(doc) == simdjson::SUCCESS);
  return doc;
}

std::vector<std::string> SessionsWithTimeline() {
  std::vector<std::string> out;
  for (const auto& w : fs::directory_iterator(TestData("live")))
    if (fs::exists(w.path() / "all" / "memory_timeline.raw.json.gz"))
      out.push_back(w.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string Row(const Sizes& theirs, const Sizes& ours) {
  std::ostringstream row;
  for (int c = 0; c < kMemoryCategories; ++c)
    if (theirs[c] || ours[c])
      row << MemoryCategoryName(static_cast<MemoryCategory>(c)) << " " << theirs[c] << "/"
          << ours[c] << "  ";
  return row.str();
}

// What the figures of one session are (PyTorch's / profana's), and what the test expects of them.
struct Comparison {
  Sizes pytorch_in_trace{}, profana_in_trace{};
  Sizes pytorch_before{}, profana_before{};
  int64_t in_trace_bytes = 0, agreeing_bytes = 0;  // blocks: PyTorch's CREATE category = profana's
};

Comparison Compare(const std::string& session) {
  std::string dir = TestData("live/" + session + "/all");
  auto loaded = profana::LoadTrace(dir + "/trace.json.gz");
  REQUIRE(loaded.ok());
  const profana::Trace& trace = loaded->trace;
  auto events = profana::passes::BuildFunctionEvents(trace);
  auto t = profana::passes::BuildMemoryTimeline(trace, events);
  int d = profana::passes::FindMemoryDevice(t, "cuda:0");
  REQUIRE(d >= 0);
  const int64_t base = trace.metadata.base_time_ns;
  REQUIRE(base != profana::kNoId);

  simdjson::dom::parser p1, p2;
  profana::InputBuffer b1, b2;
  std::vector<RawEvent> raw;
  for (simdjson::dom::array e : ParseJson(dir + "/memory_timeline.raw.json.gz", &p1, &b1))
    raw.push_back(
        {e.at(0).get_int64(), e.at(1).get_int64(), e.at(2).get_int64(), e.at(3).get_int64()});
  simdjson::dom::element timeline = ParseJson(dir + "/memory_timeline.json", &p2, &b2);
  std::vector<int64_t> times;
  for (int64_t us : timeline.at(0).get_array()) times.push_back(us);
  std::vector<Sizes> rows;
  for (simdjson::dom::array row : timeline.at(1).get_array()) {
    Sizes s{};
    for (int c = 0; c < kMemoryCategories; ++c) s[c] = row.at(c + 1).get_int64();
    rows.push_back(s);
  }
  REQUIRE(times.size() == rows.size());
  size_t peak = 0;
  int64_t peak_total = -1;
  for (size_t i = 0; i < rows.size(); ++i) {
    int64_t total = 0;
    for (int64_t v : rows[i]) total += v;
    if (total > peak_total) peak_total = total, peak = i;
  }
  const int64_t peak_us = times[peak];

  // Records of cuda:0 by (epoch ns, bytes): PyTorch's CREATE/DESTROY entries are theirs.
  std::map<std::pair<int64_t, int64_t>, size_t> record_at;
  for (size_t pos = 0; pos < t.size(); ++pos)
    if (t.device[pos] == static_cast<uint32_t>(d)) {
      uint32_t r = t.order[pos];
      REQUIRE(record_at
                  .emplace(std::make_pair(trace.memory.ts_ns[r] + base, trace.memory.bytes[r]), pos)
                  .second);
    }
  Comparison out;
  Sizes pytorch_before_trace{};
  for (const RawEvent& e : raw) {
    if (e.action == 1) {
      pytorch_before_trace[e.category] += e.bytes;
      continue;
    }
    if (e.action != 2 && e.action != 4) continue;
    auto it = record_at.find({e.ts_ns, e.bytes});
    REQUIRE(it != record_at.end());  // every CREATE and DESTROY is one of the trace's records
    const profana::passes::MemoryBlock& block = t.blocks.at(t.block[it->second]);
    if (e.action == 2) {
      out.in_trace_bytes += e.bytes;
      if (static_cast<int64_t>(block.category) == e.category) out.agreeing_bytes += e.bytes;
    }
    if (e.action == 4 && block.alloc_pos < 0 && e.ts_ns / 1000 <= peak_us)
      pytorch_before_trace[e.category] += e.bytes;
  }
  for (int c = 0; c < kMemoryCategories; ++c)
    out.pytorch_in_trace[c] = rows[peak][c] - pytorch_before_trace[c];
  out.pytorch_before = pytorch_before_trace;

  // profana's blocks of cuda:0 at the same microsecond.
  auto us = [&](int64_t pos) { return (trace.memory.ts_ns[t.order[pos]] + base) / 1000; };
  for (const auto& b : t.blocks) {
    if (b.device != static_cast<uint32_t>(d)) continue;
    bool live = (b.alloc_pos < 0 || us(b.alloc_pos) <= peak_us) &&
                (b.free_pos < 0 || us(b.free_pos) > peak_us);
    if (!live) continue;
    Sizes& into = b.alloc_pos < 0 ? out.profana_before : out.profana_in_trace;
    into[static_cast<int>(b.category)] += b.bytes;
  }
  const auto& before = t.summary[d].before_trace;
  out.profana_before[static_cast<int>(MemoryCategory::kParameter)] += before.parameters;
  out.profana_before[static_cast<int>(MemoryCategory::kOptimizerState)] += before.optimizer_state;

  // The timeline's total follows the allocator's: the replay's level, what is identified from
  // before the trace and the unidentified band are Total Allocated at every record.
  REQUIRE(before.unidentified != profana::kNoId);
  for (size_t pos = 0; pos < t.size(); ++pos) {
    if (t.device[pos] != static_cast<uint32_t>(d)) continue;
    int64_t recorded = trace.memory.total_allocated[t.order[pos]];
    REQUIRE(recorded != profana::kNoId);
    CHECK(t.level[pos] + before.identified() + before.unidentified == recorded);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "live PyTorch 2.x: memory categories at PyTorch's peak, for memory allocated in the trace, "
    "are PyTorch's",
    "[conformance][live][memory]") {
  std::vector<std::string> sessions = SessionsWithTimeline();
  CHECK(sessions == std::vector<std::string>{"cnn_train", "mlp_train", "transformer_train"});
  for (const std::string& session : sessions) {
    Comparison c = Compare(session);
    INFO(session << " in the trace (PyTorch/profana): "
                 << Row(c.pytorch_in_trace, c.profana_in_trace));
    // The target is 10 % of PyTorch's bytes per category; every category is met exactly.
    for (int cat = 0; cat < kMemoryCategories; ++cat)
      CHECK(c.profana_in_trace[cat] == c.pytorch_in_trace[cat]);
    // And block by block: every byte allocated in the trace has PyTorch's category at creation.
    CHECK(c.in_trace_bytes > 0);
    CHECK(c.agreeing_bytes == c.in_trace_bytes);
  }
}

TEST_CASE(
    "live PyTorch 2.x: parameters and optimizer state from before the trace are within 5 % of "
    "PyTorch's",
    "[conformance][live][memory]") {
  // PyTorch sizes them from the tensors' shapes; profana from one set of gradients as the
  // allocator rounded them (512-byte blocks), and the optimizer's state per parameter. Inputs are
  // not identified (docs/memory.md): they stay in the unidentified band.
  // session -> (PyTorch's PARAMETER, profana's, PyTorch's OPTIMIZER_STATE, profana's), bytes.
  const std::map<std::string, std::array<int64_t, 4>> expected = {
      {"cnn_train", {90152, 92160, 178768, 184320}},
      {"mlp_train", {1597480, 1597952, 1597480, 1597952}},
      {"transformer_train", {529920, 529920, 1059840, 1059840}},
  };
  for (const std::string& session : SessionsWithTimeline()) {
    Comparison c = Compare(session);
    INFO(session << " before the trace (PyTorch/profana): "
                 << Row(c.pytorch_before, c.profana_before));
    const auto& want = expected.at(session);
    int param = static_cast<int>(MemoryCategory::kParameter),
        state = static_cast<int>(MemoryCategory::kOptimizerState);
    CHECK(c.pytorch_before[param] == want[0]);
    CHECK(c.profana_before[param] == want[1]);
    CHECK(c.pytorch_before[state] == want[2]);
    CHECK(c.profana_before[state] == want[3]);
    for (int cat : {param, state})
      CHECK(std::abs(c.profana_before[cat] - c.pytorch_before[cat]) * 20 <= c.pytorch_before[cat]);
  }
}
