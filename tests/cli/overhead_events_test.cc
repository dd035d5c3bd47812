// Kineto's overhead events (Activity Buffer Request, Buffer Flush), which long sessions have many
// of: PyTorch lists under one the device work of the id it takes in its C++ tree, the id of the
// event under it on the stop thread's stack (passes/overhead_owners.h, docs/semantics.md). The
// 150-step live LSTM session (testdata/long_session/lstm_150steps, cli_long_live_session) is this
// rule on real data; here each case of it is one event.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace fs = std::filesystem;
using profana::test::Run;

namespace {

// The main thread (pid 10) runs ProfilerStep#1 around aten::op, which launches k1 and k2 through
// linked calls and runs a call no op links (correlation 102, its External id lost); then
// aten::other (External id 102, by coincidence that call's correlation id), which launches k4 and
// runs a Python frame. Another process (pid 20) makes a call no op links across "between calls".
// Seven overhead events, each named after where it lies:
//  * "between calls" (the other process's call is not on this one's stack), "in linked call" (a
//    linked call is on no stack) and "at GPU annotation's drawn start" (the writer draws the
//    annotation 1 us early in integer-microsecond files: PyTorch's starts after it): aten::op's;
//  * "in unlinked call": the call's id, 102, which is aten::other's: its work, literally only;
//  * "under GPU annotation" (ProfilerStep#1's span on the stream, id 1: no op's): nothing;
//  * "under Python frame" (inside aten::other, but a Python frame's id is 0): nothing;
//  * "with aten::other, longer" (it starts with aten::other: PyTorch's list has the op first, so
//    the op is under it): aten::other's.
const char* kOverheadTrace = R"({"schemaVersion": 1, "traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 10, "tid": 10, "ts": 50, "dur": 5000, "args": {"External id": 1}},
{"ph": "X", "cat": "cpu_op", "name": "aten::op", "pid": 10, "tid": 10, "ts": 100, "dur": 4900, "args": {"External id": 2}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 200, "dur": 10, "args": {"External id": 2, "correlation": 100}},
{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 300, "dur": 10, "args": {"External id": 2, "correlation": 100}},
{"ph": "X", "cat": "overhead", "name": "between calls", "pid": -1, "tid": 0, "ts": 1000, "dur": 500},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 20, "tid": 21, "ts": 1200, "dur": 100, "args": {"correlation": 500}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 2000, "dur": 100, "args": {"External id": 2, "correlation": 101}},
{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 2200, "dur": 5, "args": {"External id": 2, "correlation": 101}},
{"ph": "X", "cat": "overhead", "name": "in linked call", "pid": -1, "tid": 0, "ts": 2050, "dur": 100},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 3000, "dur": 600, "args": {"correlation": 102}},
{"ph": "X", "cat": "kernel", "name": "k3", "pid": 0, "tid": 7, "ts": 3700, "dur": 1, "args": {"correlation": 102}},
{"ph": "X", "cat": "overhead", "name": "in unlinked call", "pid": -1, "tid": 0, "ts": 3100, "dur": 400},
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 7, "ts": 3900, "dur": 1000, "args": {"External id": 1}},
{"ph": "X", "cat": "overhead", "name": "at GPU annotation's drawn start", "pid": -1, "tid": 0, "ts": 3900, "dur": 0},
{"ph": "X", "cat": "overhead", "name": "under GPU annotation", "pid": -1, "tid": 0, "ts": 4000, "dur": 100},
{"ph": "X", "cat": "cpu_op", "name": "aten::other", "pid": 10, "tid": 10, "ts": 6000, "dur": 1000, "args": {"External id": 102}},
{"ph": "X", "cat": "overhead", "name": "with aten::other, longer", "pid": -1, "tid": 0, "ts": 6000, "dur": 1100},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 6100, "dur": 10, "args": {"External id": 102, "correlation": 103}},
{"ph": "X", "cat": "kernel", "name": "k4", "pid": 0, "tid": 7, "ts": 6200, "dur": 7, "args": {"External id": 102, "correlation": 103}},
{"ph": "X", "cat": "python_function", "name": "train.py(10): step", "pid": 10, "tid": 10, "ts": 6300, "dur": 500, "args": {"Python id": 1}},
{"ph": "X", "cat": "overhead", "name": "under Python frame", "pid": -1, "tid": 0, "ts": 6400, "dur": 100}
]})";

// The fields of the table row that starts with `name` (after the padding), split at runs of two
// or more spaces; empty when there is no such row.
std::vector<std::string> TableRow(const std::string& table, const std::string& name) {
  size_t at = table.find(" " + name + "  ");
  if (at == std::string::npos) return {};
  std::string row = table.substr(at + 1, table.find('\n', at) - at - 1);
  std::vector<std::string> fields;
  for (size_t k = 0; k < row.size();) {
    size_t gap = row.find("  ", k);
    fields.push_back(row.substr(k, gap - k));
    if (gap == std::string::npos) break;
    k = row.find_first_not_of(' ', gap);
  }
  return fields;
}

// A row's self CUDA time, the device work listed under it: Name, Self CPU %, Self CPU, CPU total %,
// CPU total, CPU time avg, Self CUDA.
std::string SelfCuda(const std::string& table, const std::string& name) {
  std::vector<std::string> f = TableRow(table, name);
  return f.size() > 6 ? f[6] : "(no row)";
}

std::string TableOf(const std::string& link) {
  fs::path file = fs::temp_directory_path() /
                  ("profana-overhead-" + std::to_string(::getpid()) + "-" + link + ".json");
  std::ofstream(file) << kOverheadTrace;
  auto r = Run({"table", file.string(), "--link", link, "--row-limit", "-1"});
  fs::remove(file);
  REQUIRE(r.code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("an overhead event lists the device work of the id under it in PyTorch's C++ tree",
          "[overhead]") {
  for (std::string link : {"pytorch", "auto"}) {
    std::string table = TableOf(link);
    INFO(link << "\n" << table);
    // aten::op's self CUDA: k1 and k2, and under --link auto k3 too, whose launch no op links but
    // aten::op encloses. Its overhead events list the same.
    std::string op_work = link == "pytorch" ? "15.000us" : "16.000us";
    CHECK(SelfCuda(table, "aten::op") == op_work);
    CHECK(SelfCuda(table, "between calls") == op_work);
    CHECK(SelfCuda(table, "in linked call") == op_work);
    CHECK(SelfCuda(table, "at GPU annotation's drawn start") == op_work);
    CHECK(SelfCuda(table, "with aten::other, longer") == "7.000us");
    // 102 is the unlinked call's correlation id (CUPTI's counter) and aten::other's External id
    // (PyTorch's): PyTorch matches the numbers, --link auto does not.
    CHECK(SelfCuda(table, "in unlinked call") == (link == "pytorch" ? "7.000us" : "0.000us"));
    CHECK(SelfCuda(table, "under GPU annotation") == "0.000us");
    CHECK(SelfCuda(table, "under Python frame") == "0.000us");
  }
}
