// What the table writers of SqlDatabaseWriter share for one trace: the trace, its FunctionEvents
// and analyses, and how its rows' ids are numbered in the database. Internal to reporters/sql/.
// It holds the Trace: the tables read its events, memory records, device args, stacks and threads.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/job/trace_analyses.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/reporters/sql/sql_insert.h"

struct sqlite3;

namespace profana::report {

struct SqlRows {
  SqlRows(const Trace& t, const passes::FunctionEventList& e, const job::TraceAnalyses& a)
      : trace(t), events(e), analyses(a) {}

  const Trace& trace;
  const passes::FunctionEventList& events;
  const job::TraceAnalyses& analyses;
  SqlRowPipe* pipe = nullptr;
  int64_t rank = 0;
  // Ids: a trace event's is event_base + its index; a [memory] FunctionEvent (which is no trace
  // event) is numbered after the events, in list order. Threads and stacks have bases of their own.
  int64_t event_base = 0;
  int64_t thread_base = 0;
  int64_t stack_base = 0;

  int64_t EventRowId(uint32_t event) const { return event_base + event; }
  int64_t ThreadRowId(ThreadId thread) const { return thread_base + thread.value; }
  // The id of a FunctionEvent's row.
  int64_t FnRowId(FnEventId fn) const;
  // How many ids the trace takes: its events and its [memory] FunctionEvents.
  int64_t IdsUsed() const {
    return static_cast<int64_t>(trace.events.size() + events.synthetic_row.size());
  }
  // The step whose window holds t, or NULL.
  void Step(SqlInsert& insert, int64_t t) const;
  // A thread's pid or tid as the trace wrote it: the text, or the number.
  void TrackField(SqlInsert& insert, int64_t number, StringId text) const;
};

// op, runtime, kernel, copy and device_range (sql_event_rows.cc).
Status WriteEventRows(const SqlRows& rows);
// memory, stack, step, step_device, collective, idle_interval, queue_depth
// (sql_analysis_rows.cc).
Status WriteAnalysisRows(const SqlRows& rows);

}  // namespace profana::report
