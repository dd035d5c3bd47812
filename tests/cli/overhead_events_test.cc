// Kineto's overhead events (Activity Buffer Request, Buffer Flush), which long sessions have many
// of: PyTorch lists the device work of the op one ran in under it too, unless it began inside a
// runtime call of that op (docs/semantics.md). The rule was read off the 150-step live LSTM
// session (../shared/live/long_lstm_150steps), where 22 of the 23 overhead events agree with it.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_util.h"

namespace fs = std::filesystem;
using profana::test::Run;

namespace {

// One op on the main thread (pid 10) with three launches, and three overhead events: one inside
// the op between two calls, one that begins inside the second call and outlives it, one inside
// the third call (which no op links).
const char* kOverheadTrace = R"({"schemaVersion": 1, "traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::op", "pid": 10, "tid": 10, "ts": 100, "dur": 4900, "args": {"External id": 2}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 200, "dur": 10, "args": {"External id": 2, "correlation": 100}},
{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 300, "dur": 10, "args": {"External id": 2, "correlation": 100}},
{"ph": "X", "cat": "overhead", "name": "Activity Buffer Request", "pid": -1, "tid": 0, "ts": 1000, "dur": 500},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 2000, "dur": 100, "args": {"External id": 2, "correlation": 101}},
{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 2200, "dur": 5, "args": {"External id": 2, "correlation": 101}},
{"ph": "X", "cat": "overhead", "name": "Buffer Flush", "pid": -1, "tid": 0, "ts": 2050, "dur": 100},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 3000, "dur": 600, "args": {"correlation": 102}},
{"ph": "X", "cat": "kernel", "name": "k3", "pid": 0, "tid": 7, "ts": 3700, "dur": 1, "args": {"correlation": 102}},
{"ph": "X", "cat": "overhead", "name": "Activity Buffer Request", "pid": -1, "tid": 0, "ts": 3100, "dur": 400}
]})";

// The table row that starts with `name` (after the padding).
std::string TableRow(const std::string& table, const std::string& name) {
  size_t at = table.find(" " + name + "  ");
  if (at == std::string::npos) return "";
  size_t begin = table.rfind('\n', at) + 1;
  return table.substr(begin, table.find('\n', at) - begin);
}

}  // namespace

TEST_CASE("an overhead event shares its op's device work unless it began inside a call",
          "[overhead]") {
  fs::path file =
      fs::temp_directory_path() / ("profana-overhead-" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << kOverheadTrace;
  auto r = Run({"table", file.string(), "--link", "pytorch", "--row-limit", "-1"});
  fs::remove(file);
  REQUIRE(r.code == 0);
  // aten::op's kernels are k1 and k2 (k3's launch is linked to nothing): 15 us. The first buffer
  // request ran between two of its calls and lists them again; the flush began inside the second
  // call, and the second request lies inside the third: neither lists any.
  std::string op = TableRow(r.out, "aten::op");
  INFO(r.out);
  CHECK(op.find("15.000us") != std::string::npos);  // self CUDA
  CHECK(op.find("30.000us") != std::string::npos);  // CUDA total: with its overhead child's
  std::string request = TableRow(r.out, "Activity Buffer Request");
  CHECK(request.find("15.000us") != std::string::npos);
  CHECK(request.find("             2  ") != std::string::npos);
  std::string flush = TableRow(r.out, "Buffer Flush");
  REQUIRE(!flush.empty());
  CHECK(flush.find("15.000us") == std::string::npos);
  CHECK(flush.find("0.000us         0.00%       0.000us       0.000us             1") !=
        std::string::npos);
}
