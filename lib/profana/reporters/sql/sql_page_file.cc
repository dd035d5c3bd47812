#include "profana/reporters/sql/sql_page_file.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "fmt/format.h"

namespace profana::report {
namespace {

// Pages are written in runs of this many bytes.
constexpr size_t kFlushBytes = size_t{1} << 20;
// SQLite's largest page number.
constexpr uint32_t kMaxPages = 4294967294u;
// Page types (the first byte of a B-tree page's header).
constexpr uint8_t kTableLeaf = 0x0D;
constexpr uint8_t kTableInterior = 0x05;
constexpr uint8_t kIndexLeaf = 0x0A;
constexpr uint8_t kIndexInterior = 0x02;
constexpr uint32_t kLeafHeader = 8;
constexpr uint32_t kInteriorHeader = 12;
// What a row adds entries to once they are no longer kept.
const std::vector<SqlIndexTree*> kNoIndexes;

void Put16(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}

void Put32(uint8_t* p, uint32_t v) {
  for (int i = 3; i >= 0; --i, v >>= 8) p[i] = static_cast<uint8_t>(v);
}

uint32_t Get32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// SQLite's variable-length integer: big-endian groups of seven bits, the ninth byte whole.
int VarintLength(uint64_t v) {
  if (v >> 56) return 9;
  int n = 1;
  while (v >>= 7) ++n;
  return n;
}

int PutVarint(uint8_t* p, uint64_t v) {
  if (v <= 0x7f) {
    p[0] = static_cast<uint8_t>(v);
    return 1;
  }
  if (v >> 56) {
    p[8] = static_cast<uint8_t>(v);
    v >>= 8;
    for (int i = 7; i >= 0; --i, v >>= 7) p[i] = static_cast<uint8_t>((v & 0x7f) | 0x80);
    return 9;
  }
  int n = VarintLength(v);
  for (int i = n - 1; i >= 0; --i, v >>= 7)
    p[i] = static_cast<uint8_t>((v & 0x7f) | (i == n - 1 ? 0 : 0x80));
  return n;
}

// The serial type of an integer (0 and 1 take no bytes: schema format 4) and its bytes.
uint32_t IntegerType(int64_t v) {
  if (v == 0) return 8;
  if (v == 1) return 9;
  if (v >= -128 && v <= 127) return 1;
  if (v >= -32768 && v <= 32767) return 2;
  if (v >= -8388608 && v <= 8388607) return 3;
  if (v >= -2147483648LL && v <= 2147483647LL) return 4;
  if (v >= -140737488355328LL && v <= 140737488355327LL) return 5;
  return 6;
}

uint32_t TypeBytes(uint32_t type) {
  static constexpr uint8_t kBytes[] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0};
  if (type < 12) return kBytes[type];
  return (type - 12) / 2;
}

void PutBigEndian(uint8_t* p, uint64_t v, uint32_t bytes) {
  for (uint32_t i = bytes; i-- > 0; v >>= 8) p[i] = static_cast<uint8_t>(v);
}

// A REAL that a column of INTEGER, NUMERIC or REAL affinity stores as an integer: one with no
// fraction that an int64 holds exactly (SQLite's sqlite3VdbeIntegerAffinity; a REAL column reads
// it back as a REAL).
bool IntegralDouble(double d, int64_t* out) {
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return false;
  auto i = static_cast<int64_t>(d);
  if (static_cast<double>(i) != d) return false;
  *out = i;
  return true;
}

// SQLite's rules for a column's affinity from its declared type, in their order.
// `type` is in upper case.
SqlTableTree::Affinity AffinityOf(const std::string& type) {
  auto has = [&](const char* s) { return type.find(s) != std::string::npos; };
  using A = SqlTableTree::Affinity;
  if (has("INT")) return A::kInteger;
  if (has("CHAR") || has("CLOB") || has("TEXT")) return A::kText;
  if (has("BLOB") || type.empty()) return A::kBlob;
  if (has("REAL") || has("FLOA") || has("DOUB")) return A::kReal;
  return A::kNumeric;
}

std::string SqlError(sqlite3* db, const std::string& what) {
  return fmt::format("database: {}: {}", what, sqlite3_errmsg(db));
}

// Runs `sql` and calls row(stmt) for each row.
template <typename Row>
Status ForEachRow(sqlite3* db, const std::string& sql, Row row) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    return Status(ErrorCode::kIo, SqlError(db, "cannot read the schema"));
  int rc;
  Status st;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW && st.ok()) st = row(stmt);
  sqlite3_finalize(stmt);
  if (st.ok() && rc != SQLITE_DONE && rc != SQLITE_ROW)
    return Status(ErrorCode::kIo, SqlError(db, "cannot read the schema"));
  return st;
}

// 'text' as an SQL string literal.
std::string Quoted(std::string_view text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

std::string ColumnText(sqlite3_stmt* s, int k) {
  const unsigned char* t = sqlite3_column_text(s, k);
  return t ? reinterpret_cast<const char*>(t) : "";
}

}  // namespace

Status SqlTableTree::Append(const SqlBatch& batch) {
  if (!status_.ok()) return status_;
  if (batch.columns != columns())
    return status_ = Status(ErrorCode::kInternal,
                            fmt::format("database table {}: {} values a row for {} columns", name_,
                                        batch.columns, columns()));
  size_t rows = batch.rows();
  for (size_t r = 0; r < rows && status_.ok(); ++r)
    status_ = AddRow(&batch.values[r * static_cast<size_t>(batch.columns)], batch.text);
  return status_;
}

Status SqlTableTree::AddRow(const SqlValue* row, const std::string& text) {
  // The row id: the INTEGER PRIMARY KEY's value, else one past the row before (SQLite's choice
  // for a NULL key, or a table without one, while no row has the largest id).
  int64_t rowid;
  if (rowid_column_ >= 0 && row[rowid_column_].type == SqlValue::Type::kInt) {
    rowid = row[rowid_column_].i;
  } else if (rowid_column_ >= 0 && row[rowid_column_].type != SqlValue::Type::kNull) {
    return Status(ErrorCode::kInternal,
                  fmt::format("database table {}: a row id that is not an integer", name_));
  } else if (!has_rows_) {
    rowid = 1;
  } else if (last_rowid_ == INT64_MAX) {
    return Status(ErrorCode::kInternal, fmt::format("database table {}: no row id left", name_));
  } else {
    rowid = last_rowid_ + 1;
  }
  if (has_rows_ && rowid <= last_rowid_)
    return Status(ErrorCode::kInternal,
                  fmt::format("database table {}: row id {} after {}: rows must come in "
                              "increasing id order",
                              name_, rowid, last_rowid_));

  // The record: a header of serial types, then the values (fileformat2.html, "Record Format").
  uint32_t types[kSqlBatchColumns];
  int64_t ints[kSqlBatchColumns];
  uint64_t header = 0, body = 0;
  int n = columns();
  for (int c = 0; c < n; ++c) {
    const SqlValue& v = row[c];
    Affinity a = affinity_[c];
    uint32_t type = 0;  // NULL: the key's own column too, whose value is the row id
    if (c == rowid_column_ || v.type == SqlValue::Type::kNull) {
      type = 0;
    } else if (v.type == SqlValue::Type::kInt) {
      if (a == Affinity::kText)
        return Status(ErrorCode::kInternal,
                      fmt::format("database table {}: a number for TEXT column {}", name_, c));
      ints[c] = v.i;
      type = IntegerType(v.i);  // in a REAL column too: SQLite reads it back as a REAL
    } else if (v.type == SqlValue::Type::kReal) {
      if (a == Affinity::kText)
        return Status(ErrorCode::kInternal,
                      fmt::format("database table {}: a number for TEXT column {}", name_, c));
      int64_t i;
      if (std::isnan(v.d))
        type = 0;  // SQLite stores a NaN as NULL
      else if (a != Affinity::kBlob && IntegralDouble(v.d, &i))
        type = IntegerType(ints[c] = i);  // SQLite's too, for REAL columns (-0.0 becomes 0)
      else
        type = 7;
    } else {
      if (a != Affinity::kText && a != Affinity::kBlob)
        return Status(ErrorCode::kInternal,
                      fmt::format("database table {}: a text for numeric column {}", name_, c));
      type = 2 * v.size + 13;
    }
    types[c] = type;
    header += static_cast<uint64_t>(VarintLength(type));
    body += TypeBytes(type);
  }
  header += header + 1 <= 0x7f ? 1 : VarintLength(header + 2);
  uint64_t payload = header + body;
  if (payload > 0x7fffffff)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("database table {}: a row of {} bytes, more than SQLite's 2 GiB",
                              name_, payload));
  record_.resize(payload);
  uint8_t* p = record_.data();
  p += PutVarint(p, header);
  for (int c = 0; c < n; ++c) p += PutVarint(p, types[c]);
  for (int c = 0; c < n; ++c) {
    uint32_t type = types[c];
    if (type == 0 || type == 8 || type == 9) continue;
    const SqlValue& v = row[c];
    if (type == 7) {
      double d = v.d;
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      PutBigEndian(p, bits, 8);
      p += 8;
    } else if (type < 12) {
      uint32_t bytes = TypeBytes(type);
      PutBigEndian(p, static_cast<uint64_t>(ints[c]), bytes);
      p += bytes;
    } else if (v.size) {
      std::memcpy(p, text.data() + v.i, v.size);
      p += v.size;
    }
  }
  for (SqlIndexTree* index : file_->KeepEntries(indexes_.size()) ? indexes_ : kNoIndexes) {
    int c = index->column_;
    if (c == rowid_column_) {
      index->entries_.push_back({rowid, rowid});
    } else if (types[c] == 0) {
      index->null_rows_.push_back(rowid);
    } else if (types[c] <= 6 || types[c] == 8 || types[c] == 9) {
      index->entries_.push_back({ints[c], rowid});
    } else {
      return Status(ErrorCode::kInternal,
                    fmt::format("database index {}: a value that is not an integer", index->name_));
    }
  }
  PROFANA_RETURN_IF_ERROR(AddCell(rowid));
  last_rowid_ = rowid;
  has_rows_ = true;
  return Status::Ok();
}

Status SqlTableTree::AddCell(int64_t rowid) {
  // How much of the record the leaf holds; the rest goes to overflow pages (fileformat2.html,
  // "B-tree Pages").
  const uint32_t u = file_->usable();
  const uint64_t payload = record_.size();
  const uint64_t max_local = u - 35;
  uint64_t local = payload;
  if (payload > max_local) {
    uint64_t min_local = (static_cast<uint64_t>(u) - 12) * 32 / 255 - 23;
    uint64_t k = min_local + (payload - min_local) % (u - 4);
    local = k <= max_local ? k : min_local;
  }
  uint32_t first_overflow = 0;
  if (local < payload) {
    std::vector<uint8_t>& page = overflow_;
    page.resize(file_->page_size_);
    uint64_t at = local;
    uint32_t next = file_->NextPage(file_->pages_);  // the first overflow page's number
    while (at < payload) {
      uint64_t chunk = std::min<uint64_t>(payload - at, u - 4);
      next = file_->NextPage(next);
      Put32(page.data(), at + chunk < payload ? next : 0);
      std::memcpy(page.data() + 4, record_.data() + at, chunk);
      std::memset(page.data() + 4 + chunk, 0, file_->page_size_ - 4 - chunk);
      PROFANA_ASSIGN_OR_RETURN(uint32_t written, file_->Append(page.data()));
      if (!first_overflow) first_overflow = written;
      at += chunk;
    }
  }
  uint32_t size =
      static_cast<uint32_t>(VarintLength(payload) + VarintLength(static_cast<uint64_t>(rowid)) +
                            local + (first_overflow ? 4 : 0));
  size = std::max<uint32_t>(size, 4);  // SQLite's smallest cell
  if (size + 2 > content_ - (kLeafHeader + 2 * cells_)) {
    PROFANA_RETURN_IF_ERROR(FlushLeaf());
    StartLeaf();
  }
  content_ -= size;
  uint8_t* c = leaf_.data() + content_;
  c += PutVarint(c, payload);
  c += PutVarint(c, static_cast<uint64_t>(rowid));
  std::memcpy(c, record_.data(), local);
  if (first_overflow) Put32(c + local, first_overflow);
  Put16(leaf_.data() + kLeafHeader + 2 * cells_, content_);
  ++cells_;
  return Status::Ok();
}

void SqlTableTree::StartLeaf() {
  std::memset(leaf_.data(), 0, leaf_.size());
  cells_ = 0;
  content_ = file_->usable();
}

// The leaf being filled, its header completed.
const uint8_t* SqlTableTree::ClosedLeaf() {
  uint8_t* h = leaf_.data();
  h[0] = kTableLeaf;
  Put16(h + 3, cells_);
  Put16(h + 5, content_ & 0xffff);  // 65,536 is written 0
  return h;
}

// Appends the leaf being filled.
Status SqlTableTree::FlushLeaf() {
  PROFANA_ASSIGN_OR_RETURN(uint32_t page, file_->Append(ClosedLeaf()));
  leaves_.push_back({page, last_rowid_});
  return Status::Ok();
}

Status SqlTableTree::Finish() {
  PROFANA_RETURN_IF_ERROR(status_);
  if (leaves_.empty()) return file_->WriteAt(root_, ClosedLeaf());  // one leaf, or none: the root
  PROFANA_RETURN_IF_ERROR(FlushLeaf());
  // Interior levels, each a page per run of children that fits: a cell (child page, its largest
  // row id) for each but the last, which is the page's right-most pointer.
  const uint32_t u = file_->usable();
  std::vector<Child> level = std::move(leaves_);
  std::vector<uint8_t> page(file_->page_size_);
  for (;;) {
    std::vector<size_t> ends;
    for (size_t i = 0; i < level.size();) {
      size_t used = kInteriorHeader, j = i + 1;
      for (; j < level.size(); ++j) {
        size_t cell =
            4 + static_cast<size_t>(VarintLength(static_cast<uint64_t>(level[j - 1].max_rowid)));
        if (used + cell + 2 > u) break;
        used += cell + 2;
      }
      ends.push_back(j);
      i = j;
    }
    // A last page of one child takes one from the page before, which has hundreds.
    if (ends.size() > 1 && ends[ends.size() - 1] - ends[ends.size() - 2] == 1)
      --ends[ends.size() - 2];
    bool top = ends.size() == 1;
    std::vector<Child> up;
    size_t begin = 0;
    for (size_t end : ends) {
      std::fill(page.begin(), page.end(), 0);
      uint32_t content = u;
      uint32_t cells = static_cast<uint32_t>(end - begin - 1);
      for (size_t k = begin; k + 1 < end; ++k) {
        uint64_t key = static_cast<uint64_t>(level[k].max_rowid);
        content -= static_cast<uint32_t>(4 + VarintLength(key));
        Put32(page.data() + content, level[k].page);
        PutVarint(page.data() + content + 4, key);
        Put16(page.data() + kInteriorHeader + 2 * (k - begin), content);
      }
      page[0] = kTableInterior;
      Put16(page.data() + 3, cells);
      Put16(page.data() + 5, content & 0xffff);
      Put32(page.data() + 8, level[end - 1].page);
      if (top) return file_->WriteAt(root_, page.data());
      PROFANA_ASSIGN_OR_RETURN(uint32_t written, file_->Append(page.data()));
      up.push_back({written, level[end - 1].max_rowid});
      begin = end;
    }
    level = std::move(up);
  }
}

uint32_t SqlIndexTree::Record(size_t i, uint8_t* out) const {
  bool null = i < null_rows_.size();
  const Entry e = null ? Entry{0, null_rows_[i]} : entries_[i - null_rows_.size()];
  uint32_t key_type = null ? 0 : IntegerType(e.key);
  uint32_t rowid_type = IntegerType(e.rowid);
  out[0] = 3;  // the header's bytes: its size and two serial types of one byte each
  out[1] = static_cast<uint8_t>(key_type);
  out[2] = static_cast<uint8_t>(rowid_type);
  uint32_t n = 3;
  if (!null) {
    PutBigEndian(out + n, static_cast<uint64_t>(e.key), TypeBytes(key_type));
    n += TypeBytes(key_type);
  }
  PutBigEndian(out + n, static_cast<uint64_t>(e.rowid), TypeBytes(rowid_type));
  return n + TypeBytes(rowid_type);
}

// Entries are records of (value, row id) in that order, NULLs first (fileformat2.html, "Index
// B-Trees"). Built bottom up: leaves filled in order, the entry after each full leaf lifted into
// the level above as the divider between it and the next; every entry is in the tree once.
Status SqlIndexTree::Finish() {
  if (file_->dropped_) {  // an empty leaf
    std::vector<uint8_t> page(file_->page_size_, 0);
    page[0] = kIndexLeaf;
    Put16(page.data() + 5, file_->usable() & 0xffff);
    return file_->WriteAt(root_, page.data());
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.key != b.key ? a.key < b.key : a.rowid < b.rowid;
  });
  if (unique_)
    for (size_t i = 1; i < entries_.size(); ++i)
      if (entries_[i].key == entries_[i - 1].key)
        return Status(ErrorCode::kInternal,
                      fmt::format("database index {}: UNIQUE constraint failed: {} twice", name_,
                                  entries_[i].key));
  const size_t n = null_rows_.size() + entries_.size();
  const uint32_t u = file_->usable();
  std::vector<uint8_t> page(file_->page_size_);
  uint8_t record[32];
  auto cell_size = [&](size_t i) { return 1 + Record(i, record); };  // a varint of < 128

  // The leaves: ranges of entries, and the entry between each two.
  struct Range {
    size_t begin, end;
  };
  std::vector<Range> leaves;
  std::vector<size_t> dividers;
  for (size_t i = 0; i < n;) {
    size_t used = kLeafHeader, j = i;
    while (j < n && used + cell_size(j) + 2 <= u) used += cell_size(j++) + 2;
    leaves.push_back({i, j});
    if (j >= n) break;
    dividers.push_back(j);
    i = j + 1;
    if (i == n) {  // the divider has nothing after it: the leaf before gives up its last entry
      leaves.back().end = j - 1;
      dividers.back() = j - 1;
      leaves.push_back({j, n});
    }
  }
  if (leaves.empty()) leaves.push_back({0, 0});
  // A page of cells from the end; `child[k]` precedes cell k in an interior page.
  auto write = [&](uint8_t type, const size_t* cells, size_t count, const uint32_t* child,
                   uint32_t right, bool root) -> Result<uint32_t> {
    std::fill(page.begin(), page.end(), 0);
    uint32_t header = type == kIndexLeaf ? kLeafHeader : kInteriorHeader;
    uint32_t content = u;
    for (size_t k = 0; k < count; ++k) {
      uint32_t size = Record(cells[k], record);
      uint32_t cell = (child ? 4 : 0) + 1 + size;
      content -= cell;
      uint8_t* p = page.data() + content;
      if (child) {
        Put32(p, child[k]);
        p += 4;
      }
      p[0] = static_cast<uint8_t>(size);
      std::memcpy(p + 1, record, size);
      Put16(page.data() + header + 2 * k, content);
    }
    page[0] = type;
    Put16(page.data() + 3, static_cast<uint32_t>(count));
    Put16(page.data() + 5, content & 0xffff);
    if (type == kIndexInterior) Put32(page.data() + 8, right);
    if (root) {
      PROFANA_RETURN_IF_ERROR(file_->WriteAt(root_, page.data()));
      return root_;
    }
    return file_->Append(page.data());
  };
  std::vector<size_t> cells;
  std::vector<uint32_t> children;
  for (const Range& r : leaves) {
    cells.clear();
    for (size_t i = r.begin; i < r.end; ++i) cells.push_back(i);
    PROFANA_ASSIGN_OR_RETURN(uint32_t written, write(kIndexLeaf, cells.data(), cells.size(),
                                                     nullptr, 0, leaves.size() == 1));
    children.push_back(written);
  }
  // Interior levels: a page takes children k .. j with the dividers between them as cells (each
  // with the child before it), child j is its right-most pointer, and divider j goes up.
  std::vector<uint32_t> lefts;
  while (children.size() > 1) {
    const size_t m = children.size();
    struct Node {
      size_t begin, end;  // children begin .. end, end the right-most
    };
    std::vector<Node> nodes;
    std::vector<size_t> up_dividers;
    for (size_t k = 0; k < m;) {
      size_t used = kInteriorHeader, j = k;
      while (j + 1 < m && used + 4 + cell_size(dividers[j]) + 2 <= u)
        used += 4 + cell_size(dividers[j++]) + 2;
      nodes.push_back({k, j});
      if (j + 1 >= m) break;
      up_dividers.push_back(dividers[j]);
      k = j + 1;
      if (k == m - 1) {  // a last page of one child takes a child from the page before
        nodes.back().end = j - 1;
        up_dividers.back() = dividers[j - 1];
        nodes.push_back({j, m - 1});
        break;
      }
    }
    std::vector<uint32_t> up;
    for (const Node& node : nodes) {
      cells.assign(dividers.begin() + static_cast<std::ptrdiff_t>(node.begin),
                   dividers.begin() + static_cast<std::ptrdiff_t>(node.end));
      lefts.assign(children.begin() + static_cast<std::ptrdiff_t>(node.begin),
                   children.begin() + static_cast<std::ptrdiff_t>(node.end));
      PROFANA_ASSIGN_OR_RETURN(uint32_t written,
                               write(kIndexInterior, cells.data(), cells.size(), lefts.data(),
                                     children[node.end], nodes.size() == 1));
      up.push_back(written);
    }
    children = std::move(up);
    dividers = std::move(up_dividers);
  }
  std::vector<Entry>().swap(entries_);
  std::vector<int64_t>().swap(null_rows_);
  return Status::Ok();
}

Result<std::unique_ptr<SqlPageFile>> SqlPageFile::Open(sqlite3* db, const std::string& path,
                                                       const std::string& shown,
                                                       size_t entry_budget) {
  std::unique_ptr<SqlPageFile> f(new SqlPageFile());
  f->path_ = shown;
  f->entry_budget_ = entry_budget;
  int64_t page_size = 0, pages = 0;
  PROFANA_RETURN_IF_ERROR(ForEachRow(db, "PRAGMA page_size", [&](sqlite3_stmt* s) {
    page_size = sqlite3_column_int64(s, 0);
    return Status::Ok();
  }));
  PROFANA_RETURN_IF_ERROR(ForEachRow(db, "PRAGMA page_count", [&](sqlite3_stmt* s) {
    pages = sqlite3_column_int64(s, 0);
    return Status::Ok();
  }));
  if (page_size < 512 || page_size > 65536 || pages < 1 || pages > kMaxPages)
    return Status(ErrorCode::kInternal,
                  fmt::format("{}: a database of {} pages of {} bytes", shown, pages, page_size));
  f->page_size_ = static_cast<uint32_t>(page_size);
  f->pages_ = static_cast<uint32_t>(pages);
  f->lock_page_ = static_cast<uint32_t>((uint64_t{1} << 30) / f->page_size_ + 1);

  std::vector<std::string> index_tables;
  PROFANA_RETURN_IF_ERROR(ForEachRow(
      db,
      "SELECT type, name, tbl_name, rootpage FROM sqlite_schema WHERE type IN ('table', 'index')",
      [&](sqlite3_stmt* s) -> Status {
        std::string type = ColumnText(s, 0), name = ColumnText(s, 1);
        auto root = static_cast<uint32_t>(sqlite3_column_int64(s, 3));
        if (type == "index") {
          auto x = std::make_unique<SqlIndexTree>();
          x->file_ = f.get();
          x->name_ = name;
          x->root_ = root;
          f->indexes_.push_back(std::move(x));
          index_tables.push_back(ColumnText(s, 2));
          return Status::Ok();
        }
        if (root == 0)
          return Status(ErrorCode::kInternal,
                        fmt::format("database table {}: a virtual table has no pages", name));
        auto t = std::make_unique<SqlTableTree>();
        t->file_ = f.get();
        t->name_ = name;
        t->root_ = root;
        f->tables_.push_back(std::move(t));
        return Status::Ok();
      }));
  PROFANA_RETURN_IF_ERROR(ForEachRow(
      db, "SELECT name FROM pragma_table_list WHERE schema = 'main' AND wr", [&](sqlite3_stmt* s) {
        return Status(ErrorCode::kInternal,
                      fmt::format("database table {}: a table WITHOUT ROWID is an index B-tree",
                                  ColumnText(s, 0)));
      }));
  for (auto& t : f->tables_) {
    int keys = 0, key = -1;
    bool integer_key = false;
    PROFANA_RETURN_IF_ERROR(ForEachRow(
        db, "SELECT type, pk FROM pragma_table_info(" + Quoted(t->name_) + ") ORDER BY cid",
        [&](sqlite3_stmt* s) {
          std::string type = ColumnText(s, 0);
          for (char& c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
          if (sqlite3_column_int(s, 1) > 0) {
            ++keys;
            key = t->columns();
            integer_key = type == "INTEGER";
          }
          t->affinity_.push_back(AffinityOf(type));
          return Status::Ok();
        }));
    if (t->columns() == 0 || t->columns() > kSqlBatchColumns)
      return Status(ErrorCode::kInternal,
                    fmt::format("database table {}: {} columns, more than a batch holds ({})",
                                t->name_, t->columns(), kSqlBatchColumns));
    // One INTEGER PRIMARY KEY is the row id (a key of any other kind has an index, refused above).
    if (keys == 1 && integer_key) t->rowid_column_ = key;
    t->leaf_.assign(f->page_size_, 0);
  }
  for (size_t k = 0; k < f->indexes_.size(); ++k) {
    SqlIndexTree& x = *f->indexes_[k];
    SqlTableTree* t = f->Table(index_tables[k]);
    int keys = 0;
    bool plain = t != nullptr;  // ascending, on a column, of every row
    PROFANA_RETURN_IF_ERROR(ForEachRow(
        db, "SELECT cid, desc FROM pragma_index_xinfo(" + Quoted(x.name_) + ") WHERE key",
        [&](sqlite3_stmt* s) {
          ++keys;
          x.column_ = sqlite3_column_int(s, 0);
          plain = plain && x.column_ >= 0 && sqlite3_column_int(s, 1) == 0;
          return Status::Ok();
        }));
    PROFANA_RETURN_IF_ERROR(ForEachRow(db,
                                       "SELECT \"unique\", partial FROM pragma_index_list(" +
                                           Quoted(index_tables[k]) +
                                           ") WHERE name = " + Quoted(x.name_),
                                       [&](sqlite3_stmt* s) {
                                         x.unique_ = sqlite3_column_int(s, 0) != 0;
                                         plain = plain && sqlite3_column_int(s, 1) == 0;
                                         return Status::Ok();
                                       }));
    if (keys != 1 || !plain || x.column_ >= t->columns() ||
        t->affinity_[x.column_] != SqlTableTree::Affinity::kInteger)
      return Status(ErrorCode::kInternal,
                    fmt::format("database: index {} before the rows: only an index of one "
                                "INTEGER column is written with them",
                                x.name_));
    t->indexes_.push_back(&x);
  }

  f->fd_ = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (f->fd_ < 0) return f->Fail("cannot open", errno);
  uint8_t header[100];
  if (pread(f->fd_, header, sizeof header, 0) != static_cast<ssize_t>(sizeof header))
    return f->Fail("cannot read the header", errno);
  struct stat st {};
  if (fstat(f->fd_, &st) != 0) return f->Fail("cannot read the header", errno);
  if (static_cast<uint64_t>(st.st_size) != uint64_t{f->pages_} * f->page_size_ ||
      header[20] > f->page_size_ - 480 || Get32(header + 52) != 0 || Get32(header + 56) != 1)
    return Status(ErrorCode::kInternal,
                  fmt::format("{}: not the database SQLite was asked to make", shown));
  f->usable_ = f->page_size_ - header[20];
  for (auto& t : f->tables_) t->StartLeaf();
  f->buffer_.reserve(kFlushBytes + f->page_size_);
  return f;
}

SqlPageFile::~SqlPageFile() {
  if (fd_ >= 0) close(fd_);
}

SqlTableTree* SqlPageFile::Table(std::string_view name) {
  for (auto& t : tables_)
    if (t->name_ == name) return t.get();
  return nullptr;
}

bool SqlPageFile::KeepEntries(size_t n) {
  if (dropped_) return false;
  entries_ += n;
  if (entries_ <= entry_budget_) return true;
  dropped_ = true;
  for (auto& x : indexes_) {
    std::vector<SqlIndexTree::Entry>().swap(x->entries_);
    std::vector<int64_t>().swap(x->null_rows_);
  }
  return false;
}

std::vector<std::string> SqlPageFile::ToRebuild() const {
  std::vector<std::string> names;
  if (dropped_)
    for (const auto& x : indexes_) names.push_back(x->name_);
  return names;
}

Status SqlPageFile::Fail(const char* what, int error) {
  if (status_.ok())
    status_ = Status(ErrorCode::kIo, fmt::format("{}: {}: {}", path_, what, std::strerror(error)));
  return status_;
}

Result<uint32_t> SqlPageFile::Append(const uint8_t* page) {
  PROFANA_RETURN_IF_ERROR(status_);
  if (pages_ >= kMaxPages)
    return status_ = Status(ErrorCode::kTooLarge,
                            fmt::format("{}: more than SQLite's {} pages", path_, kMaxPages));
  if (buffer_.empty()) buffered_first_ = pages_ + 1;
  if (pages_ + 1 == lock_page_) {
    buffer_.resize(buffer_.size() + page_size_, 0);
    ++pages_;
  }
  buffer_.insert(buffer_.end(), page, page + page_size_);
  ++pages_;
  if (buffer_.size() >= kFlushBytes) PROFANA_RETURN_IF_ERROR(Flush());
  return pages_;
}

Status SqlPageFile::WriteBytes(uint64_t offset, const uint8_t* bytes, size_t size) {
  for (size_t done = 0; done < size;) {
    ssize_t n = pwrite(fd_, bytes + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Fail("write failed", n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status SqlPageFile::Flush() {
  PROFANA_RETURN_IF_ERROR(
      WriteBytes(uint64_t{buffered_first_ - 1} * page_size_, buffer_.data(), buffer_.size()));
  buffer_.clear();
  return Status::Ok();
}

Status SqlPageFile::WriteAt(uint32_t number, const uint8_t* page) {
  PROFANA_RETURN_IF_ERROR(status_);
  return WriteBytes(uint64_t{number - 1} * page_size_, page, page_size_);
}

Status SqlPageFile::Finish() {
  for (auto& t : tables_)
    if (status_.ok()) {
      Status st = t->Finish();
      if (!st.ok() && status_.ok()) status_ = st;
    }
  for (auto& x : indexes_)
    if (status_.ok()) {
      Status st = x->Finish();
      if (!st.ok() && status_.ok()) status_ = st;
    }
  if (status_.ok()) static_cast<void>(Flush());
  if (status_.ok()) {
    // The header: the change counter moves on, and the size it gives is valid for that count.
    uint8_t header[100];
    if (pread(fd_, header, sizeof header, 0) != static_cast<ssize_t>(sizeof header)) {
      static_cast<void>(Fail("cannot read the header", errno));
    } else {
      uint32_t counter = Get32(header + 24) + 1;
      Put32(header + 24, counter);
      Put32(header + 28, pages_);
      Put32(header + 92, counter);
      static_cast<void>(WriteBytes(0, header, sizeof header));
    }
  }
  if (fd_ >= 0) {
    int closed = close(fd_);
    fd_ = -1;
    if (closed != 0) static_cast<void>(Fail("write failed", errno));
  }
  return status_;
}

}  // namespace profana::report
