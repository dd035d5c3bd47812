#include "profana/reporters/sql/sql_writer.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>

#include "fmt/format.h"
#include "profana/base/parallel.h"
#include "profana/reporters/sql/sql_rows.h"
#include "profana/reporters/sql/sql_schema.h"

namespace profana::report {
namespace {

// SQLite makes the schema and, after the rows, builds the indexes: no journal and no syncs (a
// failed write loses only the temporary file), the database locked for this connection alone, and
// a page cache of 4 MiB. The index sorts' memory follows the cache's size; 64 MiB cost 16,000
// page faults on a virtual machine and sorted no faster.
constexpr const char* kBulkPragmas =
    "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; "
    "PRAGMA cache_size = -4096;";

// Where `profana sql` keeps the database it queries: a file that is never put in place, removed
// when the writer goes (or by a signal, as any output's temporary file).
std::string TemporaryDatabasePath() {
  const char* dir = std::getenv("TMPDIR");
  std::string d = dir && *dir ? dir : "/tmp";
  if (d.back() != '/') d += '/';
  return d + "profana-query.sqlite";
}

Result<sqlite3*> OpenDatabase(const std::string& path, const std::string& shown) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc == SQLITE_OK) return db;
  Status st(ErrorCode::kIo, fmt::format("{}: cannot open the database: {}", shown,
                                        db ? sqlite3_errmsg(db) : "out of memory"));
  sqlite3_close_v2(db);
  return st;
}

Status TraceInfo(const SqlRows& r) {
  const TraceMetadata& m = r.trace.metadata;
  SqlInsert s(r.pipe, "trace_info");
  auto text = [&](std::string_view key, std::string_view value) {
    if (!value.empty()) s.Int(r.rank).Text(key).Text(value).Row();
  };
  auto number = [&](std::string_view key, int64_t value) {
    s.Int(r.rank).Text(key).Int(value).Row();
  };
  text("schema", kSqlSchemaName);
  text("format", std::string(TraceFormatName(m.format)));
  text("producer", m.producer);
  text("container", m.container);
  number("input_bytes", static_cast<int64_t>(m.input_bytes));
  if (m.compressed_bytes) number("compressed_bytes", static_cast<int64_t>(m.compressed_bytes));
  number("lost_bytes", static_cast<int64_t>(m.lost_bytes));
  number("raw_events", static_cast<int64_t>(m.raw_events));
  number("metadata_events", static_cast<int64_t>(m.metadata_events));
  number("instant_events", static_cast<int64_t>(m.instant_events));
  number("flow_events", static_cast<int64_t>(r.trace.flows.size()));
  if (m.schema_version >= 0) number("schema_version", m.schema_version);
  if (m.base_time_ns != kNoId) number("base_time_ns", m.base_time_ns);
  text("display_time_unit", m.display_time_unit);
  number("origin_ns", m.origin.ns);
  if (m.rank >= 0) number("distributed_rank", m.rank);
  if (m.world_size >= 0) number("world_size", m.world_size);
  text("backend", m.backend);
  number("profile_memory", m.profile_memory ? 1 : 0);
  number("legacy_kernels", m.legacy_kernels ? 1 : 0);
  text("link_rule", passes::LinkRuleName(r.events.link));
  for (size_t d = 0; d < m.devices.size(); ++d)
    text(fmt::format("device.{}.name", d), m.devices[d]);
  for (size_t k = 0; k < kDiagnosticKinds; ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    if (uint64_t n = r.trace.diagnostics.count(kind))
      number(fmt::format("diagnostics.{}", DiagnosticName(kind)), static_cast<int64_t>(n));
  }
  return s.Finish();
}

Status RankAndThreads(const SqlRows& r, const std::string& file) {
  const Trace& t = r.trace;
  SqlInsert rank(r.pipe, "rank"), thread(r.pipe, "thread");
  const TraceMetadata& m = t.metadata;
  int64_t first = 0, last = 0;
  for (size_t e = 0; e < t.events.size(); ++e) {
    first = e == 0 ? t.events.start_ns[e] : std::min(first, t.events.start_ns[e]);
    last = e == 0 ? t.events.end_ns[e] : std::max(last, t.events.end_ns[e]);
  }
  rank.Int(r.rank).Text(file).Text(TraceFormatName(m.format));  // a static name
  m.producer.empty() ? rank.Null() : rank.Text(m.producer);
  rank.IntOr(m.world_size, -1);
  m.backend.empty() ? rank.Null() : rank.Text(m.backend);
  rank.Int(m.origin.ns);
  t.events.size() ? rank.Int(first).Int(last) : rank.Null().Null();
  rank.Row();
  for (uint32_t i = 0; i < t.threads.size(); ++i) {
    const ThreadInfo& th = t.threads[i];
    thread.Int(r.thread_base + i).Int(r.rank);
    r.TrackField(thread, th.pid, th.pid_text);
    r.TrackField(thread, th.tid, th.tid_text);
    th.name.value ? thread.Text(t.str(th.name)) : thread.Null();
    th.process_name.value ? thread.Text(t.str(th.process_name)) : thread.Null();
    thread.Row();
  }
  Status ranks = rank.Finish(), threads = thread.Finish();
  return ranks.ok() ? threads : ranks;
}

}  // namespace

Result<std::unique_ptr<SqlDatabaseWriter>> SqlDatabaseWriter::Create(const std::string& path) {
  std::unique_ptr<SqlDatabaseWriter> w(new SqlDatabaseWriter());
  w->path_ = path.empty() ? "temporary database" : path;
  w->temporary_ = path.empty();
  w->file_ = std::make_unique<ReplacingFile>();
  PROFANA_RETURN_IF_ERROR(w->file_->Open(path.empty() ? TemporaryDatabasePath() : path));
  if (w->file_->in_place())
    return Status(ErrorCode::kInvalidArgument,
                  path + ": a database is written to a regular file, not a device or a pipe");
  // SQLite makes the header, the schema and each table's and index's root page; the rows and
  // index entries are pages SqlPageFile appends.
  const std::string& writing = w->file_->writing_path();
  PROFANA_ASSIGN_OR_RETURN(sqlite3 * db, OpenDatabase(writing, w->path_));
  Status made = ExecSql(db,
                        fmt::format("{} PRAGMA application_id = {}; PRAGMA user_version = {}; "
                                    "BEGIN; {} {} COMMIT;",
                                    kBulkPragmas, kSqlApplicationId, kSqlSchemaVersion,
                                    SqlTablesDdl(), SqlRowIndexesDdl()),
                        "tables");
  Result<std::unique_ptr<SqlPageFile>> pages = made.ok()
                                                   ? SqlPageFile::Open(db, writing, w->path_)
                                                   : Result<std::unique_ptr<SqlPageFile>>(made);
  if (sqlite3_close_v2(db) != SQLITE_OK && pages.ok())
    return Status(ErrorCode::kIo, w->path_ + ": cannot close the database");
  PROFANA_RETURN_IF_ERROR(pages.status());
  w->pages_ = std::move(*pages);
  w->pipe_ = std::make_unique<SqlRowPipe>(w->pages_.get(), AvailableCores() > 1);
  return w;
}

SqlDatabaseWriter::~SqlDatabaseWriter() {
  pipe_.reset();  // its thread may still be adding pages
  if (db_) sqlite3_close_v2(db_);
}

void SqlDatabaseWriter::Number(SqlRows* rows, int64_t rank) const {
  rows->pipe = pipe_.get();
  rows->rank = rank;
  rows->event_base = event_base_;
  rows->thread_base = thread_base_;
  rows->stack_base = stack_base_;
}

Status SqlDatabaseWriter::AddTraceEvents(const Trace& trace,
                                         const passes::FunctionEventList& events,
                                         const job::TraceAnalyses& analyses, int64_t rank,
                                         const std::string& file) {
  if (std::find(ranks_.begin(), ranks_.end(), rank) != ranks_.end())
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: rank {} is in the database already", file, rank));
  ranks_.push_back(rank);
  SqlRows rows(trace, events, analyses);
  Number(&rows, rank);
  PROFANA_RETURN_IF_ERROR(TraceInfo(rows));
  PROFANA_RETURN_IF_ERROR(RankAndThreads(rows, file));
  return WriteEventRows(rows);
}

Status SqlDatabaseWriter::AddTraceAnalyses(const Trace& trace,
                                           const passes::FunctionEventList& events,
                                           const job::TraceAnalyses& analyses, int64_t rank,
                                           const std::string& /*file*/) {
  SqlRows rows(trace, events, analyses);
  Number(&rows, rank);
  PROFANA_RETURN_IF_ERROR(WriteAnalysisRows(rows));
  event_base_ += rows.IdsUsed();
  thread_base_ += static_cast<int64_t>(trace.threads.size());
  stack_base_ += static_cast<int64_t>(trace.stacks.size());
  return Status::Ok();
}

Status SqlDatabaseWriter::Finish() {
  PROFANA_RETURN_IF_ERROR(pipe_->Drain());
  PROFANA_RETURN_IF_ERROR(pages_->Finish());
  PROFANA_ASSIGN_OR_RETURN(db_, OpenDatabase(file_->writing_path(), path_));
  // An index SQLite builds is a sort over its whole table: its sorter hands parts of it to worker
  // threads, one per core beyond the first.
  PROFANA_RETURN_IF_ERROR(ExecSql(db_,
                                  fmt::format("{} PRAGMA threads = {};", kBulkPragmas,
                                              std::min<size_t>(AvailableCores() - 1, 8)),
                                  "settings"));
  PROFANA_RETURN_IF_ERROR(ExecSql(db_, "BEGIN", "begin"));
  for (const std::string& index : pages_->ToRebuild())  // past the entries' budget
    PROFANA_RETURN_IF_ERROR(ExecSql(db_, "REINDEX " + index, "indexes"));
  PROFANA_RETURN_IF_ERROR(ExecSql(db_, SqlIndexesDdl(), "indexes"));
  PROFANA_RETURN_IF_ERROR(ExecSql(db_, SqlViewsDdl(), "views"));
  PROFANA_RETURN_IF_ERROR(ExecSql(db_, "COMMIT", "commit"));
  if (temporary_) return Status::Ok();  // queried, then removed with the writer
  int rc = sqlite3_close_v2(db_);
  db_ = nullptr;
  if (rc != SQLITE_OK) return Status(ErrorCode::kIo, path_ + ": cannot close the database");
  return file_->Commit();
}

}  // namespace profana::report
