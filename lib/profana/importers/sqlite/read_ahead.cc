#include "profana/importers/sqlite/read_ahead.h"

#include <sqlite3.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <thread>

#include "fmt/format.h"

namespace profana::sqlite {
namespace {

// Rows per block, and blocks copied ahead of the reader: enough that a hand-over (a lock and a
// wake-up) is rare next to the rows' work, few enough that the blocks stay in the cache.
constexpr size_t kRowsPerBlock = 4096;
constexpr size_t kBlocksAhead = 3;

}  // namespace

struct ReadAhead::Block {
  std::vector<Cell> cells;  // rows x columns
  std::string text;
  size_t rows = 0;
  bool last = false;  // no rows after these; `status` says why
  Status status;
};

struct ReadAhead::Shared {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::unique_ptr<Block>> ready;   // filled, not yet read
  std::vector<std::unique_ptr<Block>> spare;  // read, to be refilled
  bool stop = false;                          // the reader is gone
  std::thread worker;
};

ReadAhead::ReadAhead(Database& db, sqlite3_stmt* stmt, std::string table,
                     std::vector<std::string> columns)
    : db_(db),
      stmt_(stmt),
      table_(std::move(table)),
      columns_(std::move(columns)),
      shared_(std::make_unique<Shared>()) {
  shared_->worker = std::thread(&ReadAhead::Work, this);
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->stop = true;
  }
  shared_->changed.notify_all();
  shared_->worker.join();
}

const Cell* ReadAhead::Next() {
  if (current_ && next_row_ < current_->rows)
    return &current_->cells[columns_.size() * next_row_++];
  if (current_ && current_->last) return nullptr;
  Shared& s = *shared_;
  std::unique_lock<std::mutex> lock(s.mutex);
  if (current_) s.spare.push_back(std::move(current_));
  s.changed.notify_all();
  s.changed.wait(lock, [&] { return !s.ready.empty(); });
  current_ = std::move(s.ready.front());
  s.ready.pop_front();
  lock.unlock();
  next_row_ = 0;
  if (current_->last) status_ = current_->status;
  return Next();
}

std::string_view ReadAhead::Text(const Cell& cell) const {
  return std::string_view(current_->text).substr(cell.text_at, cell.text_size);
}

bool ReadAhead::CopyRow(Block* block, int64_t row, Status* status) {
  for (size_t k = 0; k < columns_.size(); ++k) {
    int c = static_cast<int>(k);
    Cell& cell = block->cells.emplace_back();
    cell.type = sqlite3_column_type(stmt_, c);
    if (cell.type == SQLITE_NULL) continue;
    cell.i = sqlite3_column_int64(stmt_, c);
    if (cell.type == SQLITE_INTEGER) {
      cell.d = static_cast<double>(cell.i);
      continue;
    }
    cell.d = sqlite3_column_double(stmt_, c);
    const void* bytes =
        cell.type == SQLITE_BLOB ? sqlite3_column_blob(stmt_, c) : sqlite3_column_text(stmt_, c);
    size_t size = bytes ? static_cast<size_t>(sqlite3_column_bytes(stmt_, c)) : 0;
    if (!db_.ChargeText(size)) {
      block->cells.pop_back();
      *status =
          db_.TextBudgetError(fmt::format("table {}, row {}, column {}", table_, row, columns_[k]));
      return false;
    }
    cell.text_at = block->text.size();
    cell.text_size = size;
    block->text.append(static_cast<const char*>(bytes), size);
  }
  return true;
}

void ReadAhead::Work() {
  Shared& s = *shared_;
  int64_t row = 0;
  for (bool last = false; !last;) {
    std::unique_ptr<Block> block;
    {
      std::unique_lock<std::mutex> lock(s.mutex);
      s.changed.wait(lock, [&] { return s.stop || s.ready.size() < kBlocksAhead; });
      if (s.stop) return;
      if (!s.spare.empty()) {
        block = std::move(s.spare.back());
        s.spare.pop_back();
      }
    }
    if (!block) block = std::make_unique<Block>();
    block->cells.clear();
    block->text.clear();
    block->rows = 0;
    block->status = Status::Ok();
    try {
      block->cells.reserve(kRowsPerBlock * columns_.size());
      while (block->rows < kRowsPerBlock) {
        int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW && CopyRow(block.get(), ++row, &block->status)) {
          ++block->rows;
          continue;
        }
        last = true;
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)  // a damaged page, usually
          block->status = db_.ReadError(table_, row + 1, "database error");
        break;
      }
    } catch (const std::bad_alloc&) {
      last = true;
      block->cells.resize(block->rows * columns_.size());
      block->status =
          Status(ErrorCode::kTooLarge,
                 fmt::format("{}: table {}, row {}: out of memory", db_.file(), table_, row));
    }
    block->last = last;
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      s.ready.push_back(std::move(block));
    }
    s.changed.notify_all();
  }
}

}  // namespace profana::sqlite
