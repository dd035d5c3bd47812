// Golden tests: each testdata/golden/<case>/ holds `args` (one command line, paths relative to
// the repository root), `expected.stdout`, and optionally `expected.stderr` and `expected.rc`
// (default 0; stderr must then be empty unless expected.stderr says otherwise). The CLI runs
// in-process. Every case is a test of its own, named "golden: <case>" (tagged [golden]), so one
// runs alone: build/tests/profana_tests "golden: table-csv", or ctest -R 'golden: table-csv'.
// A mismatch shows a unified diff, expected against actual. PROFANA_UPDATE_GOLDEN=1 rewrites
// the expectations instead (scripts/update-goldens); review the diff.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "golden/unified_diff.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace {

// Splits a command line on spaces, honouring "double quotes".
std::vector<std::string> SplitArgs(const std::string& line) {
  std::vector<std::string> args;
  std::string cur;
  bool quoted = false, have = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      have = true;
    } else if ((c == ' ' || c == '\n') && !quoted) {
      if (have) args.push_back(cur);
      cur.clear();
      have = false;
    } else {
      cur.push_back(c);
      have = true;
    }
  }
  if (have) args.push_back(cur);
  return args;
}

void Write(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string ReadIfExists(const fs::path& path) {
  return fs::exists(path) ? profana::test::ReadFile(path.string()) : "";
}

// One expected file against what the run wrote: a unified diff when they differ.
void Compare(const fs::path& expected_file, const std::string& want, const std::string& got,
             const char* stream) {
  if (want == got) return;
  std::string rel = "testdata/golden/" + expected_file.parent_path().filename().string() + "/" +
                    expected_file.filename().string();
  // On standard error, where Catch2 does not wrap the long lines of tables at 80 columns.
  std::cerr << profana::test::UnifiedDiff(want, got, rel, std::string("actual ") + stream);
  FAIL_CHECK(stream << " differs from " << rel << " (unified diff on standard error)");
}

void RunCase(const fs::path& dir) {
  std::string args_text = profana::test::ReadFile((dir / "args").string());
  auto r = profana::test::Run(SplitArgs(args_text));
  if (std::getenv("PROFANA_UPDATE_GOLDEN")) {
    Write(dir / "expected.stdout", r.out);
    if (!r.err.empty())
      Write(dir / "expected.stderr", r.err);
    else
      fs::remove(dir / "expected.stderr");
    if (r.code != 0)
      Write(dir / "expected.rc", std::to_string(r.code) + "\n");
    else
      fs::remove(dir / "expected.rc");
    return;
  }
  INFO("profana " << args_text);
  std::string rc_text = ReadIfExists(dir / "expected.rc");
  CHECK(r.code == (rc_text.empty() ? 0 : std::stoi(rc_text)));
  Compare(dir / "expected.stdout", profana::test::ReadFile((dir / "expected.stdout").string()),
          r.out, "stdout");
  Compare(dir / "expected.stderr", ReadIfExists(dir / "expected.stderr"), r.err, "stderr");
}

std::vector<fs::path> Cases() {
  std::vector<fs::path> cases;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(profana::test::TestData("golden"), ec))
    if (fs::exists(entry.path() / "args")) cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  return cases;
}

// Catch2 runs a test through an invoker: this one knows its case folder.
struct CaseInvoker : Catch::ITestInvoker {
  explicit CaseInvoker(fs::path dir) : dir(std::move(dir)) {}
  void invoke() const override { RunCase(dir); }
  fs::path dir;
};

// Registers "golden: <case>" for every case folder before main() runs. Catch2 keeps the
// invoker; the names it is handed must outlive registration, so they live here.
const bool kRegistered = [] {
  static std::deque<std::string> names;
  for (const fs::path& dir : Cases()) {
    names.push_back("golden: " + dir.filename().string());
    Catch::AutoReg(new CaseInvoker(dir), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags(names.back(), "[golden]"));
  }
  return true;
}();

}  // namespace

TEST_CASE("the golden cases are all found and complete", "[golden]") {
  std::vector<fs::path> cases = Cases();
  CHECK(cases.size() >= 10);
  for (const fs::path& dir : cases) {
    INFO(dir.filename().string());
    CHECK(fs::exists(dir / "expected.stdout"));
  }
}

TEST_CASE("the golden diff shows the changed lines with three lines around them", "[golden]") {
  std::string want = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
  std::string got = "a\nb\nc\nd\nE\nf\ng\nh\ni\nj\n";
  // Line 5 changed and line 10 added: the two changes are 4 unchanged lines apart (f, g, h, i),
  // within 2 x 3 of each other, so one hunk from line 2 (3 before the change) to the end.
  CHECK(profana::test::UnifiedDiff(want, got, "expected", "actual") ==
        "--- expected\n+++ actual\n@@ -2,8 +2,9 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n i\n+j\n");
  // Far-apart changes make separate hunks; only the first max_lines lines are shown.
  std::string many, changed;
  for (int i = 0; i < 40; ++i) {
    many += std::to_string(i) + "\n";
    changed += (i % 10 == 0 ? "x" : "") + std::to_string(i) + "\n";
  }
  std::string diff = profana::test::UnifiedDiff(many, changed, "e", "a", 1, 8);
  CHECK(diff ==
        "--- e\n+++ a\n@@ -1,2 +1,2 @@\n-0\n+x0\n 1\n@@ -10,3 +10,3 @@\n 9\n-10\n+x10\n"
        " 11\n... and 4 more changed lines\n");
  CHECK(profana::test::UnifiedDiff("same\n", "same\n", "e", "a").empty());
  CHECK(profana::test::UnifiedDiff("x\n", "x", "e", "a") ==
        "--- e\n+++ a\n@@ -1,1 +1,1 @@\n-x\n+x\n\\ No newline at end of file\n");
}
