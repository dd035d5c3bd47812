#include "profana/reporters/sql/sql_schema.h"

namespace profana::report {

// The tables: docs/sql.md describes every column (a test checks that it names each one).
// Columns are in the order the writer binds them.
const char* SqlTablesDdl() {
  return R"sql(
CREATE TABLE trace_info (rank INTEGER NOT NULL, key TEXT NOT NULL, value);
CREATE TABLE rank (
  rank INTEGER PRIMARY KEY, file TEXT, format TEXT, producer TEXT, world_size INTEGER,
  backend TEXT, origin_ns INTEGER, start_ns INTEGER, end_ns INTEGER);
CREATE TABLE thread (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, pid, tid, name TEXT, process_name TEXT);
CREATE TABLE op (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  trace_name TEXT, thread INTEGER, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  dur_ns INTEGER NOT NULL, self_ns INTEGER, device_total_ns INTEGER, self_device_ns INTEGER,
  cpu_memory INTEGER, self_cpu_memory INTEGER, device_memory INTEGER, self_device_memory INTEGER,
  parent_id INTEGER, depth INTEGER, step INTEGER, seq INTEGER, input_shapes TEXT,
  input_types TEXT, stack_id INTEGER, module TEXT, sequence_nr INTEGER, fwd_thread INTEGER,
  external_id INTEGER, is_async INTEGER, is_backward INTEGER, flops INTEGER);
CREATE TABLE runtime (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  thread INTEGER, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, dur_ns INTEGER NOT NULL,
  self_ns INTEGER, device_total_ns INTEGER, self_device_ns INTEGER, cpu_memory INTEGER,
  self_cpu_memory INTEGER, device_memory INTEGER, self_device_memory INTEGER, op_id INTEGER,
  correlation INTEGER, external_id INTEGER, step INTEGER, seq INTEGER);
CREATE TABLE kernel (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, name TEXT NOT NULL, short_name TEXT NOT NULL,
  device INTEGER, stream, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  dur_ns INTEGER NOT NULL, grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, block_x INTEGER,
  block_y INTEGER, block_z INTEGER, registers INTEGER, shared_memory INTEGER,
  blocks_per_sm REAL, warps_per_sm REAL, occupancy REAL, flops INTEGER, op_id INTEGER,
  link TEXT NOT NULL, runtime_id INTEGER, correlation INTEGER, external_id INTEGER,
  step INTEGER, seq INTEGER);
CREATE TABLE copy (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  copy_kind TEXT, src_memory TEXT, dst_memory TEXT, bytes INTEGER, bandwidth_gbps REAL,
  device INTEGER, stream, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  dur_ns INTEGER NOT NULL, op_id INTEGER, link TEXT NOT NULL, runtime_id INTEGER,
  correlation INTEGER, external_id INTEGER, step INTEGER, seq INTEGER);
CREATE TABLE device_range (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  device INTEGER, stream, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  dur_ns INTEGER NOT NULL, device_total_ns INTEGER, correlation INTEGER, step INTEGER,
  seq INTEGER);
CREATE TABLE memory (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, ts_ns INTEGER NOT NULL, thread INTEGER,
  device_type INTEGER, device_id INTEGER, bytes INTEGER NOT NULL, addr INTEGER,
  total_allocated INTEGER, total_reserved INTEGER, op_id INTEGER, category TEXT,
  allocated_ns INTEGER, freed_ns INTEGER, level INTEGER, step INTEGER);
CREATE TABLE stack (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, parent_id INTEGER, frame TEXT NOT NULL,
  depth INTEGER NOT NULL);
CREATE TABLE step (
  rank INTEGER NOT NULL, step INTEGER NOT NULL, start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL, dur_ns INTEGER NOT NULL, host_ns INTEGER, host_untraced_ns INTEGER,
  host_dataloader_ns INTEGER, host_optimizer_ns INTEGER, host_sync_ns INTEGER);
CREATE TABLE step_device (
  rank INTEGER NOT NULL, step INTEGER NOT NULL, device INTEGER, compute_ns INTEGER,
  comm_exposed_ns INTEGER, memory_exposed_ns INTEGER, idle_ns INTEGER, comm_ns INTEGER,
  comm_hidden_ns INTEGER);
CREATE TABLE collective (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, kind TEXT NOT NULL, label TEXT,
  group_name TEXT, group_size INTEGER, sequence INTEGER NOT NULL, bytes INTEGER, dtype TEXT,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, dur_ns INTEGER NOT NULL, step INTEGER);
CREATE TABLE idle_interval (
  id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, device INTEGER, stream, start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL, dur_ns INTEGER NOT NULL, cause TEXT NOT NULL, next_id INTEGER,
  op_id INTEGER, step INTEGER);
CREATE TABLE queue_depth (
  rank INTEGER NOT NULL, device INTEGER, stream, ts_ns INTEGER NOT NULL, depth INTEGER NOT NULL);
)sql";
}

// Every PyTorch FunctionEvent, from whichever table holds it, with the times key_averages sums;
// key_averages itself is the GROUP BY over them (EventList.key_averages(): one row per name and
// device type, in the order each key first occurs).
const char* SqlViewsDdl() {
  return R"sql(
CREATE VIEW function_event AS
  SELECT rank, seq, id, 'op' AS source, name, 'CPU' AS device_type, thread, start_ns, end_ns,
         step, dur_ns AS cpu_total_ns, self_ns AS self_cpu_ns, device_total_ns, self_device_ns,
         cpu_memory, self_cpu_memory, device_memory, self_device_memory, parent_id
    FROM op WHERE seq IS NOT NULL
  UNION ALL
  SELECT rank, seq, id, 'runtime', name, 'CPU', thread, start_ns, end_ns, step, dur_ns, self_ns,
         device_total_ns, self_device_ns, cpu_memory, self_cpu_memory, device_memory,
         self_device_memory, op_id
    FROM runtime WHERE seq IS NOT NULL
  UNION ALL
  SELECT rank, seq, id, 'kernel', name, 'CUDA', NULL, start_ns, end_ns, step, 0, 0, dur_ns, dur_ns,
         0, 0, 0, 0, NULL
    FROM kernel WHERE seq IS NOT NULL
  UNION ALL
  SELECT rank, seq, id, 'copy', name, 'CUDA', NULL, start_ns, end_ns, step, 0, 0, dur_ns, dur_ns,
         0, 0, 0, 0, NULL
    FROM copy WHERE seq IS NOT NULL
  UNION ALL
  SELECT rank, seq, id, 'device_range', name, 'CUDA', NULL, start_ns, end_ns, step, 0, 0,
         device_total_ns, device_total_ns, 0, 0, 0, 0, NULL
    FROM device_range WHERE seq IS NOT NULL;
CREATE VIEW key_averages AS
  SELECT name, device_type, COUNT(*) AS count,
         SUM(self_cpu_ns) AS self_cpu_ns, SUM(cpu_total_ns) AS cpu_total_ns,
         SUM(cpu_total_ns) * 1.0 / COUNT(*) AS cpu_avg_ns,
         SUM(self_device_ns) AS self_device_ns, SUM(device_total_ns) AS device_total_ns,
         SUM(device_total_ns) * 1.0 / COUNT(*) AS device_avg_ns,
         SUM(cpu_memory) AS cpu_memory, SUM(self_cpu_memory) AS self_cpu_memory,
         SUM(device_memory) AS device_memory, SUM(self_device_memory) AS self_device_memory
    FROM function_event
    GROUP BY name, device_type
    ORDER BY MIN(rank * 4294967296 + seq);
)sql";
}

// An index built with the rows is a sort of (value, row id) pairs kept as the rows go by
// (sql_page_file.h), where one kept up row by row is a B-tree insert per row and one built after
// them reads every row back. The ids that joins follow from the many side to the one are indexed;
// names are not: on the 1 GB bench trace an index on op(name) took about a second to build, saved
// 0.3 s on a lookup of one name and made a GROUP BY name twice as slow. Nor is kernel(runtime_id):
// a kernel finds its launch by runtime's primary key, and a join from launches to their kernels
// gets an index SQLite builds for the query (docs/sql.md "Indexes").
const char* SqlRowIndexesDdl() {
  return R"sql(
CREATE INDEX op_parent ON op (parent_id);
CREATE INDEX runtime_op ON runtime (op_id);
CREATE INDEX kernel_op ON kernel (op_id);
CREATE INDEX copy_op ON copy (op_id);
CREATE INDEX memory_op ON memory (op_id);
)sql";
}

// A table's key is its row id: step's (rank, step) is a unique index of two columns, which
// SQLite builds after the rows.
const char* SqlIndexesDdl() {
  return R"sql(
CREATE UNIQUE INDEX step_key ON step (rank, step);
)sql";
}

}  // namespace profana::report
