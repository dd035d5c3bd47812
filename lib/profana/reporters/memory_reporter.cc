#include "profana/reporters/memory_reporter.h"

#include <algorithm>

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/passes/memory_device_types.h"
#include "profana/reporters/csv_field.h"
#include "profana/reporters/number_format.h"

namespace profana::report {
namespace {

using passes::MemoryCategory;
using passes::MemoryOpGroup;

// A record's time after the trace's origin, written as durations are (PyTorch's _format_time).
std::string Ms(int64_t ns, int64_t origin) { return FormatTimeNs(ns - origin); }

std::string Thousands(int64_t v) {
  // Unsigned: the magnitude of INT64_MIN does not fit in an int64_t.
  uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string digits = std::to_string(magnitude), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return (v < 0 ? "-" : "") + out;
}

std::string GroupName(const Trace& trace, const MemoryOpGroup& g) {
  if (g.kind == MemoryOpGroup::kBeforeTrace) return "<allocated before the trace>";
  if (g.kind == MemoryOpGroup::kNoOp) return "[memory] (inside no op)";
  return Printable(trace.str(g.name));
}

void GroupTable(const Trace& trace, const std::vector<MemoryOpGroup>& groups, int top,
                std::string* out) {
  out->append(fmt::format("    {:>12}  {:>7}  {}\n", "bytes", "blocks", "op"));
  for (size_t i = 0; i < groups.size() && static_cast<int>(i) < top; ++i)
    out->append(fmt::format("    {:>12}  {:>7}  {}\n", FormatBytes(groups[i].bytes),
                            groups[i].blocks, GroupName(trace, groups[i])));
  if (groups.size() > static_cast<size_t>(top))
    out->append(fmt::format("    ... {} more\n", groups.size() - top));
}

void GroupsJson(const Trace& trace, const std::vector<MemoryOpGroup>& groups, JsonWriter& w) {
  w.BeginArray();
  for (const MemoryOpGroup& g : groups) {
    w.BeginObject();
    w.Key("op");
    if (g.kind == MemoryOpGroup::kOp)
      w.String(trace.str(g.name));
    else
      w.Null();
    w.Key("where").String(g.kind == MemoryOpGroup::kOp     ? "op"
                          : g.kind == MemoryOpGroup::kNoOp ? "no_op"
                                                           : "before_trace");
    w.Key("blocks").Int(static_cast<int64_t>(g.blocks));
    w.Key("bytes").Int(g.bytes);
    w.EndObject();
  }
  w.EndArray();
}

// Problems worth a line, in the counters' order.
std::vector<std::pair<const char*, uint64_t>> Problems(const passes::MemoryCounters& k) {
  return {{"records without Addr (cannot be paired)", k.without_addr},
          {"zero-byte records", k.zero_byte_records},
          {"records above 256 TiB (ignored)", k.out_of_range},
          {"double frees", k.double_frees},
          {"frees whose size differs from the allocation", k.size_mismatches},
          {"allocations of a live address (free not recorded)", k.alloc_on_live_address},
          {"addresses live on two devices", k.address_on_two_devices},
          {"negative Total Allocated/Reserved", k.negative_totals},
          {"records inside no CPU op", k.without_op}};
}

// "before the trace   69.64 MiB (73,017,344 B): 1.52 MiB parameters, ..., 65.07 MiB not
// identified". A CPU's Total Allocated counts only allocations made while memory was profiled:
// its figure is not the whole, and is said to be what it is.
std::string BeforeTraceLine(const passes::MemoryBeforeTrace& b, bool cpu) {
  std::vector<std::string> parts;
  auto part = [&](int64_t bytes, const char* what) {
    if (bytes > 0) parts.push_back(fmt::format("{} {}", FormatBytes(bytes), what));
  };
  part(b.parameters, "parameters");
  part(b.optimizer_state, "optimizer state");
  part(b.freed_in_trace, "freed in the trace");
  part(b.unidentified, "not identified");
  std::string list;
  for (const std::string& p : parts) list += (list.empty() ? "" : ", ") + p;
  if (b.bytes == kNoId)
    return fmt::format("  before the trace   not recorded{}{}\n", list.empty() ? "" : "; at least ",
                       list);
  if (cpu)
    return fmt::format(
        "  before the trace   {} ({} B) in Total Allocated, which on the CPU counts only what was "
        "allocated while memory was profiled{}{}\n",
        FormatBytes(b.bytes), Thousands(b.bytes), list.empty() ? "" : "; ", list);
  return fmt::format("  before the trace   {} ({} B){}{}\n", FormatBytes(b.bytes),
                     Thousands(b.bytes), list.empty() ? "" : ": ", list);
}

// Live at the peak per category: allocated in the trace, and before it (with what the trace cannot
// identify of that on a line of its own).
void CategoryTable(const passes::MemoryDeviceReport& r, const passes::MemoryBeforeTrace& before,
                   std::string* out) {
  out->append(fmt::format("  live at the peak by category\n    {:<17}  {:>12}  {:>12}\n",
                          "category", "in the trace", "before it"));
  for (int cat = 0; cat < passes::kMemoryCategories; ++cat) {
    int64_t all = r.live_by_category[cat], earlier = r.live_before_trace_by_category[cat];
    if (all == 0 && earlier == 0) continue;
    out->append(fmt::format("    {:<17}  {:>12}  {:>12}\n",
                            passes::MemoryCategoryName(static_cast<MemoryCategory>(cat)),
                            FormatBytes(SatAdd(all, earlier == INT64_MIN ? INT64_MAX : -earlier)),
                            FormatBytes(earlier)));
  }
  if (before.unidentified > 0)
    out->append(fmt::format("    {:<17}  {:>12}  {:>12}\n", "not identified", "-",
                            FormatBytes(before.unidentified)));
}

std::string Stack(const Trace& trace, const passes::FunctionEventList& ev, FnEventId op) {
  std::string out;
  for (StringId f : trace.StackFrames(ev.stack[op.value]))
    out += fmt::format("      {}\n", Printable(trace.str(f)));
  return out;
}

}  // namespace

std::string FormatMemoryText(const Trace& trace, const passes::FunctionEventList& ev,
                             const passes::MemoryTimeline& t,
                             const std::vector<passes::MemoryDeviceView>& views,
                             const MemoryReportContext& c) {
  const passes::MemoryCounters& k = t.counters;
  std::string out =
      fmt::format("Memory records: {} ({} allocations, {} frees) on {} device{}\n", k.records,
                  k.allocations, k.frees, t.devices.size(), t.devices.size() == 1 ? "" : "s");
  if (t.size() == 0) {
    out += fmt::format("{}\n", kNoMemoryNote);
    return out;
  }
  for (const passes::MemoryDeviceView& view : views) {
    uint32_t d = view.device;
    const passes::MemoryDeviceSummary& s = t.summary[d];
    const passes::MemoryDeviceReport& r = view.report;
    out += fmt::format("\n== {} ==\n", t.devices[d].name);
    out += fmt::format("  records            {}, {} to {}\n", s.records,
                       Ms(s.first_ts_ns, c.origin_ns), Ms(s.last_ts_ns, c.origin_ns));
    auto at = [&](int64_t pos) { return Ms(trace.memory.ts_ns[t.order[pos]], c.origin_ns); };
    // The allocator's numbers first: what the process held, the trace's part of it after.
    if (s.max_total_allocated != kNoId)
      out += fmt::format("  allocator peak     {} ({} B) allocated at {} (Total Allocated)\n",
                         FormatBytes(s.max_total_allocated), Thousands(s.max_total_allocated),
                         at(s.max_allocated_pos));
    else
      out += "  allocator peak     not recorded (the records carry no Total Allocated)\n";
    if (s.max_total_reserved != kNoId)
      out += fmt::format("  reserved peak      {} ({} B) at {} (Total Reserved)\n",
                         FormatBytes(s.max_total_reserved), Thousands(s.max_total_reserved),
                         at(s.max_reserved_pos));
    out += BeforeTraceLine(s.before_trace, passes::IsCpuMemory(t.devices[d].type));
    out += fmt::format(
        "  in the trace       {} ({} B) at {}: the most the trace's own allocations held\n",
        FormatBytes(s.trace_peak_bytes), Thousands(s.trace_peak_bytes),
        s.trace_peak_pos >= 0 ? at(s.trace_peak_pos) : Ms(s.first_ts_ns, c.origin_ns));
    const passes::TotalAllocatedCheck& chk = s.total_allocated;
    if (chk.compared > 0) {
      out += fmt::format("  replay check       {} of {} records: Total Allocated = replay + {} B ",
                         chk.agreeing, chk.compared, Thousands(chk.offset));
      out += "(memory allocated before the trace)\n";
      if (chk.first_disagreement >= 0)
        out += fmt::format("                     first disagreement at {}\n",
                           Ms(trace.memory.ts_ns[t.order[chk.first_disagreement]], c.origin_ns));
    } else {
      out += "  replay check       no Total Allocated recorded: the level is the replay alone\n";
    }
    if (r.peak_op) {
      const ThreadInfo& th = trace.threads[ev.thread[r.peak_op->value].value];
      out += fmt::format(
          "  op at the peak     {} (thread {})\n", Printable(trace.str(ev.name[r.peak_op->value])),
          th.tid_text.value ? Printable(trace.str(th.tid_text)) : std::to_string(th.tid));
      std::string path;
      for (FnEventId o : r.peak_op_path)
        path +=
            fmt::format("{}{}", path.empty() ? "" : " > ", Printable(trace.str(ev.name[o.value])));
      out += fmt::format("    ops: {}\n", path);
      std::string stack = Stack(trace, ev, *r.peak_op);
      if (!stack.empty()) out += "    stack (innermost first):\n" + stack;
    } else if (s.peak_pos >= 0) {
      out += "  op at the peak     none (the record is inside no CPU op on its thread)\n";
    }
    CategoryTable(r, s.before_trace, &out);
    if (!r.live_by_op.empty()) {
      out += "  live at the peak by allocating op\n";
      GroupTable(trace, r.live_by_op, c.top, &out);
    }
    const std::vector<passes::MemoryOpRow>& ops = view.ops_by_self_alloc;
    out += "  top allocating ops (self)\n";
    out += fmt::format("    {:>12}  {:>7}  {:>12}  {}\n", "allocated", "allocs", "freed", "op");
    for (size_t i = 0; i < ops.size() && static_cast<int>(i) < c.top && ops[i].self_alloc_count > 0;
         ++i)
      out += fmt::format(
          "    {:>12}  {:>7}  {:>12}  {}\n", FormatBytes(ops[i].self_alloc_bytes),
          ops[i].self_alloc_count, FormatBytes(ops[i].self_freed_bytes),
          ops[i].name.value ? Printable(trace.str(ops[i].name)) : "[memory] (inside no op)");
    if (s.without_addr > 0)
      out += fmt::format(
          "  {} of {} records have no Addr: blocks cannot be paired, so leaks and pre-existing "
          "memory are not known for them\n",
          s.without_addr, s.records);
    out += fmt::format("  not freed by the end of the trace: {} block{}, {}\n", r.not_freed_blocks,
                       r.not_freed_blocks == 1 ? "" : "s", FormatBytes(r.not_freed_bytes));
    if (!r.not_freed_by_op.empty()) GroupTable(trace, r.not_freed_by_op, c.top, &out);
    out += fmt::format("  frees of memory allocated before the trace: {}, {}\n",
                       r.preexisting_frees, FormatBytes(r.preexisting_bytes));
    if (!r.preexisting_by_op.empty()) GroupTable(trace, r.preexisting_by_op, c.top, &out);
  }
  std::string problems;
  for (auto [what, n] : Problems(k))
    if (n) problems += fmt::format("  {} {}\n", n, what);
  out += problems.empty() ? "\nDiagnostics: none\n" : "\nDiagnostics:\n" + problems;
  return out;
}

std::string FormatMemoryJson(const Trace& trace, const passes::FunctionEventList& ev,
                             const passes::MemoryTimeline& t,
                             const std::vector<passes::MemoryDeviceView>& views,
                             const MemoryReportContext& c) {
  std::string out;
  JsonWriter w(&out);
  const passes::MemoryCounters& k = t.counters;
  w.BeginObject();
  w.Key("schema").String("profana.memory/1");
  w.Key("input").String(c.input);
  w.Key("format").String(TraceFormatName(trace.metadata.format));
  w.Key("counters").BeginObject();
  w.Key("records").Int(k.records).Key("allocations").Int(k.allocations).Key("frees").Int(k.frees);
  w.Key("zero_byte_records")
      .Int(k.zero_byte_records)
      .Key("out_of_range")
      .Int(k.out_of_range)
      .Key("without_addr")
      .Int(k.without_addr);
  w.Key("preexisting_frees").Int(k.preexisting_frees).Key("double_frees").Int(k.double_frees);
  w.Key("size_mismatches")
      .Int(k.size_mismatches)
      .Key("alloc_on_live_address")
      .Int(k.alloc_on_live_address);
  w.Key("address_on_two_devices")
      .Int(k.address_on_two_devices)
      .Key("negative_totals")
      .Int(k.negative_totals);
  w.Key("without_op").Int(k.without_op);
  w.EndObject();
  w.Key("categories").BeginArray();
  for (int cat = 0; cat < passes::kMemoryCategories; ++cat)
    w.String(passes::MemoryCategoryName(static_cast<MemoryCategory>(cat)));
  w.EndArray();
  w.Key("devices").BeginArray();
  for (const passes::MemoryDeviceView& view : views) {
    uint32_t d = view.device;
    const passes::MemoryDeviceSummary& s = t.summary[d];
    const passes::MemoryDeviceReport& r = view.report;
    auto opt = [&](int64_t v) -> JsonWriter& { return v == kNoId ? w.Null() : w.Int(v); };
    auto ts = [&](int64_t pos) { return trace.memory.ts_ns[t.order[pos]]; };
    w.BeginObject();
    w.Key("device").String(t.devices[d].name);
    w.Key("device_type").Int(t.devices[d].type).Key("device_id").Int(t.devices[d].id);
    w.Key("records").Int(s.records);
    w.Key("first_ts_us")
        .Micros(s.first_ts_ns - c.origin_ns)
        .Key("last_ts_us")
        .Micros(s.last_ts_ns - c.origin_ns);
    w.Key("preexisting_bytes").Int(s.preexisting_bytes);
    const passes::MemoryBeforeTrace& before = s.before_trace;
    w.Key("before_trace").BeginObject();
    w.Key("bytes");
    opt(before.bytes);
    w.Key("freed_in_trace").Int(before.freed_in_trace);
    w.Key("parameters").Int(before.parameters).Key("optimizer_state").Int(before.optimizer_state);
    w.Key("unidentified");
    opt(before.unidentified);
    w.EndObject();
    w.Key("trace_peak").BeginObject();
    w.Key("bytes").Int(s.trace_peak_bytes).Key("ts_us");
    s.trace_peak_pos >= 0 ? w.Micros(ts(s.trace_peak_pos) - c.origin_ns) : w.Null();
    w.EndObject();
    w.Key("peak").BeginObject();
    w.Key("bytes").Int(s.peak_bytes).Key("ts_us").Micros(r.peak_ts_ns - c.origin_ns);
    w.Key("total_allocated");
    opt(r.peak_total_allocated);
    w.Key("op");
    if (r.peak_op)
      w.String(trace.str(ev.name[r.peak_op->value]));
    else
      w.Null();
    w.Key("op_path").BeginArray();
    for (FnEventId o : r.peak_op_path) w.String(trace.str(ev.name[o.value]));
    w.EndArray();
    w.Key("stack").BeginArray();
    if (r.peak_op)
      for (StringId f : trace.StackFrames(ev.stack[r.peak_op->value])) w.String(trace.str(f));
    w.EndArray();
    w.Key("live_by_category").BeginObject();
    for (int cat = 0; cat < passes::kMemoryCategories; ++cat)
      w.Key(passes::MemoryCategoryName(static_cast<MemoryCategory>(cat)))
          .Int(r.live_by_category[cat]);
    w.EndObject();
    w.Key("live_before_trace_by_category").BeginObject();
    for (int cat = 0; cat < passes::kMemoryCategories; ++cat)
      w.Key(passes::MemoryCategoryName(static_cast<MemoryCategory>(cat)))
          .Int(r.live_before_trace_by_category[cat]);
    w.EndObject();
    w.Key("live_by_op");
    GroupsJson(trace, r.live_by_op, w);
    w.EndObject();
    w.Key("max_total_allocated");
    opt(s.max_total_allocated);
    w.Key("max_total_allocated_ts_us");
    s.max_allocated_pos >= 0 ? w.Micros(ts(s.max_allocated_pos) - c.origin_ns) : w.Null();
    w.Key("max_total_reserved");
    opt(s.max_total_reserved);
    w.Key("max_total_reserved_ts_us");
    s.max_reserved_pos >= 0 ? w.Micros(ts(s.max_reserved_pos) - c.origin_ns) : w.Null();
    w.Key("total_allocated_check").BeginObject();
    w.Key("compared")
        .Int(s.total_allocated.compared)
        .Key("agreeing")
        .Int(s.total_allocated.agreeing);
    w.Key("offset_bytes").Int(s.total_allocated.offset);
    w.EndObject();
    w.Key("not_freed").BeginObject();
    w.Key("blocks").Int(r.not_freed_blocks).Key("bytes").Int(r.not_freed_bytes).Key("by_op");
    GroupsJson(trace, r.not_freed_by_op, w);
    w.EndObject();
    w.Key("preexisting_frees").BeginObject();
    w.Key("count").Int(r.preexisting_frees).Key("bytes").Int(r.preexisting_bytes).Key("by_op");
    GroupsJson(trace, r.preexisting_by_op, w);
    w.EndObject();
    // export_memory_timeline's [times, sizes], as a value.
    const passes::CoalescedTimeline& tl = view.timeline;
    w.Key("timeline").BeginArray().BeginArray();
    for (int64_t us : tl.times_us) w.Int(us);
    w.EndArray().BeginArray();
    for (const auto& row : tl.sizes) {
      w.BeginArray();
      for (int64_t v : row) w.Int(v);
      w.EndArray();
    }
    w.EndArray().EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  out += "\n";
  return out;
}

std::string FormatTimelineJson(const passes::CoalescedTimeline& tl) {
  // json.dump's default separators: ", " and ": ".
  std::string out = "[[";
  for (size_t i = 0; i < tl.times_us.size(); ++i)
    out += fmt::format("{}{}", i ? ", " : "", tl.times_us[i]);
  out += "], [";
  for (size_t i = 0; i < tl.sizes.size(); ++i) {
    out += i ? ", [" : "[";
    for (size_t j = 0; j < tl.sizes[i].size(); ++j)
      out += fmt::format("{}{}", j ? ", " : "", tl.sizes[i][j]);
    out += "]";
  }
  out += "]]\n";
  return out;
}

std::string FormatRawJson(const std::vector<passes::RawMemoryEvent>& raw) {
  std::string out = "[";
  for (size_t i = 0; i < raw.size(); ++i)
    out += fmt::format("{}[{}, {}, {}, {}]", i ? ", " : "", raw[i].ts_ns,
                       static_cast<int>(raw[i].action), raw[i].bytes,
                       static_cast<int>(raw[i].category));
  out += "]\n";
  return out;
}

std::string FormatTimelineCsv(const passes::MemoryTimeline& t,
                              const std::vector<passes::MemoryDeviceView>& views) {
  std::string out = "device,time_us";
  for (int cat = 0; cat < passes::kMemoryCategories; ++cat)
    out += fmt::format(",{}", passes::MemoryCategoryName(static_cast<MemoryCategory>(cat)));
  out += ",before_trace,total\n";
  for (const passes::MemoryDeviceView& view : views) {
    const passes::CoalescedTimeline& tl = view.timeline;
    // The memory from before the trace that it cannot identify: a constant band, empty where the
    // trace records no Total Allocated (then the total is the timeline's alone).
    int64_t unidentified = t.summary[view.device].before_trace.unidentified;
    for (size_t i = 0; i < tl.times_us.size(); ++i) {
      out += fmt::format("{},{}", CsvField(t.devices[view.device].name), tl.times_us[i]);
      int64_t total = 0;
      for (int cat = 0; cat < passes::kMemoryCategories; ++cat) {
        out += fmt::format(",{}", tl.sizes[i][cat + 1]);
        total = SatAdd(total, tl.sizes[i][cat + 1]);
      }
      if (unidentified == kNoId)
        out += fmt::format(",,{}\n", total);
      else
        out += fmt::format(",{},{}\n", unidentified, SatAdd(total, unidentified));
    }
  }
  return out;
}

namespace {
std::string RowName(const StringPool& strings, const passes::MemoryOpRow& r) {
  return r.name.value ? std::string(strings.Get(r.name)) : "[memory]";
}
std::string Csv(const std::string& s) { return CsvField(s); }
}  // namespace

std::string FormatByOpText(const StringPool& strings, const std::vector<passes::MemoryOpRow>& rows,
                           const std::string& device) {
  // Names are made printable before they are measured, so a control character in one (written
  // as "\x1b", four columns) does not shift the columns after it.
  size_t width = 4;
  for (const auto& r : rows)
    width = std::max(width, std::min<size_t>(Printable(RowName(strings, r)).size(), 60));
  std::string out =
      fmt::format("Memory by op ({}): sizes in bytes; self = allocations inside no child op\n\n",
                  device.empty() ? "all devices" : device);
  out += fmt::format("{:<{}}  {:>7}  {:>7}  {:>7}  {:>14}  {:>14}  {:>14}  {:>14}  {:>14}\n",
                     "Name", width, "Calls", "Allocs", "Self", "Alloc size", "Self alloc", "Freed",
                     "Size incr", "Self size incr");
  for (const auto& r : rows) {
    std::string name = Printable(RowName(strings, r));
    if (name.size() > width) name = name.substr(0, width - 3) + "...";
    out +=
        fmt::format("{:<{}}  {:>7}  {:>7}  {:>7}  {:>14}  {:>14}  {:>14}  {:>14}  {:>14}\n", name,
                    width, r.calls, r.alloc_count, r.self_alloc_count, r.alloc_bytes,
                    r.self_alloc_bytes, r.freed_bytes, r.size_increase(), r.self_size_increase());
  }
  return out;
}

std::string FormatByOpCsv(const StringPool& strings, const std::vector<passes::MemoryOpRow>& rows) {
  std::string out =
      "name,calls,alloc_count,self_alloc_count,alloc_bytes,self_alloc_bytes,freed_bytes,"
      "self_freed_bytes,size_increase,self_size_increase\n";
  for (const auto& r : rows)
    out +=
        fmt::format("{},{},{},{},{},{},{},{},{},{}\n", Csv(RowName(strings, r)), r.calls,
                    r.alloc_count, r.self_alloc_count, r.alloc_bytes, r.self_alloc_bytes,
                    r.freed_bytes, r.self_freed_bytes, r.size_increase(), r.self_size_increase());
  return out;
}

std::string FormatByOpJson(const StringPool& strings, const std::vector<passes::MemoryOpRow>& rows,
                           const std::string& input, const std::string& device) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.memory-by-op/1");
  w.Key("input").String(input);
  w.Key("device");
  if (device.empty())
    w.Null();
  else
    w.String(device);
  w.Key("rows").BeginArray();
  for (const auto& r : rows) {
    w.BeginObject();
    w.Key("name").String(RowName(strings, r));
    w.Key("calls")
        .Int(r.calls)
        .Key("alloc_count")
        .Int(r.alloc_count)
        .Key("self_alloc_count")
        .Int(r.self_alloc_count);
    w.Key("alloc_bytes").Int(r.alloc_bytes).Key("self_alloc_bytes").Int(r.self_alloc_bytes);
    w.Key("freed_bytes").Int(r.freed_bytes).Key("self_freed_bytes").Int(r.self_freed_bytes);
    w.Key("size_increase")
        .Int(r.size_increase())
        .Key("self_size_increase")
        .Int(r.self_size_increase());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  out += "\n";
  return out;
}

}  // namespace profana::report
