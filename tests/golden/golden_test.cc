// Golden tests: each testdata/golden/<case>/ holds `args` (one command line, paths relative to
// the repository root), `expected.stdout`, and optionally `expected.stderr` and `expected.rc`
// (default 0; stderr must then be empty unless expected.stderr says otherwise). The CLI runs
// in-process. PROFANA_UPDATE_GOLDEN=1 rewrites the expectations; review the diff.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

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

}  // namespace

TEST_CASE("golden cases", "[golden]") {
  bool update = std::getenv("PROFANA_UPDATE_GOLDEN") != nullptr;
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(profana::test::TestData("golden")))
    if (fs::exists(entry.path() / "args")) cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 10);
  for (const fs::path& dir : cases) {
    std::string args_text = profana::test::ReadFile((dir / "args").string());
    auto r = profana::test::Run(SplitArgs(args_text));
    if (update) {
      Write(dir / "expected.stdout", r.out);
      if (!r.err.empty())
        Write(dir / "expected.stderr", r.err);
      else
        fs::remove(dir / "expected.stderr");
      if (r.code != 0)
        Write(dir / "expected.rc", std::to_string(r.code) + "\n");
      else
        fs::remove(dir / "expected.rc");
      continue;
    }
    INFO("case " << dir.filename().string() << ": profana " << args_text);
    int want_rc = fs::exists(dir / "expected.rc")
                      ? std::stoi(profana::test::ReadFile((dir / "expected.rc").string()))
                      : 0;
    CHECK(r.code == want_rc);
    CHECK(r.out == profana::test::ReadFile((dir / "expected.stdout").string()));
    std::string want_err = fs::exists(dir / "expected.stderr")
                               ? profana::test::ReadFile((dir / "expected.stderr").string())
                               : "";
    CHECK(r.err == want_err);
  }
}
