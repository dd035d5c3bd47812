// Helpers shared by the test files: paths into testdata/, file reading, running the CLI.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profana/model/trace.h"

namespace profana::test {

std::string TestData(const std::string& relative);  // absolute path under testdata/
std::string ReadFile(const std::string& path);
// The trace of testdata/<relative>, loaded as the commands load it; fails the test when it cannot.
Trace LoadTestTrace(const std::string& relative);
// A path in the temporary directory for this test process: "<tmp>/profana_test_<pid>_<name>".
std::string TempPath(const std::string& name);
// The lines of a text, without their newlines.
std::vector<std::string> Lines(const std::string& text);
// "identical", or the first line where got and want differ: "line N\n got: ...\nwant: ...".
std::string FirstDifference(const std::string& got, const std::string& want);
bool FileExists(const std::string& path);
// Writes `bytes` to `path`, replacing the file.
void WriteFile(const std::string& path, const std::string& bytes);
// The text up to its first newline.
std::string FirstLine(const std::string& text);
// `text` with every `from` replaced by `to`.
std::string ReplaceAll(std::string text, const std::string& from, const std::string& to);
// A Kineto trace file's text around its events ("{...}, {...}").
std::string TraceJson(const std::string& events);
// A cpu_op complete event ("ph": "X") on thread 1 of process 1.
std::string CpuOpJson(const std::string& name, int64_t ts, int64_t dur);

// A file at TempPath(name) holding `text`, removed when this goes out of scope.
struct TempFile {
  TempFile(const std::string& name, const std::string& text);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  std::string path;
};

// Builds SQL text (the testdata/nvprof/*.sql fixtures) into a SQLite database file at `path`,
// replacing any file there. Returns SQLite's error message, empty on success.
std::string BuildSqliteDatabase(const std::string& sql, const std::string& path);

// The table_*.txt files of the PyTorch oracles (testdata/oracle, testdata/live) and the
// `profana table` options that print the same key_averages().table() call.
const std::map<std::string, std::vector<std::string>>& PyTorchTableArgs();

struct CliRun {
  int code;
  std::string out;
  std::string err;
};
CliRun Run(const std::vector<std::string>& args);

}  // namespace profana::test
