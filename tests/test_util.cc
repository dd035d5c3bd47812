#include "test_util.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "profana/cli.h"
#include "profana/importers/importer.h"

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

Trace LoadTestTrace(const std::string& relative) {
  auto loaded = LoadTrace(TestData(relative));
  REQUIRE(loaded.ok());
  return std::move(loaded->trace);
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("profana_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string FirstDifference(const std::string& got, const std::string& want) {
  std::vector<std::string> a = Lines(got), b = Lines(want);
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    std::string x = i < a.size() ? a[i] : "<end>", y = i < b.size() ? b[i] : "<end>";
    if (x != y) return "line " + std::to_string(i + 1) + "\n got: " + x + "\nwant: " + y;
  }
  return "identical";
}

bool FileExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string TraceJson(const std::string& events) {
  return "{\"traceEvents\": [\n" + events + "\n]}\n";
}

std::string CpuOpJson(const std::string& name, int64_t ts, int64_t dur) {
  return "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
         "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(ts) +
         ", \"dur\": " + std::to_string(dur) + "}";
}

TempFile::TempFile(const std::string& name, const std::string& text) : path(TempPath(name)) {
  WriteFile(path, text);
}

TempFile::~TempFile() { std::remove(path.c_str()); }

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

const std::map<std::string, std::vector<std::string>>& PyTorchTableArgs() {
  static const std::map<std::string, std::vector<std::string>> kArgs = {
      {"table_default.txt", {}},
      {"table_self_cpu.txt", {"--sort", "self_cpu_time_total", "--row-limit", "-1"}},
      {"table_cpu_total_top10.txt", {"--sort", "cpu_time_total", "--row-limit", "10"}},
      {"table_count_top15.txt", {"--sort", "count", "--row-limit", "15"}},
      {"table_self_cuda.txt", {"--sort", "self_cuda_time_total", "--row-limit", "-1"}},
      {"table_cuda_total_top20.txt", {"--sort", "cuda_time_total", "--row-limit", "20"}},
      {"table_by_input_shape.txt",
       {"--group-by-input-shape", "--sort", "cpu_time_total", "--row-limit", "-1"}},
      {"table_by_stack_n5.txt",
       {"--group-by-stack", "5", "--sort", "self_cpu_time_total", "--row-limit", "-1"}},
      {"table_top_level.txt",
       {"--sort", "cpu_time_total", "--row-limit", "-1", "--top-level-only"}},
      {"table_self_cpu_mem.txt", {"--sort", "self_cpu_memory_usage", "--row-limit", "-1"}},
      {"table_self_cuda_mem.txt", {"--sort", "self_cuda_memory_usage", "--row-limit", "-1"}},
      {"table_raw_events_top25.txt",
       {"--raw", "--sort", "self_cpu_time_total", "--row-limit", "25"}},
      {"table_flops.txt", {"--sort", "flops", "--row-limit", "-1"}},
      {"table_cuda_total_w40_top12.txt",
       {"--sort", "cuda_time_total", "--row-limit", "12", "--max-name-width", "40"}},
      {"table_cpu_avg_top10.txt", {"--sort", "cpu_time", "--row-limit", "10"}},
  };
  return kArgs;
}

}  // namespace profana::test
