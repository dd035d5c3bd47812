// profana idle names the longest gaps as diff and table name rows: --max-name-width N cuts,
// --no-truncate never cuts, kernel names shortened unless --full-names; JSON keeps them whole.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "test_util.h"

using profana::test::Run;
using profana::test::TestData;

namespace {

// DLRM rank 3: its longest gap (8.129 ms on stream 24) comes before
// "void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)"
// while the CPU was in cudaStreamSynchronize.
std::string LongestGap(std::vector<std::string> extra) {
  std::vector<std::string> args = {
      "idle", TestData("traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz"),
      "-n", "1", "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = Run(args);
  REQUIRE(r.code == 0);
  size_t at = r.out.find("Longest gaps");
  REQUIRE(at != std::string::npos);
  return r.out.substr(r.out.find('\n', at) + 1);
}

}  // namespace

TEST_CASE("idle takes --max-name-width, --no-truncate and --full-names", "[idle]") {
  const std::string head =
      "       8.129ms  at        3.186ms  device 3 stream 24  host_wait    before ";
  // Default: the kernel name shortened (template and parameter lists elided), nothing cut.
  CHECK(LongestGap({}) == head +
                              "void fbgemm_gpu::permute_2D_lengths_kernel<...>(...)\n"
                              "    CPU was in: cudaStreamSynchronize\n");
  // 20 code points: 17 and "...", for the kernel and the op alike.
  CHECK(LongestGap({"--max-name-width", "20"}) == head +
                                                      "void fbgemm_gpu::...\n"
                                                      "    CPU was in: cudaStreamSynchro...\n");
  CHECK(LongestGap({"--max-name-width", "20", "--no-truncate"}) == LongestGap({}));
  CHECK(LongestGap({"--full-names"}) ==
        head +
            "void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, "
            "int*)\n"
            "    CPU was in: cudaStreamSynchronize\n");
  auto json = Run(
      {"idle", TestData("traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz"),
       "-n", "1", "-q", "--format", "json", "--max-name-width", "20"});
  CHECK(json.out.find("\"next_activity\": \"void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, "
                      "int, int const*, int const*, int*)\"") != std::string::npos);
  auto bad = Run({"idle", TestData("gpu/tree_fold.json"), "--max-name-width", "3"});
  CHECK(bad.code == 2);
  CHECK(bad.err == "profana: error: --max-name-width 3: expected a whole number, 4 or more\n");
}
