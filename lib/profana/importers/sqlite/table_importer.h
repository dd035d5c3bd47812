// What every SQLite importer (Nsight Systems, nvprof, rocmProfileData, rocpd) holds while it reads
// a database table by table: the database, the file's name for messages, the trace it builds and
// the database's string table. Threads are numbered by first use (TraceBuilder), so that a trace
// and its converted JSON list threads and streams alike.
#pragma once

#include <cstdint>
#include <string>

#include "profana/base/ids.h"
#include "profana/base/input_buffer.h"
#include "profana/importers/sqlite/database.h"
#include "profana/importers/sqlite/string_ids.h"
#include "profana/model/trace_builder.h"

namespace profana::sqlite {

class TableImporter {
 protected:
  TableImporter(Database& db, const InputBuffer& input, TraceFormat format)
      : db_(db), file_(input.name) {
    b_.metadata().format = format;
    b_.metadata().input_bytes = input.size;
    b_.NumberThreadsByFirstUse();
  }

  StringId String(int64_t id) const { return strings_.Get(id); }

  Database& db_;
  const std::string& file_;
  TraceBuilder b_;
  StringIds strings_;
};

}  // namespace profana::sqlite
