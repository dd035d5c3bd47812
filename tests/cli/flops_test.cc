// FLOPs on the command line: FLOP inputs and with_flops through convert (native, Chrome JSON,
// summaries), and a with_flops trace without input shapes.
#include "profana/passes/flops.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_util.h"

using namespace profana;

TEST_CASE("FLOP inputs and with_flops survive convert: native, Chrome JSON and summaries",
          "[flops]") {
  namespace fs = std::filesystem;
  std::string trace = profana::test::TestData("live/flops_zoo/flops/trace.json.gz");
  std::string want =
      profana::test::ReadFile(profana::test::TestData("live/flops_zoo/flops/table_flops.txt"));
  fs::path dir = fs::temp_directory_path() / ("profana-flops-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* out : {"t.pfa", "t.json", "t.pfs"}) {
    INFO(out);
    std::string path = (dir / out).string();
    auto made = std::string(out) == "t.pfs" ? profana::test::Run({"summarize", trace, "-o", path})
                                            : profana::test::Run({"convert", trace, "-o", path});
    REQUIRE(made.code == 0);
    auto r = profana::test::Run({"table", path, "--sort", "flops", "--row-limit", "-1"});
    REQUIRE(r.code == 0);
    if (std::string(out) == "t.pfs") {
      // A summary's table keeps the column and the counts; its float sums are the trace's.
      CHECK(r.out.find("Total KFLOPs") != std::string::npos);
      CHECK(r.out.find("     37748.736  ") != std::string::npos);
    } else {
      CHECK(r.out == want);
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("a with_flops trace without input shapes says on stderr that it has no FLOPs column",
          "[flops]") {
  // A header that says with_flops over ops without "Input Dims" (record_shapes off).
  namespace fs = std::filesystem;
  fs::path path = fs::temp_directory_path() /
                  ("profana-flops-noshapes-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path)
      << (R"({"schemaVersion":1,"with_flops":1,"traceEvents":[)"
          R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":5,"args":{}},)"
          R"({"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":20,"dur":5,"args":{}}]})");
  auto r = profana::test::Run({"table", path.string()});
  fs::remove(path);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("FLOPs") == std::string::npos);
  CHECK(r.err.find("recorded with_flops, but without the input shapes FLOP counts are made from "
                   "(record_shapes=True): no Total FLOPs column") != std::string::npos);
  // With the shapes (the same session as recorded), no warning and the column.
  auto shapes =
      profana::test::Run({"table", profana::test::TestData("live/flops_zoo/flops/trace.json.gz")});
  REQUIRE(shapes.code == 0);
  CHECK(shapes.err.empty());
  CHECK(shapes.out.find("Total KFLOPs") != std::string::npos);
}
