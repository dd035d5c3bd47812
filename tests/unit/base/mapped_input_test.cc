// A mapped file's padding reads as zeros, and a mapped file cut short under the reader ends the
// run with a message; a plain JSON trace cut short while it streams is a fallback, and one that
// ends on a page boundary streams as it reads whole.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fmt/format.h"
#include "profana/base/input_buffer.h"
#include "profana/base/mapped_file.h"
#include "profana/importers/chrome_json/chrome_json_importer.h"
#include "profana/importers/chrome_json/streaming_import.h"
#include "profana/io/native_writer.h"
#include "profana/process_io.h"

using profana::test::ReadFile;
using profana::test::TempPath;
using profana::test::WriteFile;

namespace fs = std::filesystem;

namespace {

// A Kineto trace of `events` ops on one thread, one after another.
std::string Ops(int events) {
  std::string text = R"({"traceEvents": [)";
  for (int i = 0; i < events; ++i)
    text += fmt::format(R"({}{{"ph": "X", "cat": "cpu_op", "name": "aten::op{}", "ts": {}, )"
                        R"("dur": 3, "pid": 1, "tid": 1}})",
                        i ? ", " : "", i % 7, 10 * i);
  return text + "]}";
}

}  // namespace

TEST_CASE("a mapped file reads as zeros for its padding, also when it fills whole pages",
          "[mapped]") {
  std::string path = TempPath("pages.bin");
  long page = sysconf(_SC_PAGESIZE);
  for (size_t size : {size_t{1}, size_t(page) - 3, size_t(page), 3 * size_t(page)}) {
    INFO(size);
    WriteFile(path, std::string(size, 'x'));
    auto mapped = profana::MappedFile::Open(path, 64, /*read_ahead=*/false);
    REQUIRE(mapped.ok());
    REQUIRE(mapped->bytes().size() == size);
    const char* end = mapped->bytes().data() + size;
    for (size_t k = 0; k < 64; ++k) CHECK(end[k] == 0);
    CHECK(mapped->bytes() == std::string(size, 'x'));
  }
  fs::remove(path);
}

TEST_CASE("a trace ending on a page boundary streams as it reads whole", "[mapped]") {
  // The block scanner reads 64 bytes at a time past the last one: from the window's padding.
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::string text = Ops(40);
  REQUIRE(text.size() < 2 * page);
  text.insert(text.size() - 2, 2 * page - text.size(), ' ');  // spaces before the "]}"
  REQUIRE(text.size() == 2 * page);
  std::string path = TempPath("boundary.json");
  WriteFile(path, text);
  auto whole = profana::json::ImportChromeJson(*profana::ReadInput(path));
  REQUIRE(whole.ok());
  for (size_t read : {size_t{64}, size_t{4096}, size_t{1} << 20}) {
    profana::json::StreamOptions options;
    options.read_bytes = read;
    options.batch_bytes = 256;
    options.workers = 2;
    auto streamed = profana::json::StreamChromeJson(path, options);
    REQUIRE(streamed.trace);
    CHECK(streamed.trace->events.size() == 40);
    CHECK(streamed.trace->metadata.input_bytes == text.size());
    CHECK(profana::native::WriteNative(*streamed.trace) == profana::native::WriteNative(*whole));
  }
  fs::remove(path);
}

TEST_CASE("a trace cut short while it streams goes back to the whole-file importer", "[mapped]") {
  std::string path = TempPath("shrinking.json");
  std::string text = Ops(3000);
  REQUIRE(text.size() > 100000);
  WriteFile(path, text);
  profana::json::StreamOptions options;
  options.read_bytes = 4096;
  options.batch_bytes = 1024;
  options.workers = 2;
  // After the first read (of 4 KiB), another program cuts the file to 6,000 bytes.
  bool cut = false;
  options.progress = [&](uint64_t, uint64_t) {
    if (!cut) cut = truncate(path.c_str(), 6000) == 0;
  };
  auto attempt = profana::json::StreamChromeJson(path, options);
  REQUIRE(cut);
  CHECK_FALSE(attempt.trace);
  CHECK(attempt.fallback_reason == "the file was cut short while it was read");
  fs::remove(path);
}

TEST_CASE("a mapped input cut short under the reader ends the process with exit 2 and says so",
          "[mapped]") {
  std::string path = TempPath("sigbus.bin"), err = TempPath("sigbus.err");
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  WriteFile(path, std::string(4 * page, 'x'));
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, STDERR_FILENO) < 0) _exit(10);
    profana::app::ReportInputCutShortOnSigbus();
    auto mapped = profana::MappedFile::Open(path, 0, /*read_ahead=*/false);
    if (!mapped.ok() || truncate(path.c_str(), 0) != 0) _exit(11);
    volatile char c = mapped->bytes()[2 * page];  // SIGBUS: the page is past the end now
    (void)c;
    _exit(12);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(ReadFile(err) == "profana: error: " + path +
                             ": cut short while it was being read (another program truncated or "
                             "rewrote it); read it again once it is whole\n");
  fs::remove(path);
  fs::remove(err);
}
