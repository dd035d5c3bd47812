// Unit tests of InnermostOpFinder: the innermost CPU FunctionEvent running on a thread at a time,
// with closed and half-open intervals, nested, adjacent and partly overlapping events.
#include "profana/passes/innermost_op.h"

#include <catch2/catch.hpp>
#include <optional>

#include "profana/model/trace_builder.h"
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
