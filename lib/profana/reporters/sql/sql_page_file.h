// SqlPageFile writes the rows of a database profana makes straight into SQLite's file format
// (https://www.sqlite.org/fileformat2.html): each table's records packed into leaf pages in row
// id order, the interior pages built over them at the end. SQLite itself makes the file first
// (the header, the schema and an empty root page per table and index) and, after, adds what
// is left (views, other indexes); the rows never pass through its bytecode engine, which spent
// about a microsecond on each (docs/performance.md, "A database").
//
// Every table is a rowid table whose rows come in increasing row id order: an INTEGER PRIMARY
// KEY's value, or one more than the row before where the key is NULL or the table has none.
// Values take the column's affinity as SQLite's INSERT would give it them. The indexes made with
// the tables are written too: each on one column of integers (or NULL), its entries kept as the
// rows are added and sorted at the end, where SQLite would read every row back to sort them.
// Any other index is refused. Entries are kept up to a budget (a job's database grows with every
// rank, and its model does not); past it, every index is left empty, and the caller has SQLite
// rebuild them (ToRebuild()), in the bounded memory of its sorter.
//
// Pages are appended to the file in the order they fill, so the file grows by sequential writes
// and nothing of a table is held but the page being filled and a line per page written.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/status.h"
#include "profana/reporters/sql/sql_batch.h"

struct sqlite3;

namespace profana::report {

class SqlPageFile;

// One index's entries while the rows are added: the column's value and the row's id.
class SqlIndexTree {
 private:
  friend class SqlPageFile;
  friend class SqlTableTree;
  struct Entry {
    int64_t key;
    int64_t rowid;
  };
  // Sorts the entries and writes the B-tree.
  Status Finish();
  // The bytes of entry i (nulls first, then entries_) as a record; returns its size.
  uint32_t Record(size_t i, uint8_t* out) const;

  SqlPageFile* file_ = nullptr;
  std::string name_;
  uint32_t root_ = 0;
  int column_ = 0;
  bool unique_ = false;
  std::vector<int64_t> null_rows_;  // rows whose value is NULL, in row order
  std::vector<Entry> entries_;
};

// One table's B-tree while its rows are added.
class SqlTableTree {
 public:
  // How SQLite converts a value stored in a column (https://www.sqlite.org/datatype3.html).
  enum class Affinity : uint8_t { kBlob, kText, kNumeric, kInteger, kReal };

  const std::string& name() const { return name_; }
  int columns() const { return static_cast<int>(affinity_.size()); }

  // Adds a batch's rows (batch.columns must be columns()). The first failure stays: every later
  // call returns it.
  Status Append(const SqlBatch& batch);

 private:
  friend class SqlPageFile;
  struct Child {
    uint32_t page;
    int64_t max_rowid;
  };

  Status AddRow(const SqlValue* row, const std::string& text);
  Status AddCell(int64_t rowid);
  const uint8_t* ClosedLeaf();
  Status FlushLeaf();
  void StartLeaf();
  // Writes the interior pages and the root.
  Status Finish();

  SqlPageFile* file_ = nullptr;
  std::string name_;
  uint32_t root_ = 0;
  int rowid_column_ = -1;  // the INTEGER PRIMARY KEY, or -1
  std::vector<Affinity> affinity_;
  int64_t last_rowid_ = 0;
  bool has_rows_ = false;
  std::vector<uint8_t> leaf_;  // the leaf being filled
  uint32_t cells_ = 0;
  uint32_t content_ = 0;                // where the leaf's cell content starts
  std::vector<Child> leaves_;           // the leaves written, in key order
  std::vector<SqlIndexTree*> indexes_;  // of this table
  std::vector<uint8_t> record_;         // the row being added
  std::vector<uint8_t> overflow_;       // an overflow page being filled
  Status status_;
};

class SqlPageFile {
 public:
  // Reads the layout of `db`, a database on `path` that SQLite has just made and committed (its
  // tables and indexes empty), and opens the file to add rows; messages call it `shown`. The
  // caller closes `db` before the first row and opens the file again after Finish.
  // Index entries beyond `entry_budget` (16 bytes each) are not kept.
  static Result<std::unique_ptr<SqlPageFile>> Open(sqlite3* db, const std::string& path,
                                                   const std::string& shown,
                                                   size_t entry_budget = kIndexEntryBudget);
  // 256 MiB of entries: the indexes of about 5 GB of Kineto JSON.
  static constexpr size_t kIndexEntryBudget = size_t{16} << 20;
  ~SqlPageFile();
  SqlPageFile(const SqlPageFile&) = delete;
  SqlPageFile& operator=(const SqlPageFile&) = delete;

  // The table of that name, or null.
  SqlTableTree* Table(std::string_view name);

  // Finishes every table and the header and closes the file: the first failure, or ok.
  Status Finish();
  // After Finish: the indexes left empty, which `REINDEX` must fill.
  std::vector<std::string> ToRebuild() const;

 private:
  friend class SqlTableTree;
  friend class SqlIndexTree;
  SqlPageFile() = default;

  uint32_t usable() const { return usable_; }
  // The number the page appended after `page` gets: the next, but for the lock-byte page.
  uint32_t NextPage(uint32_t page) const { return page + 1 == lock_page_ ? page + 2 : page + 1; }
  // Appends a page at the file's end; returns its number.
  Result<uint32_t> Append(const uint8_t* page);
  // Overwrites page `number` (a root).
  Status WriteAt(uint32_t number, const uint8_t* page);
  Status Flush();
  // pwrite()s all of `bytes`, retrying short writes and EINTR.
  Status WriteBytes(uint64_t offset, const uint8_t* bytes, size_t size);
  Status Fail(const char* what, int error);
  // Counts a row's n index entries against the budget: whether they are kept. Past it, every
  // index's entries are dropped, and its root written empty for SQLite to rebuild.
  bool KeepEntries(size_t n);

  std::string path_;  // for messages
  int fd_ = -1;
  uint32_t page_size_ = 0;
  uint32_t usable_ = 0;  // page size less the bytes reserved at each page's end
  uint32_t pages_ = 0;   // pages in the file, those still buffered included
  // The page holding byte 2^30, which SQLite keeps for file locks and never uses
  // (fileformat2.html, "The Lock-Byte Page"): it is written empty and skipped.
  uint32_t lock_page_ = 0;
  uint32_t buffered_first_ = 0;  // the first page in buffer_
  std::vector<uint8_t> buffer_;  // pages appended and not yet written
  std::vector<std::unique_ptr<SqlTableTree>> tables_;
  std::vector<std::unique_ptr<SqlIndexTree>> indexes_;
  size_t entries_ = 0;  // index entries kept
  size_t entry_budget_ = 0;
  bool dropped_ = false;  // past the budget
  Status status_;
};

}  // namespace profana::report
