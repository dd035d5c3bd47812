// Over every trace in testdata/ (the oracle sessions, the real traces, the damaged inputs that
// still load): the function event index a native file keeps gives the same function events as
// building them from the trace.
#include <simdjson.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "fixtures.h"
#include "fmt/format.h"
#include "profana/importers/importer.h"
#include "profana/io/native_reader.h"
#include "profana/io/native_writer.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace {

// Under ASan + UBSan (about 20x slower) the large real traces get the native round trip and
// `table` only; the rotating command and the Chrome round trip run on the files under 1 MB, which
// still cover every writer path. The release build checks everything on every file.
#if defined(__SANITIZE_ADDRESS__)

#else

#endif

}  // namespace

namespace {

// Every column and count of two function event lists, column by column, and every event's times.
void CheckSameList(const profana::Trace& ta, const profana::passes::FunctionEventList& a,
                   const profana::Trace& tb, const profana::passes::FunctionEventList& b) {
  CHECK(a.source == b.source);
  CHECK(a.synthetic_record == b.synthetic_record);
  CHECK(a.synthetic_row == b.synthetic_row);
  CHECK(a.name == b.name);
  CHECK(a.trace_name == b.trace_name);
  CHECK(a.thread == b.thread);
  CHECK(a.start_ns == b.start_ns);
  CHECK(a.end_ns == b.end_ns);
  CHECK(a.device_type == b.device_type);
  CHECK(a.scope == b.scope);
  CHECK(a.sequence_nr == b.sequence_nr);
  CHECK(a.fwd_thread == b.fwd_thread);
  CHECK(a.input_shapes == b.input_shapes);
  CHECK(a.stack == b.stack);
  CHECK(a.parent == b.parent);
  CHECK(a.child_begin == b.child_begin);
  CHECK(a.child_index == b.child_index);
  CHECK(a.kernel_begin == b.kernel_begin);
  CHECK(a.kernel_index == b.kernel_index);
  REQUIRE(a.size() == b.size());
  size_t bytes_differ = 0;
  for (size_t i = 0; i < a.size(); ++i)
    bytes_differ += a.CpuMemory(i) != b.CpuMemory(i) || a.CudaMemory(i) != b.CudaMemory(i);
  CHECK(bytes_differ == 0);
  CHECK(a.origin_ns == b.origin_ns);
  CHECK(a.legacy == b.legacy);
  CHECK(a.has_memory_records == b.has_memory_records);
  CHECK(a.removed_duplicates == b.removed_duplicates);
  CHECK(a.kernels_attributed == b.kernels_attributed);
  CHECK(a.kernels_unattributed == b.kernels_unattributed);
  CHECK(a.external_id_mismatches == b.external_id_mismatches);
  REQUIRE(a.size() == b.size());
  profana::passes::EventTimes times_a(ta, a), times_b(tb, b);
  size_t differ = 0;
  for (uint32_t i = 0; i < a.size(); ++i) {
    profana::passes::EventTime x = times_a[i], y = times_b[i];
    differ += x.cpu_total_ns != y.cpu_total_ns || x.self_cpu_ns != y.self_cpu_ns ||
              x.cuda_total_ns != y.cuda_total_ns || x.self_cuda_ns != y.self_cuda_ns ||
              x.self_cpu_memory != y.self_cpu_memory || x.self_cuda_memory != y.self_cuda_memory ||
              x.cpu_total_us != y.cpu_total_us || x.self_cpu_us != y.self_cpu_us ||
              x.cuda_total_us != y.cuda_total_us || x.self_cuda_us != y.self_cuda_us;
  }
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE(
    "every trace in testdata: the function event index of a native file gives the same function "
    "events",
    "[native]") {
  int indexed = 0;
  for (const std::string& file : profana::test::TraceFilesInTestData()) {
    INFO(file);
    auto loaded = profana::LoadTrace(file);
    if (!loaded.ok()) continue;
    const profana::Trace& trace = loaded->trace;
    profana::passes::FunctionEventList built = profana::passes::BuildFunctionEvents(trace);
    std::string bytes =
        profana::native::WriteNative(trace, profana::passes::MakeFunctionEventIndex(trace, built));
    // Read in place, as from a mapped file: the index's columns are views of `bytes`.
    auto backing = std::make_shared<std::string>(std::move(bytes));
    auto read = profana::native::ReadNative(*backing, "t.pfa", backing);
    REQUIRE(read.ok());
    REQUIRE(read->function_index.has_value());
    CHECK(read->function_index->source.is_view());
    // A list built from events keeps bytes only for the events that have some, and only when
    // the trace has [memory] records; the index has a row per event either way.
    CHECK(built.cpu_memory.empty());
    CHECK(built.cuda_memory.empty());
    CHECK(built.memory.count() <= (trace.memory.size() > 0 ? built.size() : 0));
    CHECK(read->function_index->cpu_memory.size() == built.size());
    CHECK(read->function_index->cuda_memory.size() == built.size());
    CHECK(read->trace.events.start_ns.is_view());
    CheckSameList(read->trace,
                  profana::passes::BuildFunctionEvents(read->trace, read->function_index), trace,
                  built);
    ++indexed;
  }
  CHECK(indexed >= 100);
}
