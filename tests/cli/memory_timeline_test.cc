// The memory timeline's diagnostics on damaged records (testdata/memory/bad_records.json), and
// profana memory in every format on them.
#include "profana/passes/memory_timeline.h"

#include <catch2/catch.hpp>
#include <map>

#include "fixtures.h"
#include "profana/passes/memory_device_report.h"
#include "test_util.h"

TEST_CASE("damaged memory records are counted, never fatal", "[memory][bad]") {
  profana::test::BuiltTimeline b = profana::test::BuildTimeline("memory/bad_records.json");
  const auto& k = b.timeline.counters;
  CHECK(k.records == 18);
  CHECK(k.double_frees == 1);
  CHECK(k.preexisting_frees == 2);  // one never allocated, one freed on the wrong device
  CHECK(k.negative_totals == 1);
  CHECK(k.address_on_two_devices == 2);
  CHECK(k.size_mismatches == 1);
  CHECK(k.alloc_on_live_address == 1);
  CHECK(k.zero_byte_records == 1);
  CHECK(k.without_addr == 1);
  CHECK(k.out_of_range == 0);
  CHECK(k.without_op == 1);
  REQUIRE(b.timeline.devices.size() == 3);
  CHECK(b.timeline.devices[2].name == "device99:3");
  // An absurd size is ignored and counted; sums saturate. (Appended after the FunctionEvents
  // are built: their own memory columns are the table command's business.)
  auto& m = b.trace.memory;
  for (int64_t bytes : {INT64_MIN + 1, INT64_MAX}) {
    m.ts_ns.push_back(m.ts_ns.back() + 1);
    m.thread.push_back(m.thread.back());
    m.bytes.push_back(bytes);
    m.addr.push_back(0x95);
    m.total_allocated.push_back(INT64_MAX);
    m.total_reserved.push_back(profana::kNoId);
    m.device_type.push_back(1);
    m.device_id.push_back(0);
  }
  auto absurd = profana::passes::BuildMemoryTimeline(b.trace, b.events);
  CHECK(absurd.counters.out_of_range == 2);
  CHECK(absurd.counters.double_frees == 1);
  CHECK(absurd.summary[0].peak_bytes == b.timeline.summary[0].peak_bytes);
  // Every format runs on it.
  for (const char* format : {"text", "json", "csv", "timeline", "raw", "html"}) {
    auto r = profana::test::Run(
        {"memory", profana::test::TestData("memory/bad_records.json"), "--format", format});
    INFO(format);
    CHECK(r.code == 0);
    CHECK(!r.out.empty());
  }
}
