// The differential flamegraph: the colour rule with worked values, and the SVG drawn from a base
// and a new run (widths from the new run, frames only in the base counted, not drawn).
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "profana/reporters/flamegraph_svg.h"

using namespace profana;

TEST_CASE("differential colours: red grew, blue shrank, by relative change", "[reporters]") {
  // Unchanged: near-white.
  CHECK(report::DiffColour(40, 40) == "rgb(250,250,250)");
  // 100 -> 150: change 50 / max(100, 150) = 1/3; other channels int(210 * 2/3) = 140.
  CHECK(report::DiffColour(100, 150) == "rgb(255,140,140)");
  // 200 -> 100: change 100 / 200 = 0.5; int(210 * 0.5) = 105, blue.
  CHECK(report::DiffColour(200, 100) == "rgb(105,105,255)");
  // 1000 -> 1010: change 10 / 1010; int(210 * 1000 / 1010) = int(207.92) = 207, a pale red.
  CHECK(report::DiffColour(1000, 1010) == "rgb(255,207,207)");
  // New in this run: full red; gone from it: full blue.
  CHECK(report::DiffColour(0, 7) == "rgb(255,0,0)");
  CHECK(report::DiffColour(7, 0) == "rgb(0,0,255)");
}

TEST_CASE("a differential flamegraph draws the new run coloured by change", "[reporters]") {
  // Weights in nanoseconds. Base: a;b 100 us, a;c 50 us, x 30 us. New: a;b 150 us, a;d 20 us.
  // Drawn frames (new widths): a (base 150 -> new 170: int(210 * (1 - 20/170)) = 185), a;b
  // (100 -> 150: 140), a;d (new: full red). a;c and x have no width in the new run: 2 frames,
  // 80 us, counted in the note.
  std::map<std::string, int64_t> base = {{"a;b", 100000}, {"a;c", 50000}, {"x", 30000}};
  std::map<std::string, int64_t> next = {{"a;b", 150000}, {"a;d", 20000}};
  std::string svg = report::FormatFlamegraphSvg(next, "base.json vs new.json", &base);
  CHECK(svg.find("data-frames=\"3\"") != std::string::npos);
  CHECK(svg.find("<title>a (170.000us, 100.00%, base 150.000us, +13.3%)</title>") !=
        std::string::npos);
  CHECK(svg.find("fill=\"rgb(255,185,185)\"") != std::string::npos);
  CHECK(svg.find("<title>b (150.000us, 88.24%, base 100.000us, +50.0%)</title>") !=
        std::string::npos);
  CHECK(svg.find("fill=\"rgb(255,140,140)\"") != std::string::npos);
  CHECK(svg.find("<title>d (20.000us, 11.76%, base 0.000us, new)</title>") != std::string::npos);
  CHECK(svg.find("fill=\"rgb(255,0,0)\"") != std::string::npos);
  CHECK(svg.find("2 frame(s) only in base, 80.000us, not drawn") != std::string::npos);
  CHECK(svg.find("<title>c ") == std::string::npos);
  // Without a base: the warm palette, no note.
  std::string plain = report::FormatFlamegraphSvg(next, "new.json");
  CHECK(plain.find("only in base") == std::string::npos);
  CHECK(plain.find("rgb(255,140,140)") == std::string::npos);
}

TEST_CASE("a flamegraph's times are exact: sub-microsecond parts are kept", "[reporters]") {
  // Two kernels of 574.484 us and 0.9 us under one op: cut to whole microseconds they would be
  // 574 and 0 (the second not drawn at all); the SVG keeps both and their shares of 575.384 us.
  std::map<std::string, int64_t> ns = {{"op;gemm", 574484}, {"op;tiny", 900}};
  std::string svg = report::FormatFlamegraphSvg(ns, "run.json");
  CHECK(svg.find("<title>op (575.384us, 100.00%)</title>") != std::string::npos);
  CHECK(svg.find("<title>gemm (574.484us, 99.84%)</title>") != std::string::npos);
  CHECK(svg.find("<title>tiny (0.900us, 0.16%)</title>") != std::string::npos);
  // Long times read as the tables print them.
  std::string long_run = report::FormatFlamegraphSvg({{"step", 12816000}}, "run.json");
  CHECK(long_run.find("<title>step (12.816ms, 100.00%)</title>") != std::string::npos);
}
