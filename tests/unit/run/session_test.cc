// A command's run called as a library (run/session.h), with a session that keeps what it is
// handed: the output, the files read and the second output (stacks --svg) come back as data
// rather than as printed lines.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "profana/base/output_sink.h"
#include "profana/run/kernels.h"
#include "profana/run/stacks.h"
#include "profana/run/table.h"
#include "profana/run/tree.h"
#include "test_util.h"

namespace {

using namespace profana;
using profana::test::TestData;

class KeptSession final : public run::Session {
 public:
  void Note(job::LoadNote note) override { notes.push_back(std::move(note)); }
  bool verbose() const override { return false; }
  void Read(const std::string& path) override { reads.push_back(path); }
  job::ProgressFor Progress() const override { return {}; }
  bool ColorsWanted() const override { return false; }
  Status Emit(std::string text) override {
    out += text;
    return Status::Ok();
  }
  Status EmitFile(const std::string& path, std::string text) override {
    files[path] = std::move(text);
    return Status::Ok();
  }
  Status EmitStreamed(const WriteOutput& write) override {
    StringSink sink(&out);
    return write(&sink);
  }
  Status RefuseToOverwriteInput() const override { return Status::Ok(); }

  std::vector<job::LoadNote> notes;
  std::vector<std::string> reads;
  std::string out;
  std::map<std::string, std::string> files;
};

TEST_CASE("a job's kernels run as a library call: the command line's output and both ranks read",
          "[run]") {
  std::string dir = TestData("job/two_ranks");
  run::KernelsArgs args;
  args.job.inputs = {dir};
  args.row_limit = 10;
  KeptSession session;
  REQUIRE(run::RunKernels(args, session).ok());
  CHECK(session.out.rfind("7 device activities on 2 ranks (0,1): 275.000us in total\n", 0) == 0);
  CHECK(session.out.find("  49.1  135.000us      4  33.750us  27.500us") != std::string::npos);
  REQUIRE(session.reads.size() == 2);
  CHECK(session.reads[0] == dir + "/rank0.json");
  CHECK(session.reads[1] == dir + "/worker1.json");
}

TEST_CASE("one trace's table and streamed tree come back whole through the session", "[run]") {
  std::string file = TestData("job/two_ranks/rank0.json");
  run::TableArgs table;
  table.job.inputs = {file};
  table.rows.row_limit = 5;
  KeptSession a;
  REQUIRE(run::RunTable(table, a).ok());
  CHECK(a.out.find("Self CPU time total: 150.000us\nSelf CUDA time total: 155.000us\n") !=
        std::string::npos);
  CHECK(a.reads == std::vector<std::string>{file});

  run::TreeArgs tree;
  tree.file = file;
  KeptSession b;
  REQUIRE(run::RunTree(tree, b).ok());
  CHECK(b.out.rfind("thread 1 (pid 1)\n  ProfilerStep#1  total 100.000us, self 46.000us, device "
                    "130.000us\n",
                    0) == 0);
  CHECK(std::count(b.out.begin(), b.out.end(), '\n') == 15);
}

TEST_CASE("stacks --svg without -o: the SVG is the session's second output, stdout stays empty",
          "[run]") {
  std::string file = TestData("job/two_ranks/rank0.json");
  run::StacksArgs args;
  args.job.inputs = {file};
  args.svg = "flame.svg";
  KeptSession session;
  REQUIRE(run::RunStacks(args, session).ok());
  CHECK(session.out.empty());
  REQUIRE(session.files.count("flame.svg") == 1);
  CHECK(session.files["flame.svg"].find("<svg") != std::string::npos);
}

}  // namespace
