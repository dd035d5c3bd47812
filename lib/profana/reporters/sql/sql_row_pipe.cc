#include "profana/reporters/sql/sql_row_pipe.h"

#include <sqlite3.h>

#include <system_error>
#include <utility>

#include "fmt/format.h"

namespace profana::report {

SqlRowPipe::SqlRowPipe(sqlite3* db, bool threaded)
    : db_(db), registered_(RegisterSqlBatchTable(db, &source_)) {
  if (!threaded) return;
  try {
    thread_ = std::thread([this] { Work(); });
  } catch (const std::system_error&) {
    // No thread to be had: batches are stepped where they are handed over.
  }
}

SqlRowPipe::~SqlRowPipe() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

Status SqlRowPipe::Step(const SqlBatch& b) {
  if (!registered_.ok()) return registered_;
  source_.batch = &b;
  int rc = sqlite3_step(b.stmt);
  sqlite3_reset(b.stmt);
  source_.batch = nullptr;
  if (rc != SQLITE_DONE)
    return Status(ErrorCode::kIo, fmt::format("database table {}: cannot add rows: {}", *b.table,
                                              sqlite3_errmsg(db_)));
  return Status::Ok();
}

void SqlRowPipe::Hand(SqlBatch* batch) {
  if (!thread_.joinable()) {
    if (status_.ok()) status_ = Step(*batch);
  } else {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return !has_pending_; });
    // The rows go; the buffers of a batch already stepped come back.
    pending_.stmt = batch->stmt;
    pending_.table = batch->table;
    pending_.columns = batch->columns;
    std::swap(pending_.values, batch->values);
    std::swap(pending_.text, batch->text);
    has_pending_ = true;
    changed_.notify_all();
  }
  batch->values.clear();
  batch->text.clear();
}

Status SqlRowPipe::Drain() {
  if (thread_.joinable()) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return !has_pending_ && !busy_; });
  }
  return status_;
}

void SqlRowPipe::Work() {
  SqlBatch batch;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stop_ || has_pending_; });
    if (!has_pending_) return;
    std::swap(batch, pending_);
    has_pending_ = false;
    busy_ = true;
    bool failed = !status_.ok();
    changed_.notify_all();
    lock.unlock();
    Status stepped = failed ? Status::Ok() : Step(batch);
    lock.lock();
    if (status_.ok()) status_ = std::move(stepped);
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace profana::report
