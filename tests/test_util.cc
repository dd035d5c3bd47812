#include "test_util.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "profana/cli.h"

namespace profana::test {

std::string TestData(const std::string& relative) { return std::string(PROFANA_TESTDATA_DIR) + "/" + relative; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool FileExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

CliRun Run(const std::vector<std::string>& args) {
  CliRun r;
  r.code = app::RunCli(args, &r.out, &r.err);
  return r;
}

}  // namespace profana::test
