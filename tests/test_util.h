// Helpers shared by the test files: paths into testdata/, file reading, running the CLI.
#pragma once

#include <string>
#include <vector>

namespace profana::test {

std::string TestData(const std::string& relative);  // absolute path under testdata/
std::string ReadFile(const std::string& path);
bool FileExists(const std::string& path);

struct CliRun {
  int code;
  std::string out;
  std::string err;
};
CliRun Run(const std::vector<std::string>& args);

}  // namespace profana::test
