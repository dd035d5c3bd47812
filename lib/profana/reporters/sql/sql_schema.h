// The schema of the SQLite databases profana writes (`profana convert TRACE -o trace.sqlite`,
// `profana sql`), documented in docs/sql.md. Its version is kept in the database twice: PRAGMA
// user_version and trace_info's "schema" key ("profana.database/1"). A change that renames or
// removes a column or changes its meaning is a new major version; added columns and tables are not.
#pragma once

#include <cstdint>

#include "profana/importers/sqlite/database.h"

namespace profana::report {

constexpr int kSqlSchemaVersion = 1;
constexpr const char* kSqlSchemaName = "profana.database/1";
// PRAGMA application_id: "PFSQ", so file(1) and profana tell its databases from other SQLite files.
constexpr int32_t kSqlApplicationId = static_cast<int32_t>(sqlite::kProfanaDatabaseId);

const char* SqlTablesDdl();      // CREATE TABLE statements, run before any row
const char* SqlRowIndexesDdl();  // CREATE INDEX statements whose entries go with the rows
const char* SqlIndexesDdl();     // CREATE INDEX statements, run after the last row
const char* SqlViewsDdl();       // CREATE VIEW statements

}  // namespace profana::report
