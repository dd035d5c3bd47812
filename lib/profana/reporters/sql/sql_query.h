// `profana sql`: one SQL statement run on a database of profana's schema (written for the query,
// or a file `convert` wrote, opened read-only), and its rows formatted as a text table, CSV,
// Markdown or a JSON document ("profana.sql/1", docs/sql.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profana/base/input_file.h"
#include "profana/base/status.h"
#include "profana/reporters/output_format.h"

struct sqlite3;

namespace profana::report {

struct SqlCell {
  enum class Type : uint8_t { kNull, kInteger, kReal, kText, kBlob };
  Type type = Type::kNull;
  int64_t integer = 0;
  double real = 0;
  std::string text;  // text, or a blob's bytes
};

struct SqlQueryResult {
  std::vector<std::string> columns;
  std::vector<std::vector<SqlCell>> rows;
};

// Runs `sql`, one statement (a second one is refused), and keeps every row.
Result<SqlQueryResult> RunSqlQuery(sqlite3* db, const std::string& sql);

struct SqliteCloser {
  void operator()(sqlite3* db) const;
};
using SqliteHandle = std::unique_ptr<sqlite3, SqliteCloser>;

// True when `file` is a SQLite file that profana wrote (its header's application id), read from
// the open file (base/input_file.h).
bool IsProfanaDatabase(const InputFile& file);
// Opens such a file read-only: a query never changes it.
Result<SqliteHandle> OpenProfanaDatabase(const std::string& path);

// `input` and `query` go into the JSON document.
std::string FormatSqlResult(const SqlQueryResult& result, OutputFormat format,
                            const std::string& input, const std::string& query);

}  // namespace profana::report
