// Broken input: every case in testdata/bad/MANIFEST gives its exact first stderr line and exit
// code.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "test_util.h"

using profana::test::ReplaceAll;

namespace {

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> fields;
  std::string cur;
  for (char c : line) {
    if (c == '\t') {
      fields.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  fields.push_back(cur);
  return fields;
}

std::string Trim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  return s;
}

// An input column is a file in testdata/bad, optionally followed by " | step" recipes that make
// the damaged input at test time from readable text (binary fixtures are never committed):
//   sql STATEMENT    append a statement to the SQL text (one damage to a sound fixture)
//   sqlite           build the SQL text into a SQLite database
//   native           convert the trace to profana's native binary file
//   truncate N       keep the first N bytes
//   poke OFFSET HEX  overwrite bytes at OFFSET with the hex bytes
// Returns the path to run profana on: the file itself, or a made file in /tmp.
std::string MakeInput(const std::string& column, const std::string& made) {
  std::vector<std::string> steps;
  for (size_t pos = 0;;) {
    size_t bar = column.find('|', pos);
    steps.push_back(
        Trim(column.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos)));
    if (bar == std::string::npos) break;
    pos = bar + 1;
  }
  std::string path = "testdata/bad/" + steps[0];
  if (steps.size() == 1) return path;
  std::string bytes = profana::test::ReadFile(path);
  for (size_t i = 1; i < steps.size(); ++i) {
    std::istringstream step(steps[i]);
    std::string verb;
    step >> verb;
    if (verb == "sql") {
      bytes += "\n" + steps[i].substr(4) + ";\n";
    } else if (verb == "sqlite") {
      REQUIRE(profana::test::BuildSqliteDatabase(bytes, made) == "");
      bytes = profana::test::ReadFile(made);
    } else if (verb == "native") {
      std::ofstream(made + ".json", std::ios::binary | std::ios::trunc) << bytes;
      REQUIRE(profana::test::Run({"convert", "-q", made + ".json", "-o", made + ".pfa"}).code == 0);
      bytes = profana::test::ReadFile(made + ".pfa");
      std::remove((made + ".json").c_str());
      std::remove((made + ".pfa").c_str());
    } else if (verb == "truncate") {
      size_t n;
      step >> n;
      REQUIRE(n <= bytes.size());
      bytes.resize(n);
    } else if (verb == "poke") {
      size_t offset;
      std::string hex;
      step >> offset >> hex;
      REQUIRE(offset + hex.size() / 2 <= bytes.size());
      for (size_t k = 0; k + 1 < hex.size(); k += 2)
        bytes[offset + k / 2] = static_cast<char>(std::stoi(hex.substr(k, 2), nullptr, 16));
    } else {
      FAIL("unknown MANIFEST step: " << steps[i]);
    }
  }
  std::ofstream(made, std::ios::binary | std::ios::trunc) << bytes;
  return made;
}

}  // namespace

TEST_CASE("every broken input in testdata/bad gives its first error line and exit code", "[bad]") {
  std::ifstream manifest(profana::test::TestData("bad/MANIFEST"));
  int cases = 0;
  for (std::string line; std::getline(manifest, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = SplitTabs(line);
    REQUIRE(f.size() == 4);
    std::string made =
        "/tmp/profana_bad_" + std::to_string(::getpid()) + "_" + std::to_string(cases);
    std::string path = MakeInput(f[0], made);
    std::vector<std::string> args = {"table", path};
    std::istringstream extra(f[1]);
    for (std::string arg; extra >> arg;) args.push_back(arg);
    auto r = profana::test::Run(args);
    INFO("profana " << args[0] << " " << path << " " << f[1]);
    CHECK(r.code == std::stoi(f[2]));
    CHECK(r.err.substr(0, r.err.find('\n')) == ReplaceAll(f[3], "{}", path));
    if (r.code == 0)
      CHECK_FALSE(r.out.empty());  // a warning never costs the result
    else
      CHECK(r.out.empty());
    std::remove(made.c_str());
    ++cases;
  }
  CHECK(cases >= 15);
}
