// Unit tests of the op tree and PyTorch's duplicate-node removal (_remove_dup_nodes): chains of
// same-named only children collapse into the outermost, which takes the last one's children and
// kernels; a same-named child with siblings stays.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "built_events.h"
#include "profana/model/trace_builder.h"
#include "profana/passes/function_events.h"

using namespace profana;

namespace {

using test::Add;

std::string FnEventName(const Trace& t, const passes::FunctionEventList& e, FnEventId i) {
  return i.valid() ? std::string(t.str(e.name[i.value])) : "-";
}

// "name(children...)" for every CPU event at the top level, in list order.
std::string Shape(const Trace& t, const passes::FunctionEventList& e, uint32_t i) {
  std::string s = FnEventName(t, e, FnEventId(i));
  if (e.child_begin[i] == e.child_begin[i + 1]) return s;
  s += "(";
  for (uint32_t k = e.child_begin[i]; k < e.child_begin[i + 1]; ++k) {
    uint32_t c = e.child_index[k].value;
    CHECK(e.parent[c].value == i);
    s += (k == e.child_begin[i] ? "" : " ") + Shape(t, e, c);
  }
  return s + ")";
}

// The names of the kernels credited to event i, space-separated.
std::string KernelsOf(const Trace& t, const passes::FunctionEventList& e, uint32_t i) {
  std::string s;
  for (uint32_t k = e.kernel_begin[i]; k < e.kernel_begin[i + 1]; ++k)
    s += (s.empty() ? "" : " ") + std::string(t.str(t.events.name[e.kernel_index[k].value]));
  return s;
}

std::string Forest(const Trace& t, const passes::FunctionEventList& e) {
  std::string s;
  for (uint32_t i = 0; i < e.size(); ++i)
    if (e.device_type[i] == passes::DeviceType::kCPU && !e.parent[i].valid())
      s += (s.empty() ? "" : " ") + Shape(t, e, i);
  return s;
}

}  // namespace

TEST_CASE("chains of same-named only children collapse into the outermost, kernels lifted",
          "[passes]") {
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1), two = b.Thread(1, 2), stream = b.Thread(0, 7);
  // Thread 1: f holds f holds f (both inner ones duplicates), which holds g and h; h holds a
  // same-named only child h, which holds k. The innermost f launches a kernel.
  Add(&b, one, "f", ActivityKind::kCpuOp, 0, 100, 1, 1);
  Add(&b, one, "f", ActivityKind::kCpuOp, 1, 99, 2, 2);
  Add(&b, one, "f", ActivityKind::kCpuOp, 2, 98, 3, 3);
  Add(&b, one, "cudaLaunchKernel", ActivityKind::kRuntime, 4, 5, 50, 3);
  Add(&b, one, "g", ActivityKind::kCpuOp, 6, 10, 4, 4);
  Add(&b, one, "h", ActivityKind::kCpuOp, 20, 30, 5, 5);
  Add(&b, one, "h", ActivityKind::kCpuOp, 21, 29, 6, 6);
  Add(&b, one, "k", ActivityKind::kCpuOp, 22, 23, 7, 7);
  Add(&b, stream, "kernel", ActivityKind::kKernel, 40, 60, 50, 3);
  // Thread 2: x holds two y, and a y that holds y with a sibling z: no duplicates there.
  Add(&b, two, "x", ActivityKind::kCpuOp, 200, 300, 10, 10);
  Add(&b, two, "y", ActivityKind::kCpuOp, 201, 210, 11, 11);
  Add(&b, two, "y", ActivityKind::kCpuOp, 220, 240, 12, 12);
  Add(&b, two, "y", ActivityKind::kCpuOp, 221, 230, 13, 13);
  Add(&b, two, "z", ActivityKind::kCpuOp, 231, 232, 14, 14);
  // m holds only m, which holds m and n: the outer m takes two children, so the innermost m is
  // no longer an only child and stays.
  Add(&b, two, "m", ActivityKind::kCpuOp, 400, 500, 20, 20);
  Add(&b, two, "m", ActivityKind::kCpuOp, 401, 499, 21, 21);
  Add(&b, two, "m", ActivityKind::kCpuOp, 402, 410, 22, 22);
  Add(&b, two, "n", ActivityKind::kCpuOp, 420, 430, 23, 23);
  Trace t = std::move(b).Finish();
  passes::FunctionEventList e = passes::BuildFunctionEvents(t);
  CHECK(e.removed_duplicates == 4);
  CHECK(Forest(t, e) == "f(cudaLaunchKernel g h(k)) x(y y(y z)) m(m n)");
  // The kernel the innermost f launched is the outer f's now.
  REQUIRE(FnEventName(t, e, FnEventId(0)) == "f");
  CHECK(KernelsOf(t, e, 0) == "kernel");
  // Every other event has no kernel, and the list's lists are whole.
  for (uint32_t i = 1; i < e.size(); ++i) CHECK(KernelsOf(t, e, i).empty());
  CHECK(e.kernel_begin[e.size()] == e.kernel_index.size());
  CHECK(e.child_begin[e.size()] == e.child_index.size());
}

TEST_CASE("a duplicate's kernels replace its parent's, as PyTorch's", "[passes]") {
  TraceBuilder b;
  ThreadId one = b.Thread(1, 1), two = b.Thread(1, 2), stream = b.Thread(0, 7);
  // The outer f's only child is the inner f. The outer f's kernel k1 was launched from another
  // thread (its External id links it); the inner f launches k2. PyTorch's _remove_dup_nodes sets
  // the parent's kernels to the child's: k1 is credited to nothing.
  Add(&b, one, "f", ActivityKind::kCpuOp, 0, 100, 1, 1);
  Add(&b, one, "f", ActivityKind::kCpuOp, 10, 90, 2, 2);
  Add(&b, one, "cudaLaunchKernel", ActivityKind::kRuntime, 11, 12, 51, 2);
  Add(&b, two, "cudaLaunchKernel", ActivityKind::kRuntime, 5, 6, 50, 1);
  Add(&b, stream, "k1", ActivityKind::kKernel, 40, 50, 50, 1);
  Add(&b, stream, "k2", ActivityKind::kKernel, 60, 70, 51, 2);
  Trace t = std::move(b).Finish();
  passes::FunctionEventList e = passes::BuildFunctionEvents(t);
  CHECK(e.removed_duplicates == 1);
  CHECK(Forest(t, e) == "f(cudaLaunchKernel) cudaLaunchKernel");
  REQUIRE(FnEventName(t, e, FnEventId(0)) == "f");
  CHECK(KernelsOf(t, e, 0) == "k2");
  CHECK(e.kernel_begin[e.size()] == 1);
}
