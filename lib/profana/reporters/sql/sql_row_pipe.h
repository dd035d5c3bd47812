// SqlRowPipe hands the rows of a database profana writes to a thread of their own, which adds
// each batch by one step of its INSERT (sql_batch.h) while the writer works out the next rows: on
// two cores SQLite's work (most of a conversion) overlaps profana's instead of following it. Rows
// go in batches, each batch's values and text copied into buffers that are reused, so the writer
// keeps no pointer into anything that may change; a batch is handed over once the thread has
// taken the one before, so at most two are held. With one core, each batch is stepped where it is
// handed over.
//
// While rows are in flight the thread owns the connection: whoever prepares or runs another
// statement calls Drain() first (SqlInsert does).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "profana/base/status.h"
#include "profana/reporters/sql/sql_batch.h"

struct sqlite3;

namespace profana::report {

class SqlRowPipe {
 public:
  // `threaded`: step on a thread of its own (false: where the batch is handed over).
  SqlRowPipe(sqlite3* db, bool threaded);
  ~SqlRowPipe();  // steps what is left and stops the thread
  SqlRowPipe(const SqlRowPipe&) = delete;
  SqlRowPipe& operator=(const SqlRowPipe&) = delete;

  sqlite3* db() const { return db_; }

  // Takes the rows of *batch once the thread has taken the batch before, and leaves *batch empty
  // (of the same statement, with buffers of a batch already stepped).
  // After a failure, batches are dropped unstepped; Drain() reports the failure.
  void Hand(SqlBatch* batch);
  // Waits until every batch handed over is stepped: the first failure, or ok.
  Status Drain();

 private:
  Status Step(const SqlBatch& batch);
  void Work();

  sqlite3* db_;
  SqlBatchSource source_;  // what profana_batch reads while a batch is stepped
  Status registered_;      // of profana_batch on the connection
  std::mutex mutex_;
  std::condition_variable changed_;
  SqlBatch pending_;  // the batch the thread takes next
  bool has_pending_ = false;
  bool busy_ = false;  // the thread is stepping a batch
  bool stop_ = false;
  Status status_;
  std::thread thread_;
};

}  // namespace profana::report
