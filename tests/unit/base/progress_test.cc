// Load progress: the readers report the bytes read after each block, and the app's meter turns
// them into one line on a terminal, shown only for loads that take over a second and wiped at the
// end. The terminal is a string here and the clock a variable the test moves.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <vector>

#include "profana/base/gzip_writer.h"
#include "profana/base/input_buffer.h"
#include "profana/base/progress_meter.h"
#include "profana/importers/chrome_json/streaming_import.h"
#include "profana/importers/importer.h"
#include "test_util.h"

using profana::ProgressMeter;
using profana::ProgressText;

TEST_CASE("the progress line says bytes, total, rate and time left", "[progress]") {
  // 412 MiB of 1 GiB in 2 s: 206 MiB/s, (1024 - 412) / 206 = 2.97 s left.
  CHECK(ProgressText("big.json", 412ull << 20, 1ull << 30, 2.0) ==
        "profana: reading big.json: 412.00 MiB of 1.00 GiB, 206.00 MiB/s, 3 s left");
  // A gzip stream's content has no known total: no "of", no time left.
  CHECK(ProgressText("big.json.gz", 300ull << 20, 0, 1.5) ==
        "profana: reading big.json.gz: 300.00 MiB, 200.00 MiB/s");
  // A name from the command line is shown, not obeyed.
  CHECK(ProgressText("a\x1b[2Jb", 2048, 4096, 1.0) ==
        "profana: reading a\\x1b[2Jb: 2.00 KiB of 4.00 KiB, 2.00 KiB/s, 1 s left");
}

TEST_CASE("the meter is quiet for a second, then at most four times a second, then wiped",
          "[progress]") {
  std::string terminal;
  profana::StringSink sink(&terminal);
  double now = 100.0;
  {
    ProgressMeter meter(&sink, "t.json", [&] { return now; });
    auto update = meter.Callback();
    REQUIRE(update);
    now = 100.5;
    update(1 << 20, 4 << 20);  // half a second in: nothing yet
    CHECK(terminal.empty());
    now = 101.0;
    update(2 << 20, 4 << 20);  // one second: the first line
    CHECK(terminal ==
          "\rprofana: reading t.json: 2.00 MiB of 4.00 MiB, 2.00 MiB/s, 1 s left\x1b[K");
    now = 101.1;
    update(3 << 20, 4 << 20);  // 0.1 s later: too soon to redraw
    CHECK(terminal.find("3.00 MiB") == std::string::npos);
    now = 101.25;
    update(3 << 20, 4 << 20);
    CHECK(terminal.find("\rprofana: reading t.json: 3.00 MiB of 4.00 MiB") != std::string::npos);
  }
  // The line is wiped when the meter goes: carriage return, clear to the end of the line.
  CHECK(terminal.size() > 5);
  CHECK(terminal.substr(terminal.size() - 4) == "\r\x1b[K");

  // A fast load writes nothing at all, not even the wipe; no terminal, no callback.
  std::string quiet;
  profana::StringSink quiet_sink(&quiet);
  {
    ProgressMeter meter(&quiet_sink, "t.json", [&] { return now; });
    meter.Update(1, 2);
  }
  CHECK(quiet.empty());
  ProgressMeter none(nullptr, "t.json");
  CHECK_FALSE(none.Callback());
}

TEST_CASE("readers report the bytes read, ending at the whole file", "[progress]") {
  // A JSON trace well over one read (4 MiB blocks, the first of 64 KiB): the streaming import
  // reports after each read; the whole-file reader (standard input, databases) after each read().
  std::string path = "/tmp/profana_progress_" + std::to_string(::getpid()) + ".json";
  {
    std::ofstream out(path, std::ios::binary);
    out << "{\"traceEvents\": [\n";
    for (int i = 0; i < 60000; ++i)
      out << (i ? ",\n" : "") << "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
          << "\"pid\": 1, \"tid\": 1, \"ts\": " << i * 10 << ", \"dur\": 5}";
    out << "\n]}\n";
  }
  uint64_t size = std::filesystem::file_size(path);
  REQUIRE(size > (4u << 20));
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  profana::LoadOptions options;
  options.limits.progress = [&](uint64_t done, uint64_t total) { calls.emplace_back(done, total); };
  auto loaded = profana::LoadTrace(path, options);
  REQUIRE(loaded.ok());
  CHECK(loaded->trace.events.size() == 60000);
  REQUIRE(calls.size() >= 3);
  for (size_t i = 1; i < calls.size(); ++i) CHECK(calls[i].first >= calls[i - 1].first);
  CHECK(calls.back() == std::make_pair(size, size));
  calls.clear();
  auto whole = profana::ReadInput(path, options.limits);
  REQUIRE(whole.ok());
  REQUIRE(!calls.empty());
  CHECK(calls.back() == std::make_pair(size, size));
  // Gzipped, the streaming import reports the file's compressed bytes, as the whole-file reader
  // does, ending at the whole file.
  std::string gz_path = path + ".gz";
  {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto gz = profana::GzipBytes(text);
    REQUIRE(gz.ok());
    std::ofstream(gz_path, std::ios::binary) << *gz;
  }
  uint64_t gz_size = std::filesystem::file_size(gz_path);
  calls.clear();
  auto from_gz = profana::LoadTrace(gz_path, options);
  REQUIRE(from_gz.ok());
  CHECK(from_gz->trace.events.size() == 60000);
  REQUIRE(calls.size() >= 3);
  for (size_t i = 1; i < calls.size(); ++i) CHECK(calls[i].first >= calls[i - 1].first);
  for (const auto& call : calls) CHECK(call.second == gz_size);
  CHECK(calls.back() == std::make_pair(gz_size, gz_size));
  std::remove(gz_path.c_str());
  std::remove(path.c_str());
}
