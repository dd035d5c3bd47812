// The string table of a profiler database (nvprof's StringTable, Nsight Systems' StringIds,
// rocmProfileData's and rocpd's string tables), by integer id, as every SQLite importer reads it.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "profana/base/ids.h"
#include "profana/base/status.h"
#include "profana/importers/sqlite/query.h"
#include "profana/model/trace_builder.h"

namespace profana::sqlite {

class StringIds {
 public:
  // Reads every row of `q`, a query of (id, text), interning each text; replaces what was read
  // before. Returns the query's status.
  Status Read(Query& q, TraceBuilder& builder);

  // The string with this id; StringId(0), the empty string, for an id the table does not hold.
  StringId Get(int64_t id) const {
    if (id >= 0 && static_cast<size_t>(id) < dense_.size()) return dense_[id];
    auto it = sparse_.find(id);
    return it == sparse_.end() ? StringId(0) : it->second;
  }

 private:
  std::vector<StringId> dense_;                   // ids as profilers write them: 0, 1, 2, ...
  std::unordered_map<int64_t, StringId> sparse_;  // ids far past the rows read
};

}  // namespace profana::sqlite
