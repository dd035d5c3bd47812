// The trace's events, each into the table of its kind, in the trace's order; then the [memory]
// FunctionEvents, which are no trace events. A FunctionEvent's row carries PyTorch's times for it
// (EventTimes), the sums key_averages adds up.
#include <algorithm>
#include <string>
#include <unordered_map>

#include "profana/model/activity_device.h"
#include "profana/model/flop_inputs.h"
#include "profana/passes/event_times.h"
#include "profana/passes/flops.h"
#include "profana/passes/kernel_names.h"
#include "profana/reporters/sql/sql_rows.h"

namespace profana::report {
namespace {

using passes::DeviceOwner;
using passes::DeviceType;
using passes::EventTime;
using passes::FunctionEventList;

// Each FunctionEvent's depth in the op tree (0: top level). Parents come before their children
// in list order (the list is sorted by start, then by end descending).
std::vector<uint16_t> Depths(const FunctionEventList& events) {
  std::vector<uint16_t> depth(events.size(), 0);
  for (uint32_t i = 0; i < events.size(); ++i) {
    FnEventId p = events.parent[i];
    if (p.valid() && p.value < i)
      depth[i] = static_cast<uint16_t>(std::min(depth[p.value] + 1, 65535));
  }
  return depth;
}

class EventRowWriter {
 public:
  explicit EventRowWriter(const SqlRows& rows)
      : r_(rows),
        t_(rows.trace),
        ev_(rows.trace.events),
        fe_(rows.events),
        times_(rows.trace, rows.events),
        flops_(rows.trace),
        depth_(Depths(rows.events)),
        fn_of_event_(ev_.size(), UINT32_MAX),
        op_(rows.pipe, "op"),
        runtime_(rows.pipe, "runtime"),
        kernel_(rows.pipe, "kernel"),
        copy_(rows.pipe, "copy"),
        range_(rows.pipe, "device_range") {
    for (uint32_t i = 0; i < fe_.size(); ++i)
      if (fe_.source[i] != passes::kSynthetic) fn_of_event_[fe_.source[i].value] = i;
  }

  Status Write() {
    for (uint32_t e = 0; e < ev_.size(); ++e) {
      ActivityKind kind = ev_.kind[e];
      if (IsRuntimeOrDriver(kind))
        Runtime(e);
      else if (kind == ActivityKind::kKernel)
        Kernel(e);
      else if (kind == ActivityKind::kMemcpy || kind == ActivityKind::kMemset)
        Copy(e);
      else if (IsDeviceActivity(kind))
        Range(e);
      else
        Op(e);
    }
    for (size_t k = 0; k < fe_.synthetic_row.size(); ++k) MemoryEvent(k);
    for (SqlInsert* insert : {&op_, &runtime_, &kernel_, &copy_, &range_})
      PROFANA_RETURN_IF_ERROR(insert->Finish());
    return Status::Ok();
  }

 private:
  std::string_view Str(StringId id) const { return t_.str(id); }

  // The FunctionEvent's sums: self time, device totals and memory (NULLs for an event that is
  // not one).
  void Times(SqlInsert& s, uint32_t fn) {
    if (fn == UINT32_MAX) {
      for (int k = 0; k < 7; ++k) s.Null();
      return;
    }
    EventTime time;
    times_.Exact(fn, &time);
    s.Int(time.self_cpu_ns).Int(time.cuda_total_ns).Int(time.self_cuda_ns);
    s.Int(fe_.CpuMemory(fn)).Int(time.self_cpu_memory);
    s.Int(fe_.CudaMemory(fn)).Int(time.self_cuda_memory);
  }

  void Parent(SqlInsert& s, uint32_t fn) {
    if (fn != UINT32_MAX && fe_.parent[fn].valid())
      s.Int(r_.FnRowId(fe_.parent[fn]));
    else
      s.Null();
  }

  void Interval(SqlInsert& s, uint32_t e) {
    s.Int(ev_.start_ns[e]).Int(ev_.end_ns[e]).Int(ev_.end_ns[e] - ev_.start_ns[e]);
  }

  void Seq(SqlInsert& s, uint32_t fn) { fn == UINT32_MAX ? s.Null() : s.Int(fn); }

  void Op(uint32_t e) {
    uint32_t fn = fn_of_event_[e];
    SqlInsert& s = op_;
    s.Int(r_.EventRowId(e)).Int(r_.rank).Text(ActivityKindName(ev_.kind[e])).Text(Str(ev_.name[e]));
    ev_.trace_name[e] != ev_.name[e] ? s.Text(Str(ev_.trace_name[e])) : s.Null();
    s.Int(r_.ThreadRowId(ev_.thread[e]));
    Interval(s, e);
    Times(s, fn);
    Parent(s, fn);
    fn == UINT32_MAX ? s.Null() : s.Int(depth_[fn]);
    r_.Step(s, ev_.start_ns[e]);
    Seq(s, fn);
    ev_.input_shapes[e].value ? s.Text(Str(ev_.input_shapes[e])) : s.Null();
    // The model keeps "Input type" (with the inputs of PyTorch's FLOP formulas) for the ops
    // PyTorch counts FLOPs for only.
    StringId flop_inputs = ev_.flop_inputs[e];
    std::string_view types =
        flop_inputs.value ? SplitFlopInputs(Str(flop_inputs)).types : std::string_view();
    types.empty() ? s.Null() : s.Text(types);
    StackId stack = fn != UINT32_MAX ? fe_.stack[fn] : ev_.stack[e];
    stack.value ? s.Int(r_.stack_base + stack.value) : s.Null();
    s.Null();  // module: not in the model
    s.IntOr(ev_.sequence_nr[e], -1).IntOr(ev_.fwd_thread[e], 0).IntOr(ev_.external_id[e], kNoId);
    if (fn == UINT32_MAX)
      s.Null().Null();
    else
      s.Int(fe_.IsAsync(fn) ? 1 : 0).Int(fe_.scope[fn] == 1 ? 1 : 0);
    // PyTorch's count, where the op is one it counts and its inputs were recorded.
    flop_inputs.value ? s.Int(static_cast<int64_t>(flops_.Of(EventId(e)))) : s.Null();
    s.Row();
  }

  // A [memory] FunctionEvent: the record's instant, its bytes as the event's memory.
  void MemoryEvent(size_t k) {
    uint32_t fn = fe_.synthetic_row[k].value;
    uint32_t record = fe_.synthetic_record[k];
    const MemoryTable& m = t_.memory;
    SqlInsert& s = op_;
    s.Int(r_.event_base + static_cast<int64_t>(ev_.size() + k)).Int(r_.rank).Text("memory");
    s.Text(Str(fe_.name[fn])).Null().Int(r_.ThreadRowId(m.thread[record]));
    s.Int(m.ts_ns[record]).Int(m.ts_ns[record]).Int(0);
    Times(s, fn);
    Parent(s, fn);
    s.Int(depth_[fn]);
    r_.Step(s, m.ts_ns[record]);
    s.Int(fn);
    for (int c = 0; c < 10; ++c) s.Null();  // shapes .. flops: a record has none
    s.Row();
  }

  void Runtime(uint32_t e) {
    uint32_t fn = fn_of_event_[e];
    SqlInsert& s = runtime_;
    s.Int(r_.EventRowId(e)).Int(r_.rank);
    s.Text(ev_.kind[e] == ActivityKind::kDriver ? "driver" : "runtime").Text(Str(ev_.name[e]));
    s.Int(r_.ThreadRowId(ev_.thread[e]));
    Interval(s, e);
    Times(s, fn);
    Parent(s, fn);
    s.IntOr(ev_.correlation[e], kNoId).IntOr(ev_.external_id[e], kNoId);
    r_.Step(s, ev_.start_ns[e]);
    Seq(s, fn);
    s.Row();
  }

  // device, stream and the interval: what every device row starts with.
  void Track(SqlInsert& s, uint32_t e) {
    s.Int(ActivityDevice(t_, e));
    const ThreadInfo& th = t_.threads[ev_.thread[e].value];
    r_.TrackField(s, th.tid, th.tid_text);
    Interval(s, e);
  }

  // op_id, link, runtime_id, correlation, external_id, step, seq.
  void Launch(SqlInsert& s, uint32_t e) {
    const DeviceOwner& owner = r_.analyses.owners[e];
    owner.op.valid() ? s.Int(r_.FnRowId(owner.op)) : s.Null();
    s.Text(passes::LinkKindName(owner.link));
    std::optional<EventId> launch = r_.analyses.launches->Launch(ev_.correlation[e]);
    launch ? s.Int(r_.EventRowId(launch->value)) : s.Null();
    s.IntOr(ev_.correlation[e], kNoId).IntOr(ev_.external_id[e], kNoId);
    r_.Step(s, ev_.start_ns[e]);
    Seq(s, fn_of_event_[e]);
  }

  std::string_view ShortName(StringId name) {
    auto [it, added] = short_names_.try_emplace(name.value);
    if (added) it->second = passes::ShortKernelName(Str(name));
    return it->second;
  }

  void Kernel(uint32_t e) {
    SqlInsert& s = kernel_;
    s.Int(r_.EventRowId(e)).Int(r_.rank).Text(Str(ev_.name[e])).Text(ShortName(ev_.name[e]));
    Track(s, e);
    uint32_t row = ev_.device_args[e];
    if (row == kNoDeviceArgs) {
      for (int c = 0; c < 11; ++c) s.Null();
    } else {
      const DeviceArgsTable& a = t_.device_args;
      for (const Column<int32_t>* c : {&a.grid_x, &a.grid_y, &a.grid_z, &a.block_x, &a.block_y,
                                       &a.block_z, &a.registers, &a.shared_memory})
        s.IntOr((*c)[row], -1);
      for (const Column<double>* c : {&a.blocks_per_sm, &a.warps_per_sm, &a.occupancy})
        (*c)[row] < 0 ? s.Null() : s.Real((*c)[row]);
    }
    s.Null();  // flops: PyTorch counts an op's, not a kernel's (op.flops)
    Launch(s, e);
    s.Row();
  }

  void Copy(uint32_t e) {
    SqlInsert& s = copy_;
    s.Int(r_.EventRowId(e)).Int(r_.rank);
    s.Text(ev_.kind[e] == ActivityKind::kMemset ? "memset" : "memcpy").Text(Str(ev_.name[e]));
    uint32_t row = ev_.device_args[e];
    if (row == kNoDeviceArgs) {
      for (int c = 0; c < 5; ++c) s.Null();
    } else {
      const DeviceArgsTable& a = t_.device_args;
      auto memory = [&](MemoryKind k) {
        k == MemoryKind::kUnknown ? s.Null() : s.Text(MemoryKindName(k));
      };
      a.copy[row] == CopyKind::kUnknown ? s.Null() : s.Text(CopyKindName(a.copy[row]));
      memory(a.copy_src[row]);
      memory(a.copy_dst[row]);
      s.IntOr(a.bytes[row], -1);
      a.bandwidth[row] < 0 ? s.Null() : s.Real(a.bandwidth[row]);
    }
    Track(s, e);
    Launch(s, e);
    s.Row();
  }

  void Range(uint32_t e) {
    uint32_t fn = fn_of_event_[e];
    SqlInsert& s = range_;
    s.Int(r_.EventRowId(e)).Int(r_.rank).Text(ActivityKindName(ev_.kind[e]));
    s.Text(Str(ev_.name[e]));
    Track(s, e);
    // A GPU user annotation's FunctionEvent has PyTorch's span, narrower than the file's.
    fn == UINT32_MAX ? s.Null() : s.Int(times_.CudaTotalNs(fn));
    s.IntOr(ev_.correlation[e], kNoId);
    r_.Step(s, ev_.start_ns[e]);
    Seq(s, fn);
    s.Row();
  }

  const SqlRows& r_;
  const Trace& t_;
  const EventTable& ev_;
  const FunctionEventList& fe_;
  passes::EventTimes times_;
  passes::EventFlops flops_;
  std::vector<uint16_t> depth_;
  std::vector<uint32_t> fn_of_event_;
  std::unordered_map<uint32_t, std::string> short_names_;
  SqlInsert op_, runtime_, kernel_, copy_, range_;
};

}  // namespace

int64_t SqlRows::FnRowId(FnEventId fn) const {
  EventId source = events.source[fn.value];
  if (source != passes::kSynthetic) return EventRowId(source.value);
  const Column<FnEventId>& rows = events.synthetic_row;
  size_t k = static_cast<size_t>(std::lower_bound(rows.begin(), rows.end(), fn) - rows.begin());
  return event_base + static_cast<int64_t>(trace.events.size() + k);
}

void SqlRows::Step(SqlInsert& insert, int64_t t) const {
  std::optional<int64_t> step = job::StepAt(analyses.steps, t);
  step ? insert.Int(*step) : insert.Null();
}

void SqlRows::TrackField(SqlInsert& insert, int64_t number, StringId text) const {
  text.value ? insert.Text(trace.str(text)) : insert.Int(number);
}

Status WriteEventRows(const SqlRows& rows) { return EventRowWriter(rows).Write(); }

}  // namespace profana::report
