// Edges of what a run takes and says: a glob keeps what a directory keeps (a FIFO would block the
// run), a --thread that names no thread is an error even where device activity without a launch
// remains, two outputs of `stacks` cannot be one file, the no-value "-" stays itself in CSV,
// --jobs wants a whole number, a file named "-rank0.json" gets a hint, a budget limit out of
// range says so, and rocprofv3 records that end before they start are counted.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#include "test_util.h"

using profana::test::FirstLine;
using profana::test::ReadFile;
using profana::test::Run;
using profana::test::TestData;
using profana::test::WriteFile;
namespace fs = std::filesystem;

namespace {

std::string TempDir(const std::string& name) {
  std::string dir = "/tmp/profana_edges_" + std::to_string(::getpid()) + "_" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("a glob skips a FIFO, as a directory does", "[job]") {
  std::string dir = TempDir("fifo");
  fs::copy_file(TestData("job/two_ranks/rank0.json"), dir + "/rank0.json");
  std::string fifo = dir + "/rank1.json";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // Should the run open the FIFO, it would wait for a writer forever: a watchdog plays the writer
  // (opening and closing it, which ends the read) and says so, so the test fails instead of
  // hanging.
  std::atomic<bool> done{false}, had_to_unblock{false};
  std::mutex m;
  std::condition_variable cv;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(m);
    if (cv.wait_for(lock, std::chrono::seconds(20), [&] { return done.load(); })) return;
    int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) {
      had_to_unblock = true;
      close(fd);
    }
  });
  auto glob = Run({"table", dir + "/*"});
  auto directory = Run({"table", dir});
  {
    std::lock_guard<std::mutex> lock(m);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
  CHECK_FALSE(had_to_unblock);
  CHECK(glob.code == 0);
  CHECK(directory.code == 0);
  CHECK(glob.out == directory.out);
  CHECK(glob.out == Run({"table", dir + "/rank0.json", "--ranks", "0"}).out);
  // A glob of nothing but FIFOs (and folders) keeps nothing: said.
  auto none = Run({"table", dir + "/rank1*"});
  CHECK(none.code == 2);
  CHECK(FirstLine(none.err) == "profana: error: " + dir +
                                   "/rank1*: no trace matches it (1 match, 0 of them regular "
                                   "files)");
  fs::remove_all(dir);
}

TEST_CASE("a --thread that names no thread is an error, whatever device activity remains",
          "[filters]") {
  // Kernels without a launch are kept whatever --thread says; the host thread 999 is not there.
  std::string dir = TempDir("thread");
  std::string trace = dir + "/unlaunched.json";
  WriteFile(
      trace,
      "{\"traceEvents\": [\n"
      "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, "
      "\"ts\": 0, \"dur\": 10},\n"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 5, "
      "\"dur\": 10, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 9}}\n]}\n");
  auto r = Run({"table", trace, "--thread", "999"});
  CHECK(r.code == 2);
  CHECK(FirstLine(r.err) ==
        "profana: error: " + trace + ": --thread 999 selects no thread: the trace has threads 1");
  CHECK(r.out.empty());
  fs::remove_all(dir);
}

TEST_CASE("stacks refuses one file for both the SVG and the folded stacks", "[stacks]") {
  std::string dir = TempDir("svg");
  std::string out = dir + "/x";
  auto r = Run(
      {"stacks", TestData("oracle/cnn_train/all/trace.kineto_like.json"), "--svg", out, "-o", out});
  CHECK(r.code == 2);
  CHECK(FirstLine(r.err) == "profana: error: --svg " + out + " and -o " + out +
                                " name the same file: the folded stacks would replace the SVG; "
                                "give -o another file (or leave it out)");
  CHECK_FALSE(fs::exists(out));
  fs::remove_all(dir);
}

TEST_CASE("steps writes the no-device - as itself in CSV", "[csv]") {
  // A rank without device activity has device "-" in its rows.
  std::string dir = TempDir("steps_csv");
  std::string trace = dir + "/rank0.json";
  WriteFile(
      trace,
      "{\"traceEvents\": [\n"
      "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, "
      "\"tid\": 1, \"ts\": 0, \"dur\": 10}\n]}\n");
  auto r = Run({"steps", trace, "--format", "csv"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("'-") == std::string::npos);
  CHECK(r.out.find(",-,") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("option values out of range say what is expected", "[options]") {
  std::string trace = TestData("job/two_ranks");
  auto jobs = Run({"steps", trace, "--jobs", "-1"});
  CHECK(jobs.code == 2);
  CHECK(FirstLine(jobs.err) == "profana: error: --jobs -1: expected a whole number, 0 or more");
  std::string dir = TempDir("budget");
  WriteFile(dir + "/budget.json", "{\"rules\": [{\"metric\": \"step_time\", \"max\": 1e400}]}");
  auto budget = Run({"check", TestData("oracle/cnn_train/all/trace.kineto_like.json"), "--budget",
                     dir + "/budget.json"});
  CHECK(budget.code == 2);
  CHECK(budget.err.find("\"max\" is a number out of range (a limit is at most about 1.8e308)") !=
        std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a file whose name starts with - gets a hint", "[options]") {
  std::string dir = TempDir("dash");
  fs::copy_file(TestData("job/two_ranks/rank0.json"), dir + "/-rank0.json");
  std::string cwd = fs::current_path();
  fs::current_path(dir);
  auto r = Run({"table", "-rank0.json"});
  auto dashes = Run({"table", "--", "-rank0.json"});
  fs::current_path(cwd);
  CHECK(r.code == 2);
  CHECK(FirstLine(r.err).find("(-rank0.json was read as an option; for the file, write -- "
                              "-rank0.json or ./-rank0.json)") != std::string::npos);
  CHECK(dashes.code == 0);
  fs::remove_all(dir);
}

TEST_CASE("rocprofv3: a record that ends before it starts is counted", "[rocprofv3]") {
  std::string text = ReadFile(TestData("rocprofv3/small.json"));
  // The first kernel dispatch: its end moved before its start.
  size_t at = text.find("\"kernel_dispatch\"");
  REQUIRE(at != std::string::npos);
  size_t end = text.find("\"end_timestamp\": ", at);
  REQUIRE(end != std::string::npos);
  end += 17;
  size_t digits = text.find_first_not_of("0123456789", end);
  text.replace(end, digits - end, "1");
  std::string dir = TempDir("rocprofv3");
  WriteFile(dir + "/t.json", text);
  auto r = Run({"info", dir + "/t.json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("negative_duration") != std::string::npos);
  CHECK(r.out.find("kept with duration 0") != std::string::npos);
  CHECK(Run({"table", dir + "/t.json", "--strict"}).code == 2);
  fs::remove_all(dir);
}

TEST_CASE("rocprofv3: a literal outside JSON's grammar is refused where the walk reads nothing",
          "[rocprofv3]") {
  // init_time is not read: On-Demand skipped over NaN there and the file loaded.
  std::string text = ReadFile(TestData("rocprofv3/small.json"));
  size_t at = text.find("\"init_time\": 0");
  REQUIRE(at != std::string::npos);
  text.replace(at, 14, "\"init_time\": NaN");
  std::string dir = TempDir("rocprofv3_nan");
  WriteFile(dir + "/t.json", text);
  auto r = Run({"table", dir + "/t.json"});
  CHECK(r.code == 2);
  CHECK(FirstLine(r.err).find(": not a readable rocprofv3 JSON file: ") != std::string::npos);
  fs::remove_all(dir);
}
