// SqlRowPipe hands the rows of a database profana writes to a thread of their own, which adds
// each batch to its table's pages (sql_page_file.h) while the writer works out the next rows: on
// two cores the encoding and writing of pages overlaps profana's work instead of following it.
// Rows go in batches, each batch's values and text copied into buffers that are reused, so the
// writer keeps no pointer into anything that may change; a batch is handed over once the thread
// has taken the one before, so at most two are held. With one core, each batch is added where it
// is handed over.
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
#include "profana/reporters/sql/sql_page_file.h"

namespace profana::report {

class SqlRowPipe {
 public:
  // Rows go to the tables of `file`, which outlives the pipe. `threaded`: added on a thread of
  // its own (false: where the batch is handed over).
  SqlRowPipe(SqlPageFile* file, bool threaded);
  ~SqlRowPipe();  // adds what is left and stops the thread
  SqlRowPipe(const SqlRowPipe&) = delete;
  SqlRowPipe& operator=(const SqlRowPipe&) = delete;

  SqlPageFile* file() const { return file_; }

  // Takes the rows of *batch once the thread has taken the batch before, and leaves *batch empty
  // (of the same table, with buffers of a batch already added).
  // After a failure, batches are dropped; Drain() reports the failure.
  void Hand(SqlBatch* batch);
  // Waits until every batch handed over is added: the first failure, or ok.
  Status Drain();

 private:
  void Work();

  SqlPageFile* file_;
  std::mutex mutex_;
  std::condition_variable changed_;
  SqlBatch pending_;  // the batch the thread takes next
  bool has_pending_ = false;
  bool busy_ = false;  // the thread is adding a batch
  bool stop_ = false;
  Status status_;
  std::thread thread_;
};

}  // namespace profana::report
