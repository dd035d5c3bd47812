#include "profana/importers/sqlite/string_ids.h"

#include <algorithm>

namespace profana::sqlite {

Status StringIds::Read(Query& q, TraceBuilder& builder) {
  dense_.clear();
  sparse_.clear();
  while (q.Next()) {
    int64_t id = q.Int(0);
    StringId value = builder.Intern(q.Text(1));
    // A vector indexed by id, unless the id is far beyond the rows read: a damaged or hostile
    // id near 2^63 must not size a vector.
    if (id >= 0 && id < std::max<int64_t>(int64_t{1} << 16, 4 * q.row())) {
      if (static_cast<size_t>(id) >= dense_.size()) dense_.resize(id + 1);
      dense_[id] = value;
    } else {
      sparse_[id] = value;
    }
  }
  return q.status();
}

}  // namespace profana::sqlite
