#include "profana/reporters/snapshot_reporter.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/passes/kernel_names.h"
#include "profana/reporters/memory_output.h"
#include "profana/reporters/number_format.h"

namespace profana::report {
namespace {

using passes::SnapshotDeviceState;
using passes::SnapshotHistory;

std::string SnapshotShare(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.1f} %", 100.0 * part / whole) : "-";
}

// A history position's time in ms from the first entry (or its entry number, untimed).
std::string When(const AllocatorSnapshot& s, const SnapshotHistory& h, int64_t pos) {
  if (pos < 0) return "before the history";
  if (!h.timed) return fmt::format("entry #{}", pos);
  double ms = (h.time_us(s, pos) - h.time_us(s, 0)) / 1e3;
  return fmt::format("{:.3f} ms (entry #{})", ms, pos);
}

void SiteLines(const AllocatorSnapshot& s, const std::vector<passes::SiteBytes>& rows, int top,
               std::string* out) {
  for (size_t i = 0; i < rows.size() && static_cast<int>(i) < top; ++i)
    *out +=
        fmt::format("    {:>12}  {:>6} block{}  {}\n", FormatBytes(rows[i].bytes), rows[i].blocks,
                    rows[i].blocks == 1 ? " " : "s", SiteLabel(s, rows[i].site));
  if (rows.size() > static_cast<size_t>(std::max(top, 0)))
    *out += fmt::format("    ... {} more sites (-n N shows more)\n", rows.size() - top);
}

void StateText(const AllocatorSnapshot& s, const SnapshotDeviceState& st, int top,
               std::string* out) {
  const passes::BlockBytes& b = st.bytes;
  *out += "  At snapshot time:\n";
  *out += fmt::format("    reserved       {:>12}  in {} segments ({} expandable)\n",
                      FormatBytes(b.reserved), b.segments, st.expandable_segments);
  *out += fmt::format(
      "    allocated      {:>12}  (memory_allocated; requested {}, {} lost to "
      "rounding)\n",
      FormatBytes(b.allocated), FormatBytes(b.requested), FormatBytes(b.allocated - b.requested));
  *out += fmt::format("    pending free   {:>12}  (freed, waiting for their streams)\n",
                      FormatBytes(b.pending_free));
  *out += fmt::format("    cached         {:>12}  in inactive blocks, the largest {}\n",
                      FormatBytes(b.inactive), FormatBytes(b.largest_inactive));
  *out += fmt::format(
      "    fragmentation: {} reserved but not allocated ({} of reserved); the "
      "largest free block is {} of it\n",
      FormatBytes(b.unallocated()), SnapshotShare(b.unallocated(), b.reserved),
      SnapshotShare(b.largest_inactive, b.inactive));
  if (st.inconsistent_segments > 0)
    *out += fmt::format("    {} segments whose sizes disagree with their blocks'\n",
                        st.inconsistent_segments);
  *out += "  Per stream:\n";
  *out += fmt::format("    {:>8}  {:>12}  {:>12}  {:>12}  {:>12}\n", "stream", "reserved",
                      "allocated", "free", "largest free");
  for (const passes::StreamState& ss : st.streams)
    *out += fmt::format("    {:>8}  {:>12}  {:>12}  {:>12}  {:>12}\n", ss.stream,
                        FormatBytes(ss.bytes.reserved), FormatBytes(ss.bytes.allocated),
                        FormatBytes(ss.bytes.inactive), FormatBytes(ss.bytes.largest_inactive));
  *out += "  Segments with the most memory not allocated:\n";
  *out += fmt::format("    {:>16}  {:>6}  {:>5}  {:>12}  {:>12}  {:>12}  {:>6}\n", "address",
                      "stream", "type", "reserved", "allocated", "largest free", "blocks");
  for (size_t i = 0; i < st.segments.size() && static_cast<int>(i) < top; ++i) {
    const passes::SegmentState& ss = st.segments[i];
    const SnapshotSegment& seg = s.segments[ss.segment.value];
    *out += fmt::format("    {:>#16x}  {:>6}  {:>5}  {:>12}  {:>12}  {:>12}  {:>6}\n", seg.address,
                        seg.stream, s.str(seg.segment_type), FormatBytes(ss.bytes.reserved),
                        FormatBytes(ss.bytes.allocated), FormatBytes(ss.bytes.largest_inactive),
                        ss.bytes.blocks);
  }
  *out += "  Allocated at snapshot time, by allocation site:\n";
  SiteLines(s, st.allocated_by_site, top, out);
}

void HistoryText(const AllocatorSnapshot& s, const SnapshotHistory& h, int top, std::string* out) {
  size_t n = h.entry.size();
  if (n == 0) {
    *out +=
        "  History: none recorded (torch.cuda.memory._record_memory_history() before the "
        "snapshot records one)\n";
    return;
  }
  *out += fmt::format("  History: {} entries", n);
  if (h.timed)
    *out += fmt::format(" over {:.3f} ms", (h.time_us(s, n - 1) - h.time_us(s, 0)) / 1e3);
  *out += fmt::format(" ({} allocations, {} frees)\n", h.allocs, h.frees);
  *out += fmt::format("    allocated before the history  {:>12}  (reserved {})\n",
                      FormatBytes(h.allocated_before), FormatBytes(h.reserved_before));
  *out += fmt::format("    peak allocated                {:>12}  at {}\n",
                      FormatBytes(h.peak_allocated), When(s, h, h.peak_pos));
  *out += fmt::format("    peak reserved                 {:>12}  at {}\n",
                      FormatBytes(h.peak_reserved), When(s, h, h.peak_reserved_pos));
  if (h.frees_before > 0)
    *out += fmt::format("    {} frees of memory allocated before the history\n", h.frees_before);
  if (h.alloc_on_live > 0)
    *out += fmt::format("    {} allocations of an address still live (a free not recorded)\n",
                        h.alloc_on_live);
  *out += "  Live at the allocated peak, by allocation site (requested bytes):\n";
  SiteLines(s, h.live_at_peak.by_site, top, out);
  if (h.live_at_peak.before != 0)
    *out += fmt::format("    {:>12}  allocated before the history\n",
                        FormatBytes(h.live_at_peak.before));
  if (h.ooms.empty()) {
    *out += "  Out-of-memory events: none\n";
    return;
  }
  *out += fmt::format("  Out-of-memory events: {}\n", h.ooms.size());
  for (size_t i = 0; i < h.ooms.size(); ++i) {
    const passes::OomEvent& o = h.ooms[i];
    *out +=
        fmt::format("    at {}: {} requested, {} free on the device; {} allocated, {} reserved\n",
                    When(s, h, static_cast<int64_t>(o.pos)), FormatBytes(o.requested),
                    FormatBytes(o.device_free), FormatBytes(o.allocated), FormatBytes(o.reserved));
    if (i < passes::kOomsDetailed) SiteLines(s, o.live.by_site, std::min(top, 5), out);
  }
}

void SitesJson(JsonWriter& w, const AllocatorSnapshot& s,
               const std::vector<passes::SiteBytes>& rows) {
  w.BeginArray();
  for (const passes::SiteBytes& r : rows) {
    w.BeginObject();
    w.Key("bytes").Int(r.bytes);
    w.Key("blocks").Int(r.blocks);
    WriteSiteJson(w, s, r.site);
    w.EndObject();
  }
  w.EndArray();
}

void BytesJson(JsonWriter& w, const passes::BlockBytes& b) {
  w.Key("reserved").Int(b.reserved);
  w.Key("allocated").Int(b.allocated);
  w.Key("active").Int(b.active());
  w.Key("pending_free").Int(b.pending_free);
  w.Key("inactive").Int(b.inactive);
  w.Key("requested").Int(b.requested);
  w.Key("largest_inactive").Int(b.largest_inactive);
  w.Key("segments").Int(b.segments);
  w.Key("blocks").Int(b.blocks);
}

void StateJson(JsonWriter& w, const AllocatorSnapshot& s, const SnapshotDeviceState& st) {
  w.BeginObject();
  BytesJson(w, st.bytes);
  w.Key("expandable_segments").Int(st.expandable_segments);
  w.Key("inconsistent_segments").Int(st.inconsistent_segments);
  w.Key("streams").BeginArray();
  for (const passes::StreamState& ss : st.streams) {
    w.BeginObject();
    w.Key("stream").Int(ss.stream);
    BytesJson(w, ss.bytes);
    w.EndObject();
  }
  w.EndArray();
  w.Key("segments").BeginArray();
  for (const passes::SegmentState& ss : st.segments) {
    const SnapshotSegment& seg = s.segments[ss.segment.value];
    w.BeginObject();
    w.Key("address").Int(static_cast<int64_t>(seg.address));
    w.Key("stream").Int(seg.stream);
    w.Key("type").String(s.str(seg.segment_type));
    w.Key("expandable").Bool(seg.is_expandable);
    BytesJson(w, ss.bytes);
    w.EndObject();
  }
  w.EndArray();
  w.Key("allocated_by_site");
  SitesJson(w, s, st.allocated_by_site);
  w.EndObject();
}

void LiveJson(JsonWriter& w, const AllocatorSnapshot& s, const passes::LiveMemory& live) {
  w.BeginObject();
  w.Key("before").Int(live.before);
  w.Key("sites");
  SitesJson(w, s, live.by_site);
  w.EndObject();
}

void HistoryJson(JsonWriter& w, const AllocatorSnapshot& s, const SnapshotHistory& h) {
  auto time = [&](int64_t pos) {
    if (pos < 0 || !h.timed)
      w.Null();
    else
      w.Int(h.time_us(s, static_cast<size_t>(pos)));
  };
  w.BeginObject();
  w.Key("entries").Int(static_cast<int64_t>(h.entry.size()));
  w.Key("timed").Bool(h.timed);
  w.Key("allocs").Int(h.allocs);
  w.Key("frees").Int(h.frees);
  w.Key("frees_before").Int(h.frees_before);
  w.Key("alloc_on_live").Int(h.alloc_on_live);
  w.Key("time_reversals").Int(h.time_reversals);
  w.Key("allocated_before").Int(h.allocated_before);
  w.Key("reserved_before").Int(h.reserved_before);
  for (auto [key, bytes, pos] :
       {std::make_tuple("peak_allocated", h.peak_allocated, h.peak_pos),
        std::make_tuple("peak_reserved", h.peak_reserved, h.peak_reserved_pos)}) {
    w.Key(key).BeginObject();
    w.Key("bytes").Int(bytes);
    w.Key("entry").Int(pos);
    w.Key("time_us");
    time(pos);
    w.EndObject();
  }
  w.Key("live_at_peak");
  LiveJson(w, s, h.live_at_peak);
  w.Key("ooms").BeginArray();
  for (size_t i = 0; i < h.ooms.size(); ++i) {
    const passes::OomEvent& o = h.ooms[i];
    w.BeginObject();
    w.Key("entry").Int(static_cast<int64_t>(o.pos));
    w.Key("time_us");
    time(static_cast<int64_t>(o.pos));
    w.Key("requested").Int(o.requested);
    w.Key("device_free").Int(o.device_free);
    w.Key("allocated").Int(o.allocated);
    w.Key("reserved").Int(o.reserved);
    w.Key("live");
    if (i < passes::kOomsDetailed)
      LiveJson(w, s, o.live);
    else
      w.Null();
    w.EndObject();
  }
  w.EndArray();
  // [time_us (or entry number), allocated, reserved] after each entry.
  w.Key("timeline").BeginArray();
  for (size_t p = 0; p < h.entry.size(); ++p) {
    w.BeginArray().Int(h.time_us(s, p)).Int(h.allocated[p]).Int(h.reserved[p]).EndArray();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string SiteLabel(const AllocatorSnapshot& s, const passes::AllocationSite& site) {
  std::string out;
  if (site.python != passes::kNoFrame) {
    const SnapshotFrame& f = s.frames[site.python];
    std::string_view file = s.str(f.filename);
    out = fmt::format("{}:{} {}", file.substr(file.find_last_of('/') + 1), f.line, s.str(f.name));
  }
  if (site.frame != passes::kNoFrame) {
    std::string name = passes::ShortKernelName(s.str(s.frames[site.frame].name));
    out += (out.empty() ? "" : ", ") + name;
  }
  return out.empty() ? "<no frames>" : out;
}

void WriteSiteJson(JsonWriter& w, const AllocatorSnapshot& s, const passes::AllocationSite& site) {
  for (auto [key, frame] :
       {std::make_pair("python", site.python), std::make_pair("frame", site.frame)}) {
    w.Key(key);
    if (frame == passes::kNoFrame) {
      w.Null();
      continue;
    }
    const SnapshotFrame& f = s.frames[frame];
    w.BeginObject();
    w.Key("name").String(s.str(f.name));
    w.Key("filename").String(s.str(f.filename));
    w.Key("line").Int(f.line);
    w.EndObject();
  }
}

std::string FormatSnapshotText(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a,
                               const SnapshotReportContext& c) {
  std::string out = fmt::format("Allocator snapshot: {}\n", c.input == "-" ? "<stdin>" : c.input);
  if (!s.alloc_conf.empty() || s.expandable_segments)
    out += fmt::format("Allocator settings: PYTORCH_CUDA_ALLOC_CONF={}{}\n", s.alloc_conf,
                       s.expandable_segments ? " (expandable segments)" : "");
  if (a.histories.empty()) out += "The snapshot holds no segments and no history.\n";
  for (const SnapshotHistory& h : a.histories) {
    out += fmt::format("\n{}\n", passes::SnapshotDeviceName(h.device));
    if (const SnapshotDeviceState* st = a.state(h.device))
      StateText(s, *st, c.top, &out);
    else
      out += "  At snapshot time: no segments\n";
    HistoryText(s, h, c.top, &out);
  }
  if (s.unknown_actions > 0)
    out += fmt::format("\n{} history entries with an action profana does not know were skipped\n",
                       s.unknown_actions);
  return out;
}

std::string FormatSnapshotJson(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a,
                               const SnapshotReportContext& c) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.memory-snapshot/1");
  w.Key("input").String(c.input);
  w.Key("allocator_settings").BeginObject();
  w.Key("expandable_segments").Bool(s.expandable_segments);
  w.Key("alloc_conf").String(s.alloc_conf);
  w.EndObject();
  w.Key("unknown_actions").Int(static_cast<int64_t>(s.unknown_actions));
  w.Key("devices").BeginArray();
  for (const SnapshotHistory& h : a.histories) {
    w.BeginObject();
    w.Key("device").String(passes::SnapshotDeviceName(h.device));
    w.Key("index").Int(h.device);
    w.Key("state");
    if (const SnapshotDeviceState* st = a.state(h.device))
      StateJson(w, s, *st);
    else
      w.Null();
    w.Key("history");
    HistoryJson(w, s, h);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  out += '\n';
  return out;
}

std::string FormatSnapshotCsv(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a) {
  std::string out = "device,entry,time_us,action,bytes,allocated,reserved\n";
  for (const SnapshotHistory& h : a.histories)
    for (size_t p = 0; p < h.entry.size(); ++p) {
      const SnapshotEntry& e = s.entries[h.entry[p]];
      out += fmt::format("{},{},{},{},{},{},{}\n", passes::SnapshotDeviceName(h.device), p,
                         h.timed ? fmt::format("{}", e.time_us) : std::string(),
                         SnapshotActionName(e.action), e.size, h.allocated[p], h.reserved[p]);
    }
  return out;
}

std::string FormatSnapshotAs(OutputFormat format, const AllocatorSnapshot& s,
                             const passes::SnapshotAnalysis& a, const SnapshotReportContext& c) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatSnapshotJson(s, a, c);
    case OutputFormat::kCsv:
      return FormatSnapshotCsv(s, a);
    case OutputFormat::kHtml:
      return FormatSnapshotHtml(s, a, PageTitle(c.input));
    default:
      return FormatSnapshotText(s, a, c);
  }
}

}  // namespace profana::report
