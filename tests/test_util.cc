#include "test_util.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "profana/cli.h"

namespace profana::test {

std::string TestData(const std::string& relative) {
  return std::string(PROFANA_TESTDATA_DIR) + "/" + relative;
}

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

std::string BuildSqliteDatabase(const std::string& sql, const std::string& path) {
  std::remove(path.c_str());
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    sqlite3_close(db);
    return "cannot create " + path;
  }
  char* error = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  std::string message = rc == SQLITE_OK ? "" : error ? error : "sqlite3_exec failed";
  sqlite3_free(error);
  sqlite3_close(db);
  return message;
}

CliRun Run(const std::vector<std::string>& args) {
  CliRun r;
  r.code = app::RunCli(args, &r.out, &r.err);
  return r;
}

}  // namespace profana::test
