#include "profana/reporters/sql/sql_query.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cstring>

#include "fmt/format.h"
#include "profana/base/json_string.h"
#include "profana/base/json_writer.h"
#include "profana/importers/sqlite/database.h"
#include "profana/importers/sqlite/query.h"
#include "profana/reporters/grid.h"
#include "profana/reporters/sql/sql_schema.h"

namespace profana::report {
namespace {

bool OnlySpaceOrComments(const char* tail) {
  // What sqlite3_prepare leaves after the first statement: blanks, or a trailing ';'-less comment.
  for (const char* p = tail; *p; ++p) {
    if (*p == '-' && p[1] == '-') {
      while (*p && *p != '\n') ++p;
      if (!*p) break;
    } else if (!(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ';')) {
      return false;
    }
  }
  return true;
}

// A cell as text tables and CSV show it: NULL as nothing, a blob as x'hex', reals in the
// shortest text that reads back the same.
std::string CellText(const SqlCell& c) {
  switch (c.type) {
    case SqlCell::Type::kNull:
      return "";
    case SqlCell::Type::kInteger:
      return fmt::format("{}", c.integer);
    case SqlCell::Type::kReal:
      return fmt::format("{}", c.real);
    case SqlCell::Type::kText:
      return c.text;
    case SqlCell::Type::kBlob: {
      std::string out = "x'";
      for (unsigned char b : c.text) out += fmt::format("{:02x}", b);
      return out + "'";
    }
  }
  return "";
}

}  // namespace

void SqliteCloser::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

Result<SqlQueryResult> RunSqlQuery(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* raw = nullptr;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &raw, &tail) != SQLITE_OK)
    return Status(ErrorCode::kInvalidArgument, fmt::format("sql: {}", sqlite3_errmsg(db)));
  sqlite::Stmt stmt(raw);
  if (!stmt) return Status(ErrorCode::kInvalidArgument, "sql: the query holds no statement");
  if (tail && !OnlySpaceOrComments(tail))
    return Status(ErrorCode::kInvalidArgument,
                  "sql: give one statement (what follows the first ';' is not run)");
  SqlQueryResult out;
  int n = sqlite3_column_count(raw);
  for (int c = 0; c < n; ++c) out.columns.emplace_back(sqlite3_column_name(raw, c));
  int rc;
  while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
    std::vector<SqlCell>& row = out.rows.emplace_back(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) {
      SqlCell& cell = row[static_cast<size_t>(c)];
      switch (sqlite3_column_type(raw, c)) {
        case SQLITE_INTEGER:
          cell.type = SqlCell::Type::kInteger;
          cell.integer = sqlite3_column_int64(raw, c);
          break;
        case SQLITE_FLOAT:
          cell.type = SqlCell::Type::kReal;
          cell.real = sqlite3_column_double(raw, c);
          break;
        case SQLITE_TEXT:
          cell.type = SqlCell::Type::kText;
          cell.text.assign(reinterpret_cast<const char*>(sqlite3_column_text(raw, c)),
                           static_cast<size_t>(sqlite3_column_bytes(raw, c)));
          break;
        case SQLITE_BLOB:
          cell.type = SqlCell::Type::kBlob;
          cell.text.assign(static_cast<const char*>(sqlite3_column_blob(raw, c)),
                           static_cast<size_t>(sqlite3_column_bytes(raw, c)));
          break;
        default:
          break;
      }
    }
  }
  if (rc != SQLITE_DONE)
    return Status(ErrorCode::kInvalidArgument, fmt::format("sql: {}", sqlite3_errmsg(db)));
  return out;
}

bool IsProfanaDatabase(const InputFile& file) {
  if (!file.regular()) return false;
  char header[72];  // as stored: SQLite opens no gzipped file
  if (pread(file.fd(), header, sizeof header, 0) != static_cast<ssize_t>(sizeof header))
    return false;
  return sqlite::IsProfanaDatabaseHeader(std::string_view(header, sizeof header));
}

Result<SqliteHandle> OpenProfanaDatabase(const std::string& path) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  SqliteHandle handle(db);
  if (rc != SQLITE_OK)
    return Status(ErrorCode::kIo, fmt::format("{}: cannot open the database: {}", path,
                                              db ? sqlite3_errmsg(db) : "out of memory"));
  return handle;
}

std::string FormatSqlResult(const SqlQueryResult& result, OutputFormat format,
                            const std::string& input, const std::string& query) {
  if (format == OutputFormat::kJson) {
    std::string out;
    JsonWriter w(&out);
    w.BeginObject();
    w.Key("schema").String("profana.sql/1");
    w.Key("input").String(input);
    w.Key("query").String(query);
    w.Key("columns").BeginArray();
    for (const std::string& c : result.columns) w.String(c);
    w.EndArray();
    w.Key("rows").BeginArray();
    for (const std::vector<SqlCell>& row : result.rows) {
      w.BeginArray();
      for (const SqlCell& c : row) {
        switch (c.type) {
          case SqlCell::Type::kNull:
            w.Null();
            break;
          case SqlCell::Type::kInteger:
            w.Int(c.integer);
            break;
          case SqlCell::Type::kReal:
            w.Double(c.real);
            break;
          default:
            w.String(CellText(c));
        }
      }
      w.EndArray();
    }
    w.EndArray();
    w.EndObject();
    out += '\n';
    return out;
  }
  Grid grid;
  grid.headers = result.columns;
  grid.left.assign(result.columns.size(), false);
  // A column of text (in its first non-NULL cell) is left-aligned, numbers right-aligned.
  for (size_t c = 0; c < result.columns.size(); ++c) {
    for (const std::vector<SqlCell>& row : result.rows) {
      if (row[c].type == SqlCell::Type::kNull) continue;
      grid.left[c] = row[c].type == SqlCell::Type::kText || row[c].type == SqlCell::Type::kBlob;
      break;
    }
  }
  for (const std::vector<SqlCell>& row : result.rows) {
    std::vector<std::string> cells;
    cells.reserve(row.size());
    for (const SqlCell& c : row) cells.push_back(CellText(c));
    grid.AddRow(std::move(cells));
  }
  if (format == OutputFormat::kCsv) return grid.Csv();
  if (format == OutputFormat::kMarkdown) return grid.Markdown();
  return grid.Text();
}

}  // namespace profana::report
