#include "profana/reporters/sql/sql_writer.h"

#include <sqlite3.h>

#include <algorithm>

#include "fmt/format.h"
#include "profana/base/parallel.h"
#include "profana/reporters/sql/sql_rows.h"
#include "profana/reporters/sql/sql_schema.h"

namespace profana::report {
namespace {

// A bulk load: no journal and no syncs (a failed write loses only the temporary file), the
// database locked for this connection alone, and a page cache of 4 MiB. Rows are appended, so the
// cache needs only the last pages of each table; a larger one is memory faulted in for nothing
// (64 MiB cost 16,000 page faults, 0.4 s of a 250 MB trace's 4.3 s on a virtual machine), and
// the index sorts, whose memory follows the cache's size, were as fast with 4 MiB.
constexpr const char* kBulkPragmas =
    "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; "
    "PRAGMA cache_size = -4096;";

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
  w->path_ = path;
  std::string open_path;  // "": SQLite's private temporary database
  if (!path.empty()) {
    w->file_ = std::make_unique<ReplacingFile>();
    PROFANA_RETURN_IF_ERROR(w->file_->Open(path));
    if (w->file_->in_place())
      return Status(ErrorCode::kInvalidArgument,
                    path + ": a database is written to a regular file, not a device or a pipe");
    open_path = w->file_->writing_path();
  }
  int rc =
      sqlite3_open_v2(open_path.c_str(), &w->db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK)
    return Status(ErrorCode::kIo, fmt::format("{}: cannot create the database: {}",
                                              path.empty() ? "temporary database" : path,
                                              w->db_ ? sqlite3_errmsg(w->db_) : "out of memory"));
  PROFANA_RETURN_IF_ERROR(ExecSql(w->db_, kBulkPragmas, "settings"));
  PROFANA_RETURN_IF_ERROR(
      ExecSql(w->db_,
              fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {};",
                          kSqlApplicationId, kSqlSchemaVersion),
              "settings"));
  PROFANA_RETURN_IF_ERROR(ExecSql(w->db_, "BEGIN", "begin"));
  PROFANA_RETURN_IF_ERROR(ExecSql(w->db_, SqlTablesDdl(), "tables"));
  // The indexes are sorts over whole tables: SQLite's sorter hands parts of each to worker
  // threads, one per core beyond the first.
  PROFANA_RETURN_IF_ERROR(ExecSql(
      w->db_, fmt::format("PRAGMA threads = {};", std::min<size_t>(AvailableCores() - 1, 8)),
      "settings"));
  w->pipe_ = std::make_unique<SqlRowPipe>(w->db_, AvailableCores() > 1);
  return w;
}

SqlDatabaseWriter::~SqlDatabaseWriter() {
  pipe_.reset();  // its thread may still hold the connection
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
  // The rows are in: profana_batch goes, so a query of the database sees only its schema.
  sqlite3_drop_modules(db_, nullptr);
  PROFANA_RETURN_IF_ERROR(ExecSql(db_, SqlIndexesDdl(), "indexes"));
  PROFANA_RETURN_IF_ERROR(ExecSql(db_, SqlViewsDdl(), "views"));
  PROFANA_RETURN_IF_ERROR(ExecSql(db_, "COMMIT", "commit"));
  if (!file_) return Status::Ok();
  int rc = sqlite3_close_v2(db_);
  db_ = nullptr;
  if (rc != SQLITE_OK) return Status(ErrorCode::kIo, path_ + ": cannot close the database");
  return file_->Commit();
}

}  // namespace profana::report
