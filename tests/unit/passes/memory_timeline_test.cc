// The memory timeline: each categorisation rule on a hand-made trace, every diagnostic on damaged
// records, and on every real trace that records Total Allocated, the replayed running total
// agrees with it at every record up to one constant per device (memory allocated before the
// trace), measured here.
#include "profana/passes/memory_timeline.h"

#include <catch2/catch.hpp>
#include <map>

#include "fixtures.h"
#include "profana/passes/memory_before_trace.h"
#include "profana/passes/memory_device_report.h"
#include "test_util.h"

namespace {

using profana::passes::MemoryCategory;

}  // namespace

TEST_CASE("each categorisation rule on a hand-made trace", "[memory]") {
  profana::test::BuiltTimeline b = profana::test::BuildTimeline("memory/categories.json");
  const auto& t = b.timeline;
  std::map<int64_t, MemoryCategory> by_addr;
  for (const auto& blk : t.blocks) by_addr[blk.addr] = blk.category;
  CHECK(by_addr.size() == 12);
  CHECK(by_addr[0x050] == MemoryCategory::kActivation);      // forward (aten::to, no host copy)
  CHECK(by_addr[0x100] == MemoryCategory::kActivation);      // forward, freed in backward
  CHECK(by_addr[0x200] == MemoryCategory::kTemporary);       // freed inside its own operator
  CHECK(by_addr[0x300] == MemoryCategory::kActivation);      // forward, freed after the step
  CHECK(by_addr[0xB00] == MemoryCategory::kUnknown);         // no op input of its size
  CHECK(by_addr[0x400] == MemoryCategory::kAutogradDetail);  // backward, freed in backward
  CHECK(by_addr[0x500] == MemoryCategory::kGradient);        // backward, outlives it
  CHECK(by_addr[0xC00] == MemoryCategory::kUnknown);         // after backward, before the step
  CHECK(by_addr[0x600] == MemoryCategory::kOptimizerState);  // in Optimizer.step, outlives it
  CHECK(by_addr[0x700] == MemoryCategory::kUnknown);         // in Optimizer.step, freed in it
  CHECK(by_addr[0x800] == MemoryCategory::kGradient);        // pre-existing, freed by zero_grad
  CHECK(by_addr[0x900] == MemoryCategory::kUnknown);         // inside no op
  // Time order: the file's first two records are out of order.
  CHECK(b.trace.memory.ts_ns[t.order[0]] == 4500);
  CHECK(t.order[0] == 2);

  const auto& s = t.summary.at(0);
  CHECK(t.devices.at(0).name == "cuda:0");
  CHECK(s.preexisting_bytes == 2048);
  CHECK(s.peak_bytes == 2048 + 1024 + 32 + 256 + 4096);
  CHECK(s.trace_peak_bytes == 1024 + 32 + 256 + 4096);
  CHECK(s.total_allocated.compared == 20);
  CHECK(s.total_allocated.agreeing == 20);
  CHECK(s.total_allocated.offset == 6144);  // 2048 freed in the trace + 4096 never freed
  // Before the trace: the gradients' highest level (the pre-existing 2048 and the 256 allocated in
  // backward) stands for the parameters; the step allocates its own state; the rest is not
  // identified.
  CHECK(s.before_trace.bytes == 6144);
  CHECK(s.before_trace.freed_in_trace == 2048);
  CHECK(s.before_trace.parameters == 2304);
  CHECK(s.before_trace.optimizer_state == 0);
  CHECK(s.before_trace.unidentified == 6144 - 2048 - 2304);

  auto r = profana::passes::AnalyzeMemoryDevice(b.trace, b.events, t, 0);
  REQUIRE(r.peak_op.has_value());
  CHECK(b.trace.str(b.events.name[r.peak_op->value]) == "aten::linalg_vector_norm");
  CHECK(r.peak_op_path.size() == 2);
  auto live = [&](MemoryCategory c) { return r.live_by_category[static_cast<int>(c)]; };
  auto earlier = [&](MemoryCategory c) {
    return r.live_before_trace_by_category[static_cast<int>(c)];
  };
  CHECK(live(MemoryCategory::kParameter) == 2304);
  CHECK(earlier(MemoryCategory::kParameter) == 2304);
  CHECK(live(MemoryCategory::kActivation) == 1024 + 32);
  CHECK(live(MemoryCategory::kGradient) == 2048 + 256);
  CHECK(earlier(MemoryCategory::kGradient) == 2048);
  CHECK(live(MemoryCategory::kUnknown) == 4096);
  CHECK(r.not_freed_blocks == 3);
  CHECK(r.not_freed_bytes == 256 + 128 + 16);
  CHECK(r.preexisting_frees == 1);

  // The coalesced timeline ends at the level of the last record, by category, with the
  // parameters identified from before the trace drawn from the first time.
  auto tl = profana::passes::CoalesceTimeline(b.trace, t, 0);
  REQUIRE(!tl.sizes.empty());
  CHECK(tl.times_us.front() == 4);  // pre-existing memory at the first time, as the reference
  CHECK(tl.sizes.front()[1 + static_cast<int>(MemoryCategory::kParameter)] == 2304);
  CHECK(tl.sizes.back()[1 + static_cast<int>(MemoryCategory::kGradient)] == 256);
  CHECK(tl.sizes.back()[1 + static_cast<int>(MemoryCategory::kOptimizerState)] == 128);
  int64_t last = 0;
  for (int64_t v : tl.sizes.back()) last += v;
  CHECK(last == t.level.back() + s.before_trace.identified());
}

TEST_CASE("a block the forward pass copies from the host is INPUT", "[memory]") {
  profana::test::BuiltTimeline b = profana::test::BuildTimeline("memory/host_copy.json");
  std::map<int64_t, MemoryCategory> by_addr;
  for (const auto& blk : b.timeline.blocks) by_addr[blk.addr] = blk.category;
  CHECK(by_addr[0x100] == MemoryCategory::kInput);       // under aten::to, a Memcpy HtoD runs
  CHECK(by_addr[0x200] == MemoryCategory::kActivation);  // the same size, no copy
}

TEST_CASE("optimizer state per parameter, by class and by what its steps ran", "[memory]") {
  using profana::passes::OptimizerStatesPerParameter;
  CHECK(OptimizerStatesPerParameter("Adam", true, false) == 2);
  CHECK(OptimizerStatesPerParameter("AdamW", true, true) == 3);  // amsgrad's max_exp_avg_sq
  CHECK(OptimizerStatesPerParameter("SGD", true, false) == 1);   // momentum_buffer
  CHECK(OptimizerStatesPerParameter("SGD", false, false) == 0);
  CHECK(OptimizerStatesPerParameter("Adagrad", false, false) == 1);
  CHECK(OptimizerStatesPerParameter("Lion", true, false) == -1);  // not known: not identified
}

TEST_CASE(
    "the replay agrees with Total Allocated at every record, up to memory allocated before the "
    "trace",
    "[memory][real]") {
  // (trace, device, records compared, offset in bytes). The offset is Total Allocated minus the
  // replayed sum of Bytes; constant per device means every record agrees.
  struct Case {
    const char* path;
    const char* device;
    uint64_t records;
    int64_t offset;
  };
  const Case cases[] = {
      {"traces/hta/df_index_resolver/df_index_resolver.json.gz", "cuda:1", 26770, 4096614400},
      {"traces/hta/df_index_resolver/df_index_resolver.json.gz", "cpu", 1240, 0},
      {"traces/tracelens/perf_model/normalization/normalization_layer_test.json.gz", "hip:0", 415,
       665600},
      {"traces/tracelens/perf_model/normalization/normalization_layer_test.json.gz", "cpu", 60, 0},
      {"traces/tracelens/inference/vllm_decode_full/capture_traces/"
       "graph_capture_rank_0.1773709742341309550.pt.trace.json.gz",
       "hip:0", 1184, 191610969088},
      {"oracle/cnn_train/memory/trace.kineto_like.json", "cpu", 86, 56664},
      {"oracle/cnn_train/all/trace.kineto_like.json", "cpu", 86, 62912},
      {"oracle/fork_threads/memory/trace.kineto_like.json", "cpu", 34, 75408},
      {"oracle/fork_threads/all/trace.kineto_like.json", "cpu", 34, 83600},
      {"oracle/lstm_forward/memory/trace.kineto_like.json", "cpu", 140, 75408},
      {"oracle/lstm_forward/all/trace.kineto_like.json", "cpu", 140, 75408},
      {"oracle/mlp_train/memory/trace.kineto_like.json", "cpu", 154, 0},
      {"oracle/mlp_train/all/trace.kineto_like.json", "cpu", 154, 644},
      {"oracle/nested_labels/memory/trace.kineto_like.json", "cpu", 164, 75408},
      {"oracle/nested_labels/all/trace.kineto_like.json", "cpu", 164, 75408},
  };
  for (const Case& c : cases) {
    INFO(c.path << " " << c.device);
    profana::test::BuiltTimeline b = profana::test::BuildTimeline(c.path);
    int d = profana::passes::FindMemoryDevice(b.timeline, c.device);
    REQUIRE(d >= 0);
    const auto& check = b.timeline.summary[d].total_allocated;
    CHECK(check.compared == c.records);
    CHECK(check.agreeing == c.records);
    CHECK(check.first_disagreement == -1);
    CHECK(check.offset == c.offset);
    // Independently of the replay: the level plus the offset minus the pre-existing frees is the
    // recorded Total Allocated at every record.
    const auto& t = b.timeline;
    int64_t off = c.offset - t.summary[d].preexisting_bytes;
    uint64_t equal = 0;
    for (size_t p = 0; p < t.size(); ++p)
      if (t.device[p] == static_cast<uint32_t>(d))
        equal += t.level[p] + off == b.trace.memory.total_allocated[t.order[p]];
    CHECK(equal == c.records);
  }
}

TEST_CASE("in file order the replay disagrees: Kineto writes records per thread buffer",
          "[memory][real]") {
  // Why the pass sorts: summing df_index_resolver's records in file order gives 12 different
  // offsets on cuda:1, in time order one.
  profana::test::BuiltTimeline b =
      profana::test::BuildTimeline("traces/hta/df_index_resolver/df_index_resolver.json.gz");
  const auto& m = b.trace.memory;
  int64_t running = 0, offset = 0;
  uint64_t changes = 0;
  bool first = true;
  for (size_t r = 0; r < m.size(); ++r) {
    if (m.device_type[r] != 1) continue;
    running += m.bytes[r];
    int64_t o = m.total_allocated[r] - running;
    if (first || o != offset) ++changes;
    offset = o;
    first = false;
  }
  CHECK(changes == 11);
  CHECK(b.timeline.summary[profana::passes::FindMemoryDevice(b.timeline, "cuda:1")]
            .total_allocated.agreeing == 26770);
}

TEST_CASE("records without Addr: a level and per-op bytes, no pairing", "[memory][real]") {
  profana::test::BuiltTimeline b = profana::test::BuildTimeline(
      "traces/kineto/be239c04/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  const auto& t = b.timeline;
  CHECK(t.counters.without_addr == 12838);
  CHECK(t.blocks.empty());
  int d = profana::passes::FindMemoryDevice(t, "cuda:0");
  REQUIRE(d >= 0);
  CHECK(t.summary[d].peak_bytes == 2791636480);
  // The 2021 file spells the ops' tid as a string, the records' as a number: same thread.
  CHECK(t.counters.without_op == 3294);
  // Per-op memory sums to the records' own totals.
  auto rows = profana::passes::MemoryByOp(b.trace, b.events, t, d);
  int64_t self_alloc = 0, self_freed = 0, alloc = 0, freed = 0;
  for (size_t p = 0; p < t.size(); ++p) {
    if (t.device[p] != static_cast<uint32_t>(d)) continue;
    int64_t bytes = b.trace.memory.bytes[t.order[p]];
    (bytes > 0 ? alloc : freed) += bytes > 0 ? bytes : -bytes;
  }
  for (const auto& r : rows) {
    self_alloc += r.self_alloc_bytes;
    self_freed += r.self_freed_bytes;
  }
  CHECK(self_alloc == alloc);
  CHECK(self_freed == freed);
}
