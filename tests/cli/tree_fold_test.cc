// profana tree folds identical consecutive siblings (testdata/gpu/tree_fold.json, made by hand;
// every time below is worked out from its events in microseconds).
#include <catch2/catch.hpp>
#include <string>

#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;
using profana::test::TestData;

// loop [0,100) holds aten::add [10,20) [30,42) [50,64), each with a cudaLaunchKernel of 2 and a
// kernel of 3, 4 and 5; then aten::mul [70,75) and an aten::add [80,90) that launches nothing.
// Two roots block [200,230) and [300,330) hold two aten::mm of 5 each; aten::cat [400,420)
// launches CatKernel twice (2 and 3) from two cudaLaunchKernel of 2.
//
// The three launching adds fold (the fourth add has no child, so it is not identical): total
// 10+12+14 = 36, self 8+10+12 = 30, device 3+4+5 = 12; their kernels and launches fold at the
// same positions (12 and 2+2+2 = 6). loop's self is 100 - (36+5+10) = 49. The blocks fold (total
// 60, self 60 - 20 = 40) and so do their mm, one line for the four: x2 under each block, total
// 20. CatKernel's two lines are siblings too: x2, 2+3 = 5.
TEST_CASE("tree folds identical consecutive siblings and sums their times", "[tree]") {
  auto r = Run({"tree", TestData("gpu/tree_fold.json")});
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "thread 1 (pid 1)\n"
        "  loop  total 100.000us, self 49.000us, device 12.000us\n"
        "    aten::add x3  total 36.000us, self 30.000us, device 12.000us\n"
        "      -> void add_kernel<...>(...)  12.000us on device 0 stream 7\n"
        "      cudaLaunchKernel  total 6.000us, self 6.000us\n"
        "    aten::mul  total 5.000us, self 5.000us\n"
        "    aten::add  total 10.000us, self 10.000us\n"
        "  block x2  total 60.000us, self 40.000us\n"
        "    aten::mm x2  total 20.000us, self 20.000us\n"
        "  aten::cat  total 20.000us, self 16.000us, device 5.000us\n"
        "    -> CatKernel x2  5.000us on device 0 stream 7\n"
        "    cudaLaunchKernel x2  total 4.000us, self 4.000us\n");
}

TEST_CASE("tree --no-fold prints every op and --full-names every kernel name whole", "[tree]") {
  auto r = Run({"tree", TestData("gpu/tree_fold.json"), "--no-fold", "--full-names"});
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "thread 1 (pid 1)\n"
        "  loop  total 100.000us, self 49.000us, device 12.000us\n"
        "    aten::add  total 10.000us, self 8.000us, device 3.000us\n"
        "      -> void add_kernel<float>(float*, int)  3.000us on device 0 stream 7\n"
        "      cudaLaunchKernel  total 2.000us, self 2.000us\n"
        "    aten::add  total 12.000us, self 10.000us, device 4.000us\n"
        "      -> void add_kernel<float>(float*, int)  4.000us on device 0 stream 7\n"
        "      cudaLaunchKernel  total 2.000us, self 2.000us\n"
        "    aten::add  total 14.000us, self 12.000us, device 5.000us\n"
        "      -> void add_kernel<float>(float*, int)  5.000us on device 0 stream 7\n"
        "      cudaLaunchKernel  total 2.000us, self 2.000us\n"
        "    aten::mul  total 5.000us, self 5.000us\n"
        "    aten::add  total 10.000us, self 10.000us\n"
        "  block  total 30.000us, self 20.000us\n"
        "    aten::mm  total 5.000us, self 5.000us\n"
        "    aten::mm  total 5.000us, self 5.000us\n"
        "  block  total 30.000us, self 20.000us\n"
        "    aten::mm  total 5.000us, self 5.000us\n"
        "    aten::mm  total 5.000us, self 5.000us\n"
        "  aten::cat  total 20.000us, self 16.000us, device 5.000us\n"
        "    -> CatKernel  2.000us on device 0 stream 7\n"
        "    -> CatKernel  3.000us on device 0 stream 7\n"
        "    cudaLaunchKernel  total 2.000us, self 2.000us\n"
        "    cudaLaunchKernel  total 2.000us, self 2.000us\n");
}

// --min-time and --depth act before folding: hiding what told siblings apart makes them equal.
TEST_CASE("tree folds what --min-time and --depth leave shown", "[tree]") {
  // At --min-time 11us only the adds of 12 and 14 stay (no kernel or launch reaches 11 us, nor
  // does mm), and with nothing left to tell them apart they fold: total 12+14 = 26, self
  // 10+12 = 22, device 4+5 = 9 (device time counts hidden kernels, as without folding).
  auto r = Run({"tree", TestData("gpu/tree_fold.json"), "--min-time", "11us"});
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "thread 1 (pid 1)\n"
        "  loop  total 100.000us, self 49.000us, device 12.000us\n"
        "    aten::add x2  total 26.000us, self 22.000us, device 9.000us\n"
        "  block x2  total 60.000us, self 40.000us\n"
        "  aten::cat  total 20.000us, self 16.000us, device 5.000us\n");
  // --depth 1: the two blocks differ from nothing below and fold; loop and cat stay alone.
  auto top = Run({"tree", TestData("gpu/tree_fold.json"), "--depth", "1"});
  CHECK(top.out.find("\n  block x2  total 60.000us, self 40.000us\n  aten::cat") !=
        std::string::npos);
  // JSON keeps every node: loop's four adds and mul, both blocks.
  auto j = Run({"tree", TestData("gpu/tree_fold.json"), "--format", "json"});
  REQUIRE(j.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(j.out);
  auto roots = doc["threads"].at(0)["roots"].get_array();
  CHECK(roots.size() == 4);
  CHECK(roots.at(0)["children"].get_array().size() == 5);
}
