#include "profana/base/write_behind_sink.h"

namespace profana {

WriteBehindSink::WriteBehindSink(OutputSink* next) : next_(next) {
  thread_ = std::thread(&WriteBehindSink::Work, this);
}

WriteBehindSink::~WriteBehindSink() { static_cast<void>(Finish()); }

Status WriteBehindSink::Write(std::string_view bytes) {
  return Hand([&] { pending_.assign(bytes); });
}

Status WriteBehindSink::Take(std::string* chunk) {
  return Hand([&] {
    pending_.swap(*chunk);
    chunk->clear();
  });
}

template <typename Fill>
Status WriteBehindSink::Hand(Fill fill) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !has_pending_; });
  if (!status_.ok()) return status_;
  fill();
  has_pending_ = true;
  changed_.notify_all();
  return Status::Ok();
}

Status WriteBehindSink::Finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finishing_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  return status_;
}

void WriteBehindSink::Work() {
  std::string writing;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return has_pending_ || finishing_; });
    if (!has_pending_) return;  // finishing, and everything is written
    writing.swap(pending_);
    has_pending_ = false;
    changed_.notify_all();
    lock.unlock();
    Status st = status_.ok() ? next_->Write(writing) : Status::Ok();
    lock.lock();
    if (!st.ok() && status_.ok()) status_ = st;
  }
}

}  // namespace profana
