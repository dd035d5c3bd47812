// Unit tests of InnermostOpFinder: the innermost CPU FunctionEvent running on a thread at a time,
// with closed and half-open intervals, nested, adjacent and partly overlapping events.
#include "profana/passes/innermost_op.h"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <string>

#include "profana/model/trace_builder.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"

using namespace profana;
using passes::InnermostOpFinder;

namespace {

void Op(TraceBuilder* b, ThreadId thread, const char* name, int64_t start, int64_t end) {
  TraceBuilder::Event e;
  e.trace_name = b->Intern(name);
  e.thread = thread;
  e.start_ns = start;
  e.end_ns = end;
  b->AddEvent(e);
}

// The name of the op found, or "-" for none.
std::string Name(const Trace& t, const passes::FunctionEventList& e, std::optional<FnEventId> op) {
  return op ? std::string(t.str(e.name[op->value])) : "-";
}

}  // namespace

TEST_CASE("the innermost op at a time is the latest started one still running", "[passes]") {
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1), two = b.Thread(1, 2);
  // Thread 1:  A [0,100) holds B [10,50) which holds C [20,30); D [50,60) starts as B ends;
  // F [90,120) starts inside A and outlives it (a partial overlap, outside the op tree).
  Op(&b, one, "A", 0, 100);
  Op(&b, one, "B", 10, 50);
  Op(&b, one, "C", 20, 30);
  Op(&b, one, "D", 50, 60);
  Op(&b, one, "F", 90, 120);
  Op(&b, two, "G", 0, 1000);  // thread 2
  Trace t = std::move(b).Finish();
  passes::FunctionEventList e = passes::BuildFunctionEvents(t);
  REQUIRE(e.size() == 6);
  InnermostOpFinder half(t, e, InnermostOpFinder::Interval::kHalfOpen);
  InnermostOpFinder closed(t, e, InnermostOpFinder::Interval::kClosed);
  CHECK(Name(t, e, half.At(one, 25)) == "C");
  CHECK(Name(t, e, half.At(one, 30)) == "B");    // C is [20, 30): over at 30
  CHECK(Name(t, e, closed.At(one, 30)) == "C");  // [20, 30] still holds 30
  CHECK(Name(t, e, half.At(one, 50)) == "D");    // B ended, D began
  CHECK(Name(t, e, closed.At(one, 50)) == "D");  // both hold 50; D started later
  CHECK(Name(t, e, half.At(one, 65)) == "A");    // out of D, skipping B and C
  CHECK(Name(t, e, half.At(one, 95)) == "F");    // A and F hold 95; F started later
  CHECK(Name(t, e, half.At(one, 110)) == "F");
  CHECK(Name(t, e, half.At(one, 120)) == "-");
  CHECK(Name(t, e, closed.At(one, 120)) == "F");
  CHECK(Name(t, e, half.At(one, -5)) == "-");
  CHECK(Name(t, e, half.At(two, 25)) == "G");  // each thread sees its own events
  // Threads grouped as one see each other's: G began first, so C is still the innermost at 25.
  InnermostOpFinder grouped(t, e, InnermostOpFinder::Interval::kHalfOpen, {0, 0});
  CHECK(Name(t, e, grouped.At(two, 25)) == "C");
  CHECK(Name(t, e, grouped.At(two, 500)) == "G");
  CHECK(Name(t, e, grouped.At(one, 500)) == "G");
}

TEST_CASE("the innermost op is the latest started event holding the time, asked in any order",
          "[passes]") {
  // 400 events on 3 threads from a fixed linear congruential sequence: nested, adjacent and
  // partly overlapping intervals. Every answer is checked against the definition, a scan for the
  // latest event in list order on the thread whose interval holds t.
  TraceBuilder b;
  ThreadId threads[] = {b.Thread(1, 1), b.Thread(1, 2), b.Thread(1, 3)};
  uint64_t x = 12345;
  auto next = [&](uint64_t n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((x >> 33) % n);
  };
  for (int i = 0; i < 400; ++i) {
    int64_t start = next(1000);
    Op(&b, threads[next(3)], ("op" + std::to_string(i)).c_str(), start, start + next(200));
  }
  Trace t = std::move(b).Finish();
  passes::FunctionEventList e = passes::BuildFunctionEvents(t);
  for (auto interval :
       {InnermostOpFinder::Interval::kClosed, InnermostOpFinder::Interval::kHalfOpen}) {
    bool closed = interval == InnermostOpFinder::Interval::kClosed;
    auto expected = [&](ThreadId thread, int64_t time) -> std::optional<FnEventId> {
      std::optional<FnEventId> found;
      for (uint32_t i = 0; i < e.size(); ++i)
        if (e.thread[i] == thread && e.start_ns[i] <= time &&
            (closed ? e.end_ns[i] >= time : e.end_ns[i] > time))
          found = FnEventId(i);
      return found;
    };
    InnermostOpFinder finder(t, e, interval);
    int mismatches = 0, found = 0;
    // Rising times (the remembered position), then a scrambled order (the binary search).
    for (int pass = 0; pass < 2; ++pass) {
      for (int64_t k = 0; k < 1300; ++k) {
        int64_t time = pass == 0 ? k - 50 : (k * 7919) % 1300 - 50;
        for (ThreadId thread : threads) {
          std::optional<FnEventId> got = finder.At(thread, time);
          mismatches += got != expected(thread, time);
          found += got.has_value();
        }
      }
    }
    CHECK(mismatches == 0);
    CHECK(found > 3000);  // most times fall inside some event
  }
}

TEST_CASE("an op that outlives its parent pops it, as _populate_cpu_children does", "[passes]") {
  // One thread, times in ns: P [0,200) holds A [10,100), which holds X [12,18). S [20,120)
  // starts inside A and ends after it (a synchronous straddler, as rounded timestamps and
  // autograd-thread launches make them): it pops A and becomes P's child. Y [60,70), inside A
  // but starting after S, sees A gone and becomes S's child.
  //   self A = 90 - X 6 = 84 (S is not A's child, so A keeps the time S overlaps it)
  //   self S = 100 - Y 10 = 90, self P = 200 - A 90 - S 100 = 10; the self times sum to 200.
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1);
  Op(&b, one, "P", 0, 200);
  Op(&b, one, "A", 10, 100);
  Op(&b, one, "X", 12, 18);
  Op(&b, one, "S", 20, 120);
  Op(&b, one, "Y", 60, 70);
  Trace t = std::move(b).Finish();
  passes::FunctionEventList e = passes::BuildFunctionEvents(t);
  REQUIRE(e.size() == 5);
  passes::EventTimes times(t, e);
  std::map<std::string, std::string> parent;
  std::map<std::string, int64_t> self;
  int64_t total = 0;
  for (uint32_t i = 0; i < e.size(); ++i) {
    std::string name(t.str(e.name[i]));
    parent[name] = e.parent[i].valid() ? std::string(t.str(e.name[e.parent[i].value])) : "-";
    self[name] = times[i].self_cpu_ns;
    total += times[i].self_cpu_ns;
  }
  CHECK(parent == std::map<std::string, std::string>{
                      {"P", "-"}, {"A", "P"}, {"X", "A"}, {"S", "P"}, {"Y", "S"}});
  CHECK(self ==
        std::map<std::string, int64_t>{{"P", 10}, {"A", 84}, {"X", 6}, {"S", 90}, {"Y", 10}});
  CHECK(total == 200);
}
