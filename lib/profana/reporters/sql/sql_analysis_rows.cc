// The tables beside the events: [memory] records with the memory replay's answers, the stack
// trie, steps, collectives, and the GPU's idle gaps and queue lengths.
#include <map>
#include <utility>

#include "profana/reporters/sql/sql_rows.h"

namespace profana::report {
namespace {

// Ids of the tables below that are not events (memory, collective, idle_interval) are SQLite's
// rowids, numbered on through the ranks (a NULL id takes the next).

// Every record in the trace's order, with what the replay says of it where it took it in.
Status Memory(const SqlRows& r) {
  const MemoryTable& m = r.trace.memory;
  if (m.size() == 0) return Status::Ok();
  const passes::MemoryTimeline& tl = r.analyses.memory;
  std::vector<uint32_t> position(m.size(), UINT32_MAX);
  for (uint32_t p = 0; p < tl.size(); ++p) position[tl.order[p]] = p;
  auto ts_at = [&](int64_t pos) { return m.ts_ns[tl.order[static_cast<size_t>(pos)]]; };
  SqlInsert s(r.pipe, "memory");
  for (uint32_t i = 0; i < m.size(); ++i) {
    s.Null().Int(r.rank).Int(m.ts_ns[i]).Int(r.ThreadRowId(m.thread[i]));
    s.Int(m.device_type[i]).Int(m.device_id[i]).Int(m.bytes[i]).IntOr(m.addr[i], kNoId);
    s.IntOr(m.total_allocated[i], kNoId).IntOr(m.total_reserved[i], kNoId);
    uint32_t p = position[i];
    if (p == UINT32_MAX) {
      for (int c = 0; c < 5; ++c) s.Null();
    } else {
      tl.op[p].valid() ? s.Int(r.FnRowId(tl.op[p])) : s.Null();
      int32_t b = tl.block[p];
      if (b < 0) {
        s.Null().Null().Null();
      } else {
        const passes::MemoryBlock& block = tl.blocks[static_cast<size_t>(b)];
        s.Text(passes::MemoryCategoryName(block.category));
        // A free names when its block was allocated; an allocation when it was freed.
        bool is_free = static_cast<int64_t>(p) != block.alloc_pos;
        is_free&& block.alloc_pos >= 0 ? s.Int(ts_at(block.alloc_pos)) : s.Null();
        !is_free&& block.free_pos >= 0 ? s.Int(ts_at(block.free_pos)) : s.Null();
      }
      s.Int(tl.level[p]);
    }
    r.Step(s, m.ts_ns[i]);
    s.Row();
  }
  return s.Finish();
}

Status Stacks(const SqlRows& r) {
  const StackTable& st = r.trace.stacks;
  SqlInsert s(r.pipe, "stack");
  for (uint32_t n = 1; n < st.size(); ++n) {
    s.Int(r.stack_base + n).Int(r.rank);
    st.parent[n].value ? s.Int(r.stack_base + st.parent[n].value) : s.Null();
    s.Text(r.trace.str(st.frame[n])).Int(st.depth[n]);
    s.Row();
  }
  return s.Finish();
}

Status Steps(const SqlRows& r) {
  SqlInsert s(r.pipe, "step"), d(r.pipe, "step_device");
  for (const job::StepRow& row : r.analyses.steps) {
    s.Int(r.rank).Int(row.step).Int(row.start_ns).Int(row.start_ns + row.wall_ns).Int(row.wall_ns);
    s.Int(row.host_ns).Int(row.host_untraced_ns).Int(row.host_dataloader_ns);
    s.Int(row.host_optimizer_ns).Int(row.host_sync_ns);
    s.Row();
    for (const job::StepDevice& dev : row.devices) {
      d.Int(r.rank).Int(row.step).IntOr(dev.device, -1).Int(dev.compute_ns);
      d.Int(dev.comm_exposed_ns).Int(dev.memory_exposed_ns).Int(dev.idle_ns).Int(dev.comm_ns);
      d.Int(dev.comm_hidden_ns);
      d.Row();
    }
  }
  Status steps = s.Finish(), devices = d.Finish();
  return steps.ok() ? devices : steps;
}

// Each call's sequence number counts the rank's calls of its process group (of its label where
// the trace names no group), from 0: the n-th call of a group on every rank is one collective.
Status Collectives(const SqlRows& r) {
  SqlInsert s(r.pipe, "collective");
  std::map<std::pair<std::string, std::string>, int64_t> sequence;
  for (const job::CollectiveCall& c : r.analyses.collectives) {
    int64_t n = sequence[{c.group, c.group.empty() ? c.label : std::string()}]++;
    s.Null().Int(r.rank).Text(job::CollectiveKindName(c.kind)).Text(c.label);
    c.group.empty() ? s.Null() : s.Text(c.group);
    s.IntOr(c.group_size, -1).Int(n).IntOr(c.bytes, -1);
    c.dtype.empty() ? s.Null() : s.Text(c.dtype);
    s.Int(c.start_ns).Int(c.end_ns).Int(c.end_ns - c.start_ns);
    r.Step(s, c.start_ns);
    s.Row();
  }
  return s.Finish();
}

void Stream(const SqlRows& r, SqlInsert& s, ThreadId stream) {
  if (!stream.valid() || stream.value >= r.trace.threads.size()) {
    s.Null();
    return;
  }
  const ThreadInfo& th = r.trace.threads[stream.value];
  r.TrackField(s, th.tid, th.tid_text);
}

Status Idle(const SqlRows& r) {
  SqlInsert s(r.pipe, "idle_interval");
  for (const passes::Gap& g : r.analyses.idle.longest) {
    s.Null().Int(r.rank).Int(g.device);
    Stream(r, s, g.stream);
    s.Int(g.start_ns).Int(g.end_ns).Int(g.end_ns - g.start_ns).Text(passes::GapKindName(g.kind));
    s.Int(r.EventRowId(g.next_activity.value));
    g.running_op ? s.Int(r.FnRowId(*g.running_op)) : s.Null();
    r.Step(s, g.start_ns);
    s.Row();
  }
  return s.Finish();
}

Status Queues(const SqlRows& r) {
  SqlInsert s(r.pipe, "queue_depth");
  for (const passes::StreamQueue& q : r.analyses.queues) {
    for (const passes::QueueSample& sample : q.series) {
      s.Int(r.rank).Int(q.device);
      Stream(r, s, q.stream);
      s.Int(sample.ts_ns).Int(sample.length);
      s.Row();
    }
  }
  return s.Finish();
}

}  // namespace

Status WriteAnalysisRows(const SqlRows& r) {
  PROFANA_RETURN_IF_ERROR(Memory(r));
  PROFANA_RETURN_IF_ERROR(Stacks(r));
  PROFANA_RETURN_IF_ERROR(Steps(r));
  PROFANA_RETURN_IF_ERROR(Collectives(r));
  PROFANA_RETURN_IF_ERROR(Idle(r));
  return Queues(r);
}

}  // namespace profana::report
