#include "profana/reporters/sql/sql_row_pipe.h"

#include <system_error>
#include <utility>

namespace profana::report {

SqlRowPipe::SqlRowPipe(SqlPageFile* file, bool threaded) : file_(file) {
  if (!threaded) return;
  try {
    thread_ = std::thread([this] { Work(); });
  } catch (const std::system_error&) {
    // No thread to be had: batches are added where they are handed over.
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

void SqlRowPipe::Hand(SqlBatch* batch) {
  if (!thread_.joinable()) {
    if (status_.ok()) status_ = batch->tree->Append(*batch);
  } else {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return !has_pending_; });
    // The rows go; the buffers of a batch already added come back.
    pending_.tree = batch->tree;
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
    Status added = failed ? Status::Ok() : batch.tree->Append(batch);
    lock.lock();
    if (status_.ok()) status_ = std::move(added);
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace profana::report
