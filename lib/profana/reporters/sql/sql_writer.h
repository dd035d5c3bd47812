// Writes traces into a SQLite database of profana's schema (sql_schema.h, docs/sql.md): one
// database for one trace or a whole job, each trace's rows tagged with its rank. Rows go from the
// model's columns straight into the tables' pages (sql_page_file.h), a trace at a time, so the
// writer holds no second copy of a trace; SQLite builds the indexes after the last row. A failed
// write leaves no file: the database is written beside its destination and renamed into place by
// Finish.
// It takes the Trace: the database holds its tables, metadata, counts and diagnostics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "profana/base/output_file.h"
#include "profana/base/status.h"
#include "profana/job/analysed_traces.h"
#include "profana/job/trace_analyses.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/reporters/sql/sql_page_file.h"
#include "profana/reporters/sql/sql_row_pipe.h"

struct sqlite3;

namespace profana::report {

struct SqlRows;  // sql_rows.h

class SqlDatabaseWriter final : public job::AnalysedTraceSink {
 public:
  // A database that replaces `path` when Finish succeeds (the path must name a regular file or
  // none), or, with an empty path, a temporary database (in $TMPDIR, else /tmp) that lives as
  // long as the writer (`profana sql` queries it, then it is gone).
  static Result<std::unique_ptr<SqlDatabaseWriter>> Create(const std::string& path);
  ~SqlDatabaseWriter() override;
  SqlDatabaseWriter(const SqlDatabaseWriter&) = delete;
  SqlDatabaseWriter& operator=(const SqlDatabaseWriter&) = delete;

  // Adds one trace's rows in two steps (job::AnalysedTraceSink): its events, then the tables of
  // the other analyses. `events` is the trace's FunctionEventList, `analyses` what AnalyseTrace
  // makes of both. Two traces of one rank are refused.
  Status AddTraceEvents(const Trace& trace, const passes::FunctionEventList& events,
                        const job::TraceAnalyses& analyses, int64_t rank,
                        const std::string& file) override;
  Status AddTraceAnalyses(const Trace& trace, const passes::FunctionEventList& events,
                          const job::TraceAnalyses& analyses, int64_t rank,
                          const std::string& file) override;

  // Builds the indexes and views and commits; a file database is then renamed into place.
  Status Finish();

  // The database, for queries after Finish: open while the writer lives for a temporary one.
  sqlite3* handle() const { return db_; }

 private:
  SqlDatabaseWriter() = default;
  // Gives a trace's rows their pipe, rank and ids (after the traces added before).
  void Number(SqlRows* rows, int64_t rank) const;

  sqlite3* db_ = nullptr;                // from Finish on
  std::unique_ptr<ReplacingFile> file_;  // never committed for a temporary database
  std::unique_ptr<SqlPageFile> pages_;   // the tables' pages, until Finish
  std::unique_ptr<SqlRowPipe> pipe_;     // every row goes through it
  std::string path_;                     // for messages
  bool temporary_ = false;
  // Where the next trace's ids start: events (op, runtime, kernel, copy, device_range share one
  // id space, a trace's event index plus its base), threads, stacks.
  int64_t event_base_ = 0;
  int64_t thread_base_ = 0;
  int64_t stack_base_ = 0;
  std::vector<int64_t> ranks_;
};

}  // namespace profana::report
