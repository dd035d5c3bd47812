// Unit tests of the model's building blocks: ForEachColumn visits every column of every table once
// (so that sorting, filtering and the native format move whole rows), and the launch index.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "built_events.h"
#include "profana/model/launch_index.h"
#include "profana/model/trace.h"
#include "profana/model/trace_builder.h"

using namespace profana;

namespace {

// Visits the table's columns and checks that they are distinct members that, together, make up
// the whole table: a column added to the table but not to ForEachColumn leaves bytes unvisited.
template <typename Table>
void CheckEveryColumnVisited(size_t expected_columns) {
  Table table;
  const char* begin = reinterpret_cast<const char*>(&table);
  std::set<const void*> seen;
  std::set<std::string> names;
  size_t bytes = 0;
  ForEachColumn(table, [&](const char* name, auto& column) {
    const char* at = reinterpret_cast<const char*>(&column);
    CHECK(at >= begin);
    CHECK(at + sizeof(column) <= begin + sizeof(Table));
    CHECK(seen.insert(&column).second);
    CHECK(names.insert(name).second);
    bytes += sizeof(column);
  });
  CHECK(seen.size() == expected_columns);
  CHECK(bytes == sizeof(Table));
  // The const overload visits the same columns.
  const Table& c = table;
  size_t const_visits = 0;
  ForEachColumn(c, [&](const char*, const auto& column) {
    CHECK(seen.count(&column) == 1);
    ++const_visits;
  });
  CHECK(const_visits == expected_columns);
}

}  // namespace

TEST_CASE("ForEachColumn visits every column of every table", "[model]") {
  // The counts are the tables' columns as declared in model/trace.h.
  CheckEveryColumnVisited<EventTable>(17);
  CheckEveryColumnVisited<MemoryTable>(8);
  CheckEveryColumnVisited<FlowTable>(5);
  CheckEveryColumnVisited<StackTable>(3);
  CheckEveryColumnVisited<DeviceArgsTable>(16);
}

namespace {

using profana::test::Add;

std::vector<uint32_t> Activities(const LaunchIndex& index, int64_t correlation) {
  std::vector<uint32_t> out;
  for (EventId e : index.ActivitiesOf(correlation)) out.push_back(e.value);
  return out;
}

}  // namespace

TEST_CASE("the launch index joins launches and device activities on the correlation id",
          "[model]") {
  TraceBuilder b;
  ThreadId host = b.Thread(1, 1), stream = b.Thread(0, 7);
  // Distinct starts, so the event order after Finish is the order written here (events 0..8).
  Add(&b, host, "aten::mm", ActivityKind::kCpuOp, 0, 100, 11);            // 0: not a launch
  Add(&b, host, "cudaLaunchKernel", ActivityKind::kRuntime, 10, 20, 7);   // 1
  Add(&b, host, "cuLaunchKernel", ActivityKind::kDriver, 15, 16, 7);      // 2: second with id 7
  Add(&b, host, "cudaMemcpyAsync", ActivityKind::kRuntime, 30, 31, 9);    // 3: launched nothing
  Add(&b, stream, "gemm", ActivityKind::kKernel, 40, 50, 7);              // 4
  Add(&b, stream, "label", ActivityKind::kGpuUserAnnotation, 45, 46, 7);  // 5
  Add(&b, stream, "Memcpy HtoD", ActivityKind::kMemcpy, 60, 70, 7);       // 6
  Add(&b, stream, "orphan", ActivityKind::kKernel, 80, 90, 12);           // 7: no launch
  Add(&b, stream, "unlinked", ActivityKind::kKernel, 95, 96, kNoId);      // 8: no id
  Trace t = std::move(b).Finish();
  REQUIRE(t.str(t.events.name[4]) == "gemm");
  LaunchIndex index(t.events);
  // The first runtime or driver call with the id, in event order.
  CHECK(index.Launch(7) == std::optional<EventId>(EventId(1)));
  CHECK(index.Launch(9) == std::optional<EventId>(EventId(3)));
  CHECK_FALSE(index.Launch(11).has_value());  // a CPU op's id is no launch
  CHECK_FALSE(index.Launch(12).has_value());
  CHECK_FALSE(index.Launch(kNoId).has_value());
  // Every device activity with the id, in event order.
  CHECK(Activities(index, 7) == std::vector<uint32_t>{4, 5, 6});
  CHECK(index.ActivitiesOf(9).empty());
  CHECK(Activities(index, 12) == std::vector<uint32_t>{7});
  CHECK(index.ActivitiesOf(kNoId).empty());
}

TEST_CASE("the launch index serves ids far apart as well as dense ones", "[model]") {
  TraceBuilder b;
  ThreadId host = b.Thread(1, 1), stream = b.Thread(0, 7);
  const int64_t kFar = int64_t{1} << 50;  // too sparse for a table indexed by id - min
  Add(&b, host, "cudaLaunchKernel", ActivityKind::kRuntime, 0, 1, 1);     // 0
  Add(&b, host, "cudaLaunchKernel", ActivityKind::kRuntime, 2, 3, kFar);  // 1
  Add(&b, stream, "k1", ActivityKind::kKernel, 4, 5, kFar);               // 2
  Add(&b, stream, "k0", ActivityKind::kKernel, 6, 7, 1);                  // 3
  Add(&b, stream, "k1 again", ActivityKind::kKernel, 8, 9, kFar);         // 4
  Trace t = std::move(b).Finish();
  LaunchIndex index(t.events);
  CHECK(index.Launch(1) == std::optional<EventId>(EventId(0)));
  CHECK(index.Launch(kFar) == std::optional<EventId>(EventId(1)));
  CHECK_FALSE(index.Launch(2).has_value());
  CHECK(Activities(index, kFar) == std::vector<uint32_t>{2, 4});
  CHECK(Activities(index, 1) == std::vector<uint32_t>{3});
}

// --- TraceBuilder ---

TEST_CASE("threads are keyed by the (pid, tid) pair, numbers and texts apart", "[builder]") {
  TraceBuilder b;
  ThreadId a = b.Thread(1, 2);
  CHECK(b.Thread(1, 2) == a);  // the last-hit cache
  CHECK(b.Thread(2, 1) != a);  // the pair is ordered
  ThreadId c = b.Thread(1, 3);
  CHECK(b.Thread(1, 2) == a);  // found again after another thread
  CHECK(b.Thread(1, 3) == c);
  // A string pid is its text: "CPU functions" with any number read beside it is one thread.
  StringId cpu = b.Intern("CPU functions");
  ThreadId s = b.Thread(0, 2, cpu);
  CHECK(b.Thread(99, 2, cpu) == s);
  CHECK(s != b.Thread(0, 2));
  // A number that spells a text's id (here with the 2^62 tag a hashed key once gave texts) is a
  // thread of its own: keys are compared whole, never by a hash of them.
  int64_t tagged = static_cast<int64_t>(cpu.value) | (int64_t{1} << 62);
  ThreadId n = b.Thread(tagged, 2);
  CHECK(n != s);
  Trace t = std::move(b).Finish();
  // Threads in order of first appearance: (1,2), (2,1), (1,3), ("CPU functions",2), (0,2),
  // (tagged,2).
  REQUIRE(t.threads.size() == 6);
  CHECK(t.threads[a.value].pid == 1);
  CHECK(t.threads[a.value].tid == 2);
  CHECK(t.threads[s.value].pid == 0);  // the number of a string pid is not kept
  CHECK(t.threads[s.value].pid_text == cpu);
  CHECK(t.threads[n.value].pid == tagged);
  CHECK(t.threads[n.value].pid_text == StringId(0));
}

namespace {

TraceBuilder::Event Begin(TraceBuilder* b, ThreadId thread, const char* name, int64_t start) {
  TraceBuilder::Event e;
  e.trace_name = b->Intern(name);
  e.thread = thread;
  e.start_ns = start;
  return e;
}

}  // namespace

TEST_CASE("an E closes the innermost open B of its thread", "[builder]") {
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1), two = b.Thread(1, 2);
  b.Begin(Begin(&b, one, "outer", 10));
  b.Begin(Begin(&b, one, "inner", 20));
  b.Begin(Begin(&b, two, "other", 25));
  CHECK(b.End(one, 30));        // closes inner: [20, 30]
  CHECK(b.End(two, 35));        // closes other, on its own thread: [25, 35]
  CHECK(b.End(one, 40));        // closes outer: [10, 40]
  CHECK_FALSE(b.End(one, 50));  // nothing open: the caller counts it
  b.Begin(Begin(&b, one, "backwards", 60));
  // An E 5 ns before its B: the event is kept with length 0, and counted where the E is.
  CHECK(b.End(one, 55, {}, 400, 7));
  Trace t = std::move(b).Finish();
  CHECK(t.diagnostics.count(DiagnosticKind::kNegativeDuration) == 1);
  REQUIRE(t.diagnostics.samples().size() == 1);
  CHECK(t.diagnostics.samples()[0].byte_offset == 400);
  CHECK(t.diagnostics.samples()[0].event_index == 7);
  CHECK(t.diagnostics.samples()[0].detail ==
        "E event 5 ns before its B \"backwards\"; kept with dur 0");
  // Sorted by (start, -end): outer [10,40], inner [20,30], other [25,35], backwards [60,60].
  REQUIRE(t.events.size() == 4);
  CHECK(t.str(t.events.name[0]) == "outer");
  CHECK(t.events.end_ns[0] == 40);
  CHECK(t.str(t.events.name[1]) == "inner");
  CHECK(t.events.end_ns[1] == 30);
  CHECK(t.str(t.events.name[2]) == "other");
  CHECK(t.events.thread[2] == two);
  CHECK(t.str(t.events.name[3]) == "backwards");
  CHECK(t.events.start_ns[3] == 60);
  CHECK(t.events.end_ns[3] == 60);
}

TEST_CASE("an E naming another event still closes its thread's B, and is counted where it is",
          "[builder]") {
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1);
  b.Begin(Begin(&b, one, "a", 0));
  b.Begin(Begin(&b, one, "b", 5));
  CHECK(b.End(one, 10, b.Intern("b"), 100, 3));  // matches: not counted
  CHECK(b.End(one, 20, b.Intern("x"), 250, 4));  // names x, closes a: counted at byte 250
  b.Begin(Begin(&b, one, "c", 30));
  CHECK(b.End(one, 40));  // an E without a name matches any B
  Trace t = std::move(b).Finish();
  CHECK(t.diagnostics.count(DiagnosticKind::kMismatchedEnd) == 1);
  REQUIRE(t.diagnostics.samples().size() == 1);
  const DiagnosticSample& d = t.diagnostics.samples()[0];
  CHECK(d.kind == DiagnosticKind::kMismatchedEnd);
  CHECK(d.byte_offset == 250);
  CHECK(d.event_index == 4);
  CHECK(d.detail == "E \"x\" closes B \"a\" on its thread");
  // The events are what they would be had the E been named "a": a [0,20], b [5,10], c [30,40].
  REQUIRE(t.events.size() == 3);
  CHECK(t.str(t.events.name[0]) == "a");
  CHECK(t.events.end_ns[0] == 20);
  CHECK(t.str(t.events.name[1]) == "b");
  CHECK(t.events.end_ns[1] == 10);
  CHECK(t.events.end_ns[2] == 40);
}

TEST_CASE("a B never ended is closed at the last time seen, and counted", "[builder]") {
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1);
  b.Begin(Begin(&b, one, "open", 5), 120, 2);  // the B at byte 120, event #2
  TraceBuilder::Event x = Begin(&b, one, "done", 10);
  x.end_ns = 70;
  b.AddEvent(x);
  Trace t = std::move(b).Finish();
  // open [5, 70]: the latest end of any event. Sorted: open (start 5), done (start 10).
  REQUIRE(t.events.size() == 2);
  CHECK(t.str(t.events.name[0]) == "open");
  CHECK(t.events.end_ns[0] == 70);
  CHECK(t.diagnostics.count(DiagnosticKind::kUnmatchedBegin) == 1);
  REQUIRE(t.diagnostics.samples().size() == 1);
  CHECK(t.diagnostics.samples()[0].byte_offset == 120);
  CHECK(t.diagnostics.samples()[0].event_index == 2);
  CHECK(t.diagnostics.samples()[0].detail ==
        "B event \"open\" never ended; closed at the trace's last time");
}

TEST_CASE("Finish sorts whole rows by (start, -end), stably, and renames ProfilerStep#N",
          "[builder]") {
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1);
  // Written out of order; each row carries its own correlation id to show rows move whole.
  struct Row {
    const char* name;
    int64_t start, end, correlation;
  };
  const Row rows[] = {{"late", 50, 60, 1},   {"long", 10, 90, 2},   {"ProfilerStep#7", 10, 40, 3},
                      {"twin 1", 20, 30, 4}, {"twin 2", 20, 30, 5}, {"first", 0, 5, 6}};
  for (const Row& r : rows) {
    TraceBuilder::Event e = Begin(&b, one, r.name, r.start);
    e.end_ns = r.end;
    e.correlation = r.correlation;
    e.kind = ActivityKind::kUserAnnotation;
    b.AddEvent(e);
  }
  // Every column got one value per event.
  size_t rows_added = 0;
  Trace t = std::move(b).Finish();
  ForEachColumn(t.events, [&](const char* name, const auto& column) {
    INFO(name);
    CHECK(column.size() == 6);
    ++rows_added;
  });
  CHECK(rows_added == 17);
  // (start, -end): first [0,5], long [10,90] before the step [10,40] (same start, ends later),
  // the twins [20,30] in input order, late [50,60].
  const char* want_trace_names[] = {"first", "long", "ProfilerStep#7", "twin 1", "twin 2", "late"};
  const int64_t want_correlation[] = {6, 2, 3, 4, 5, 1};
  for (size_t i = 0; i < 6; ++i) {
    INFO("row " << i);
    CHECK(t.str(t.events.trace_name[i]) == want_trace_names[i]);
    CHECK(t.events.correlation[i] == want_correlation[i]);
  }
  // PyTorch's ProfilerStep* aggregation name; the trace name stays as written.
  CHECK(t.str(t.events.name[2]) == "ProfilerStep*");
  // No span: the origin is the first event's start.
  CHECK(t.metadata.origin.kind == TimeOriginKind::kFirstEvent);
  CHECK(t.metadata.origin.ns == 0);
}

TEST_CASE("args no event wrote stay one value; unread columns keep none of theirs", "[builder]") {
  for (bool unread : {false, true}) {
    INFO("unread " << unread);
    TraceBuilder b;
    if (unread)
      b.LeaveUnread({/*input_shapes=*/true, /*stacks=*/true, /*collectives=*/true,
                     /*flows=*/true});
    ThreadId one = b.Thread(1, 1);
    b.AddFlow(5, 10, one, b.Intern("ac2g"), true);
    b.AddFlow(5, 20, one, b.Intern("ac2g"), false);
    for (int64_t i = 0; i < 4; ++i) {
      TraceBuilder::Event e = Begin(&b, one, "op", 40 - 10 * i);  // written backwards: sorted
      e.end_ns = e.start_ns + 5;
      if (i == 2) {
        e.sequence_nr = 11;
        e.fwd_thread = 3;
        e.input_shapes = b.Intern("[[2, 3]]");
        e.stack = b.InternCallStack(b.Intern("model.py(7): forward"));
        e.comm = b.Intern("allreduce");
      }
      e.correlation = i == 3 ? 99 : kNoId;
      b.AddEvent(e);
    }
    Trace t = std::move(b).Finish();
    // Nothing wrote a device or an External id: one value each, for four rows.
    CHECK(t.events.device.is_uniform());
    CHECK(t.events.external_id.is_uniform());
    CHECK(t.events.device.size() == 4);
    CHECK(t.events.device[3] == -1);
    CHECK(t.events.external_id[1] == kNoId);
    // One event wrote a correlation: 32-bit offsets, sorted with the rows.
    CHECK_FALSE(t.events.correlation.is_uniform());
    CHECK(t.events.correlation.is_narrow());
    CHECK(t.events.correlation == Column<int64_t>({99, kNoId, kNoId, kNoId}));
    // The third event written is the second in time.
    CHECK(t.events.sequence_nr.is_uniform() == unread);
    CHECK(t.events.sequence_nr[1] == (unread ? -1 : 11));
    CHECK(t.events.fwd_thread[1] == (unread ? 0 : 3));
    CHECK(t.events.input_shapes.is_uniform() == unread);
    CHECK((t.events.input_shapes[1].value != 0) == !unread);
    CHECK((t.events.stack[1].value != 0) == !unread);
    CHECK(t.events.comm.is_uniform() == unread);
    CHECK((t.events.comm[1].value != 0) == !unread);
    CHECK(t.events.input_shapes[0].value == 0);
    // The stack's frames are interned either way, and unread flows still counted: what was read
    // is still counted.
    CHECK(t.stacks.size() == 2);
    CHECK(t.flows.size() == 2);
    CHECK(t.flows.ts_ns.is_uniform() == unread);
    CHECK(t.flows.ts_ns[1] == (unread ? 0 : 20));
    CHECK(t.flows.is_start[0] == (unread ? 0 : 1));
  }
}

TEST_CASE("Finish merges runs in order and sorts rows in little order, alike", "[builder]") {
  // Runs of rows in (start, -end) order, as importers that read table by table write them, with
  // ties within and across runs, some runs after the one before them (a pair already in order):
  // the result is the stable sort of the rows either way. Runs of 20 rows are merged; runs of 3
  // (too short to pay) are sorted. 5000 runs (100,000 rows) are done in two halves on two cores,
  // where there are.
  for (auto [runs, length] : {std::pair{1, 20},
                              {3, 20},
                              {7, 20},
                              {64, 20},
                              {65, 20},
                              {300, 20},
                              {5000, 20},
                              {300, 3},
                              {40000, 3}}) {
    INFO(runs << " runs of " << length);
    TraceBuilder b;
    ThreadId one = b.Thread(1, 1);
    struct Row {
      int64_t start, end, id;
    };
    std::vector<Row> rows;
    uint64_t state = 99 + runs;
    auto next = [&] { return (state = state * 6364136223846793005ULL + 1) >> 59; };  // 0..31
    for (int r = 0; r < runs; ++r) {
      int64_t start = r % 3 == 2 ? rows.back().start : 0;
      for (int i = 0; i < length; ++i) {
        start += static_cast<int64_t>(next() % 3);  // steps of 0 make ties
        rows.push_back(
            {start, start + static_cast<int64_t>(next()), static_cast<int64_t>(rows.size())});
        if (i > 0 && rows[rows.size() - 2].start == start)  // in order within the run
          rows.back().end = std::min(rows.back().end, rows[rows.size() - 2].end);
      }
    }
    for (const Row& r : rows) {
      TraceBuilder::Event e = Begin(&b, one, "op", r.start);
      e.end_ns = r.end;
      e.correlation = r.id;
      b.AddEvent(e);
    }
    std::vector<Row> want = rows;
    std::stable_sort(want.begin(), want.end(), [](const Row& x, const Row& y) {
      return x.start != y.start ? x.start < y.start : x.end > y.end;
    });
    Trace t = std::move(b).Finish();
    REQUIRE(t.events.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      INFO("row " << i);
      REQUIRE(t.events.correlation[i] == want[i].id);
      REQUIRE(t.events.start_ns[i] == want[i].start);
      REQUIRE(t.events.end_ns[i] == want[i].end);
    }
  }
}

TEST_CASE("the time origin is the profiler's span, or 0 for relative times", "[builder]") {
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1);
  TraceBuilder::Event op = Begin(&b, one, "op", 100);
  op.end_ns = 200;
  b.AddEvent(op);
  TraceBuilder::Event span = Begin(&b, one, "PyTorch Profiler (0)", 150);
  span.end_ns = 900;
  span.kind = ActivityKind::kTraceSpan;
  b.AddEvent(span);
  Trace t = std::move(b).Finish();
  CHECK(t.metadata.origin.kind == TimeOriginKind::kTraceSpan);
  CHECK(t.metadata.origin.ns == 150);  // the span, though an event starts before it

  TraceBuilder r;
  r.metadata().origin.kind = TimeOriginKind::kRelative;  // as the bare-array importer says
  TraceBuilder::Event e = Begin(&r, r.Thread(1, 1), "op", 100);
  e.end_ns = 200;
  r.AddEvent(e);
  Trace rel = std::move(r).Finish();
  CHECK(rel.metadata.origin.kind == TimeOriginKind::kRelative);
  CHECK(rel.metadata.origin.ns == 0);
}

TEST_CASE("Trace::Clone copies every table, the strings and the metadata", "[model]") {
  TraceBuilder b;
  ThreadId host = b.Thread(1, 1), stream = b.Thread(0, 7);
  Add(&b, host, "cudaLaunchKernel", ActivityKind::kRuntime, 10, 20, 7);
  Add(&b, stream, "gemm", ActivityKind::kKernel, 40, 50, 7);
  Trace t = std::move(b).Finish();
  t.metadata.format = TraceFormat::kNsysSqlite;
  Trace c = t.Clone();
  REQUIRE(c.events.size() == t.events.size());
  CHECK(c.threads.size() == t.threads.size());
  CHECK(c.metadata.format == TraceFormat::kNsysSqlite);
  CHECK(c.metadata.origin.ns == t.metadata.origin.ns);
  for (uint32_t i = 0; i < t.events.size(); ++i) {
    CHECK(c.str(c.events.name[i]) == t.str(t.events.name[i]));
    CHECK(c.events.start_ns[i] == t.events.start_ns[i]);
    CHECK(c.events.correlation[i] == t.events.correlation[i]);
  }
  // The copy is independent: changing it leaves the original as it was.
  c.events.start_ns.owned()[0] += 5;
  c.strings.Intern("new in the copy");
  CHECK(c.events.start_ns[0] == t.events.start_ns[0] + 5);
  CHECK(c.strings.size() == t.strings.size() + 1);
}
