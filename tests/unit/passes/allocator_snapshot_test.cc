// Allocator snapshots: the real ResNet-18 snapshot of testdata/live/snapshot_resnet_amp gives
// torch.cuda's own figures (memory_stats.json, read at the same moment); hand-built snapshots
// pin the history's rules (levels, memory from before the history, the peak and what was live
// there by site, out-of-memory events), the allocation-site rule, the diff, and the refusals.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "pickle_bytes.h"
#include "profana/base/input_buffer.h"
#include "profana/importers/allocator_snapshot/snapshot_importer.h"
#include "profana/passes/memory/snapshot_analysis.h"
#include "profana/passes/memory/snapshot_diff.h"
#include "profana/reporters/snapshot_reporter.h"
#include "simdjson.h"
#include "test_util.h"

namespace {

using namespace profana;
using test::PickleBytes;

const char* kRealSnapshot = "live/snapshot_resnet_amp/snapshot.pickle.gz";

AllocatorSnapshot LoadReal() {
  auto s = snapshot::LoadAllocatorSnapshot(test::TestData(kRealSnapshot));
  REQUIRE(s.ok());
  return std::move(*s);
}

// torch.cuda's figures, read right after the snapshot was taken.
int64_t Stat(const std::string& name) {
  std::string text = test::ReadFile(test::TestData("live/snapshot_resnet_amp/memory_stats.json"));
  simdjson::dom::parser parser;
  int64_t v = 0;
  REQUIRE(parser.parse(text)[name].get(v) == simdjson::SUCCESS);
  return v;
}

Result<AllocatorSnapshot> Import(const std::string& bytes) {
  auto input = InputFromBytes(bytes, "s.pickle");
  REQUIRE(input.ok());
  return snapshot::ImportAllocatorSnapshot(*input);
}

// A frame dict.
PickleBytes& Frame(PickleBytes& p, const std::string& name, const std::string& file, int line) {
  p.EmptyDict().Mark().Key("name").Str(name).Key("filename").Str(file).Key("line").Int(line);
  return p.SetItems();
}

// A history entry dict (frames: a list of the given frame triples, innermost first).
struct E {
  const char* action;
  uint64_t addr;
  int64_t size;
  int64_t time_us;
  std::vector<std::tuple<std::string, std::string, int>> frames = {};
};
void PutEntry(PickleBytes& p, const E& e) {
  p.EmptyDict().Mark().Key("action").Str(e.action).Key("addr").Int(static_cast<int64_t>(e.addr));
  p.Key("size").Int(e.size).Key("stream").Int(0).Key("time_us").Int(e.time_us);
  if (std::string(e.action) == "oom") p.Key("device_free").Int(1024);
  p.Key("frames").EmptyList();
  if (!e.frames.empty()) {
    p.Mark();
    for (const auto& [name, file, line] : e.frames) Frame(p, name, file, line);
    p.Appends();
  }
  p.SetItems();
}

struct B {
  uint64_t address;
  int64_t size, requested;
  const char* state;
};
// A snapshot of one segment holding `blocks`, and a history of `entries` on device 0.
std::string Snapshot(uint64_t seg_address, int64_t seg_size, const std::vector<B>& blocks,
                     const std::vector<E>& entries) {
  PickleBytes p;
  p.EmptyDict().Mark().Key("segments").EmptyList().Mark();
  p.EmptyDict().Mark().Key("device").Int(0).Key("address").Int(static_cast<int64_t>(seg_address));
  p.Key("total_size").Int(seg_size).Key("stream").Int(0).Key("segment_type").Str("large");
  p.Key("is_expandable").Bool(false).Key("blocks").EmptyList().Mark();
  for (const B& b : blocks) {
    p.EmptyDict()
        .Mark()
        .Key("address")
        .Int(static_cast<int64_t>(b.address))
        .Key("size")
        .Int(b.size);
    p.Key("requested_size").Int(b.requested).Key("state").Str(b.state).Key("frames").EmptyList();
    p.SetItems();
  }
  p.Appends().SetItems().Appends();
  p.Key("device_traces").EmptyList().Mark().EmptyList();
  if (!entries.empty()) {
    p.Mark();
    for (const E& e : entries) PutEntry(p, e);
    p.Appends();
  }
  p.Appends().SetItems().Stop();
  return p.str();
}

}  // namespace

TEST_CASE("the real snapshot gives torch.cuda's memory_allocated and memory_reserved",
          "[snapshot]") {
  AllocatorSnapshot s = LoadReal();
  CHECK(s.segments.size() == 28);
  CHECK(s.blocks.size() == 29);
  CHECK(s.entries.size() == 4009);
  CHECK(s.annotations.size() > 0);
  passes::SnapshotAnalysis a = passes::AnalyzeSnapshot(s);
  REQUIRE(a.states.size() == 1);
  const passes::BlockBytes& b = a.states[0].bytes;
  // The active blocks sum to memory_allocated, the segments to memory_reserved.
  CHECK(b.allocated == Stat("memory_allocated"));
  CHECK(b.allocated == 68157440);
  CHECK(b.reserved == Stat("memory_reserved"));
  CHECK(b.reserved == 358612992);
  CHECK(b.pending_free == 0);
  CHECK(b.inactive == b.reserved - b.allocated);
  CHECK(b.largest_inactive == 20971520);
  CHECK(b.segments == 28);
  CHECK(a.states[0].inconsistent_segments == 0);
}

TEST_CASE("the real snapshot's history peaks within torch.cuda's max_memory_allocated",
          "[snapshot]") {
  AllocatorSnapshot s = LoadReal();
  passes::SnapshotAnalysis a = passes::AnalyzeSnapshot(s);
  REQUIRE(a.histories.size() == 1);
  const passes::SnapshotHistory& h = a.histories[0];
  CHECK(h.timed);
  CHECK(h.entry.size() == 4009);
  CHECK(h.allocs == 1329);
  CHECK(h.frees == 1326);
  CHECK(h.frees_before == 0);
  // Recording began before the model moved to the GPU: nothing was allocated before it.
  CHECK(h.allocated_before == 0);
  CHECK(h.reserved_before == 0);
  // Requested bytes: at most memory_allocated's whole (rounded) blocks at the same moment.
  CHECK(h.peak_allocated + h.allocated_before <= Stat("max_memory_allocated"));
  CHECK(h.peak_allocated == 327629216);
  CHECK(h.peak_pos == 1762);
  CHECK(h.time_us(s, 1762) - h.time_us(s, 0) == 935054);
  CHECK(h.peak_reserved == Stat("max_memory_reserved"));
  // The history ends where the snapshot is.
  CHECK(h.allocated.back() == a.states[0].bytes.requested);
  CHECK(h.reserved.back() == a.states[0].bytes.reserved);
  // What was live at the peak, by site, adds up to the peak.
  int64_t live = h.live_at_peak.before, blocks = 0;
  for (const passes::SiteBytes& r : h.live_at_peak.by_site) live += r.bytes, blocks += r.blocks;
  CHECK(live == h.peak_allocated);
  CHECK(blocks == 289);
  for (size_t i = 1; i < h.live_at_peak.by_site.size(); ++i)
    CHECK(h.live_at_peak.by_site[i - 1].bytes >= h.live_at_peak.by_site[i].bytes);
  CHECK(h.ooms.empty());
}

TEST_CASE(
    "an allocation's site is its first frame outside the allocator and PyTorch, and its "
    "Python frame",
    "[snapshot]") {
  std::vector<std::tuple<std::string, std::string, int>> frames = {
      {"torch::unwind::unwind()", "??", 0},
      {"c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(unsigned long)",
       "CUDACachingAllocator.cpp", 0},
      {"at::detail::empty_generic(c10::ArrayRef<long>)", "??", 0},
      {"at::_ops::empty_memory_format::call(c10::ArrayRef<c10::SymInt>)", "??", 0},
      {"at::native::batch_norm_cuda(at::Tensor const&)", "??", 0},
      {"PyObject_Vectorcall", "??", 0},
      {"batch_norm", "/venv/lib/python3.12/site-packages/torch/nn/functional.py", 2846},
      {"forward", "/venv/lib/python3.12/site-packages/torchvision/models/resnet.py", 93},
      {"main", "train.py", 10}};
  auto s = Import(Snapshot(0x1000, 4096, {{0x1000, 4096, 4000, "active_allocated"}},
                           {{"alloc", 0x1000, 4000, 1, frames}}));
  REQUIRE(s.ok());
  passes::SnapshotAnalysis a = passes::AnalyzeSnapshot(*s);
  REQUIRE(a.histories.size() == 1);
  REQUIRE(a.histories[0].live_at_peak.by_site.size() == 1);
  const passes::AllocationSite& site = a.histories[0].live_at_peak.by_site[0].site;
  CHECK(report::SiteLabel(*s, site) == "resnet.py:93 forward, at::native::batch_norm_cuda(...)");
  // A frame's text keeps its first 4,096 bytes, cut at a character, and "[...]".
  std::string long_name = "x" + std::string(3000, 'y');
  for (int i = 0; i < 1000; ++i) long_name += "\xc3\xa9";  // two-byte characters past the cut
  auto cut =
      Import(Snapshot(0x1000, 4096, {}, {{"alloc", 0x1000, 4000, 1, {{long_name, "??", 0}}}}));
  REQUIRE(cut.ok());
  REQUIRE(cut->frames.size() == 1);
  std::string_view kept = cut->str(cut->frames[0].name);
  CHECK(kept.size() == 4095 + 5);  // 3,001 + 547 whole characters, then "[...]"
  CHECK(kept.substr(kept.size() - 7) == "\xc3\xa9[...]");
}

TEST_CASE("the history's levels, memory from before it, its peak and out-of-memory events",
          "[snapshot]") {
  std::vector<std::tuple<std::string, std::string, int>> here = {{"f", "a.py", 1}};
  std::vector<std::tuple<std::string, std::string, int>> there = {{"g", "b.py", 2}};
  // 1,000 bytes of block 0x5000 were allocated before the history; it frees them. At the end
  // 0x1000 (300 requested of a 512 block) is live.
  auto s = Import(Snapshot(0x1000, 1 << 20,
                           {{0x1000, 512, 300, "active_allocated"},
                            {0x1200, (1 << 20) - 512, (1 << 20) - 512, "inactive"}},
                           {{"segment_alloc", 0x1000, 1 << 20, 10},
                            {"alloc", 0x1000, 300, 20, here},
                            {"alloc", 0x2000, 700, 30, there},
                            {"alloc", 0x3000, 100, 30, there},
                            {"free_requested", 0x2000, 700, 40},
                            {"free_completed", 0x2000, 700, 41},
                            {"free_requested", 0x5000, 1000, 50},
                            {"oom", 0, 1 << 30, 60},
                            {"free_requested", 0x3000, 100, 70}}));
  REQUIRE(s.ok());
  passes::SnapshotAnalysis a = passes::AnalyzeSnapshot(*s);
  REQUIRE(a.histories.size() == 1);
  const passes::SnapshotHistory& h = a.histories[0];
  // End: 300 requested; net change 300 + 700 + 100 - 700 - 1000 - 100 = -700, so 1,000 before.
  CHECK(h.allocated_before == 1000);
  CHECK(h.reserved_before == 0);
  CHECK(h.allocated == std::vector<int64_t>{1000, 1300, 2000, 2100, 1400, 1400, 400, 400, 300});
  CHECK(h.reserved == std::vector<int64_t>(9, 1 << 20));
  CHECK(h.before == std::vector<int64_t>{1000, 1000, 1000, 1000, 1000, 1000, 0, 0, 0});
  CHECK(h.peak_allocated == 2100);
  CHECK(h.peak_pos == 3);
  CHECK(h.frees_before == 1);
  REQUIRE(h.live_at_peak.by_site.size() == 2);
  CHECK(h.live_at_peak.by_site[0].bytes == 800);  // b.py: 700 + 100
  CHECK(h.live_at_peak.by_site[0].blocks == 2);
  CHECK(report::SiteLabel(*s, h.live_at_peak.by_site[0].site) == "b.py:2 g");
  CHECK(h.live_at_peak.by_site[1].bytes == 300);
  CHECK(h.live_at_peak.before == 1000);
  REQUIRE(h.ooms.size() == 1);
  CHECK(h.ooms[0].requested == 1 << 30);
  CHECK(h.ooms[0].device_free == 1024);
  CHECK(h.ooms[0].allocated == 400);
  REQUIRE(h.ooms[0].live.by_site.size() == 2);
  CHECK(h.ooms[0].live.by_site[0].bytes == 300);
  CHECK(h.ooms[0].live.by_site[1].bytes == 100);
  CHECK(h.ooms[0].live.before == 0);
}

TEST_CASE("snapshots without history, or of older PyTorch, still read", "[snapshot]") {
  // torch.cuda.memory_snapshot(): a bare list of segments; a pre-2.1 block with `history`.
  PickleBytes p;
  p.EmptyList().Mark().EmptyDict().Mark().Key("address").Int(4096).Key("total_size").Int(2048);
  p.Key("blocks").EmptyList().Mark();
  p.EmptyDict().Mark().Key("size").Int(1024).Key("state").Str("active_allocated");
  p.Key("history").EmptyList().EmptyDict().Mark().Key("addr").Int(4096).Key("real_size").Int(1000);
  p.SetItems().Append().SetItems();
  p.EmptyDict().Mark().Key("size").Int(1024).Key("state").Str("inactive").SetItems();
  p.Appends().SetItems().Appends().Stop();
  auto s = Import(p.str());
  REQUIRE(s.ok());
  REQUIRE(s->blocks.size() == 2);
  CHECK(s->blocks[0].address == 4096);
  CHECK(s->blocks[0].requested_size == 1000);
  CHECK(s->blocks[1].address == 5120);  // follows the first
  passes::SnapshotAnalysis a = passes::AnalyzeSnapshot(*s);
  REQUIRE(a.histories.size() == 1);
  CHECK(a.histories[0].entry.empty());
  CHECK(a.histories[0].peak_allocated == 1000);  // what was there, as no history says otherwise
  CHECK(a.states[0].bytes.allocated == 1024);
}

TEST_CASE("a snapshot's damage is refused with its place and byte offset", "[snapshot]") {
  auto state = Import(Snapshot(0x1000, 512, {{0x1000, 512, 512, "busy"}}, {}));
  REQUIRE(!state.ok());
  CHECK_THAT(state.status().message(),
             Catch::Matches("s\\.pickle: byte \\d+: segment #0, block #0: unknown block state "
                            "'busy'"));
  auto size = Import(Snapshot(0x1000, -5, {}, {}));
  REQUIRE(!size.ok());
  CHECK_THAT(size.status().message(),
             Catch::Matches(
                 "s\\.pickle: byte \\d+: segment #0: 'total_size' is -5, outside 0\\.\\.2\\^50"));
  auto type = Import(PickleBytes().EmptyDict().Key("segments").Int(3).SetItem().Stop().str());
  REQUIRE(!type.ok());
  CHECK(type.status().message() == "s.pickle: byte 13: 'segments' has type int (list expected)");
  auto root = Import(PickleBytes().Int(3).Stop().str());
  REQUIRE(!root.ok());
  CHECK(root.status().message() ==
        "s.pickle: byte 2: the pickle holds a value of type int, not an allocator snapshot (a dict "
        "with 'segments')");
  // One segment dict listed twice.
  PickleBytes shared;
  shared.EmptyDict().Key("segments").EmptyList().Mark();
  shared.EmptyDict().Memoize().Mark().Key("address").Int(0).Key("total_size").Int(0);
  shared.Key("blocks").EmptyList().SetItems().Get(0).Appends().SetItem().Stop();
  auto twice = Import(shared.str());
  REQUIRE(!twice.ok());
  CHECK_THAT(twice.status().message(),
             Catch::EndsWith("segment #1: the same dict is listed a second time (shared rows are "
                             "not a snapshot)"));
  auto gz = snapshot::LoadAllocatorSnapshot(test::TestData("memory/categories.json"));
  REQUIRE(!gz.ok());
  CHECK(gz.status().code() == ErrorCode::kUnrecognizedFormat);
}

TEST_CASE("a snapshot compared with itself changes nothing; with another, the sites that moved",
          "[snapshot]") {
  AllocatorSnapshot s = LoadReal(), t = LoadReal();
  passes::SnapshotAnalysis a = passes::AnalyzeSnapshot(s), b = passes::AnalyzeSnapshot(t);
  auto same = passes::DiffSnapshots(s, a, t, b);
  REQUIRE(same.size() == 1);
  CHECK(same[0].sites.empty());
  CHECK(same[0].segments_only_base == 0);
  CHECK(same[0].base.bytes.allocated == same[0].next.bytes.allocated);
  auto small = Import(Snapshot(0x1000, 4096, {{0x1000, 4096, 4096, "active_allocated"}}, {}));
  REQUIRE(small.ok());
  passes::SnapshotAnalysis c = passes::AnalyzeSnapshot(*small);
  auto moved = passes::DiffSnapshots(s, a, *small, c);
  REQUIRE(moved.size() == 1);
  CHECK(moved[0].segments_only_base == 28);
  CHECK(moved[0].segments_only_new == 1);
  CHECK(moved[0].next.bytes.allocated == 4096);
  int64_t change = 0;
  for (const passes::SiteChange& x : moved[0].sites) change += x.change();
  CHECK(change == 4096 - 68157440);
}
