#include "profana/reporters/snapshot_diff_reporter.h"

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/reporters/csv_field.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/snapshot_reporter.h"

namespace profana::report {
namespace {

struct Figure {
  const char* name;
  int64_t base, next;
  bool bytes = true;
};

std::vector<Figure> Figures(const passes::SnapshotDeviceDiff& d) {
  const passes::BlockBytes &b = d.base.bytes, &n = d.next.bytes;
  return {{"reserved", b.reserved, n.reserved},
          {"allocated", b.allocated, n.allocated},
          {"requested", b.requested, n.requested},
          {"pending_free", b.pending_free, n.pending_free},
          {"inactive", b.inactive, n.inactive},
          {"largest_inactive", b.largest_inactive, n.largest_inactive},
          {"peak_allocated", d.base.peak_allocated, d.next.peak_allocated},
          {"peak_reserved", d.base.peak_reserved, d.next.peak_reserved},
          {"segments", b.segments, n.segments, false},
          {"blocks", b.blocks, n.blocks, false},
          {"history_entries", d.base.history_entries, d.next.history_entries, false}};
}

std::string Signed(int64_t v, bool bytes) {
  std::string text = bytes ? FormatBytes(v < 0 ? -v : v) : fmt::format("{}", v < 0 ? -v : v);
  return v > 0 ? "+" + text : v < 0 ? "-" + text : text;
}

// The site in the snapshot that has it (the base's when both do).
std::string Label(const passes::SiteChange& c, const SnapshotDiffContext& ctx) {
  return c.in_base ? SiteLabel(*ctx.base, c.base_site) : SiteLabel(*ctx.next, c.new_site);
}

std::string Text(const std::vector<passes::SnapshotDeviceDiff>& diffs,
                 const SnapshotDiffContext& c) {
  std::string out = fmt::format("Allocator snapshots: {} -> {}\n", c.base_name, c.new_name);
  for (const passes::SnapshotDeviceDiff& d : diffs) {
    out += fmt::format("\n{}{}\n", passes::SnapshotDeviceName(d.device),
                       !d.base.present   ? " (only in the new snapshot)"
                       : !d.next.present ? " (only in the base snapshot)"
                                         : "");
    out += fmt::format("  {:<18}  {:>12}  {:>12}  {:>13}\n", "", "base", "new", "change");
    for (const Figure& f : Figures(d)) {
      auto show = [&](int64_t v) { return f.bytes ? FormatBytes(v) : fmt::format("{}", v); };
      out += fmt::format("  {:<18}  {:>12}  {:>12}  {:>13}\n", f.name, show(f.base), show(f.next),
                         Signed(f.next - f.base, f.bytes));
    }
    out += fmt::format("  segments only in base: {} ({}); only in new: {} ({})\n",
                       d.segments_only_base, FormatBytes(d.bytes_only_base), d.segments_only_new,
                       FormatBytes(d.bytes_only_new));
    if (d.sites.empty()) {
      out += "  allocated by site: no change\n";
      continue;
    }
    out += "  Allocated by site, largest change first:\n";
    out += fmt::format("    {:>13}  {:>12}  {:>12}  {}\n", "change", "base", "new", "site");
    size_t shown = c.row_limit < 0 ? d.sites.size() : static_cast<size_t>(c.row_limit);
    for (size_t i = 0; i < d.sites.size() && i < shown; ++i) {
      const passes::SiteChange& s = d.sites[i];
      out += fmt::format("    {:>13}  {:>12}  {:>12}  {}\n", Signed(s.change(), true),
                         FormatBytes(s.base_bytes), FormatBytes(s.new_bytes), Label(s, c));
    }
    if (d.sites.size() > shown)
      out += fmt::format("    ... {} more sites (-n N shows more)\n", d.sites.size() - shown);
  }
  return out;
}

std::string Json(const std::vector<passes::SnapshotDeviceDiff>& diffs,
                 const SnapshotDiffContext& c) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.memory-snapshot-diff/1");
  w.Key("base").String(c.base_name);
  w.Key("new").String(c.new_name);
  w.Key("devices").BeginArray();
  for (const passes::SnapshotDeviceDiff& d : diffs) {
    w.BeginObject();
    w.Key("device").String(passes::SnapshotDeviceName(d.device));
    w.Key("in_base").Bool(d.base.present);
    w.Key("in_new").Bool(d.next.present);
    w.Key("figures").BeginObject();
    for (const Figure& f : Figures(d)) {
      w.Key(f.name).BeginObject();
      w.Key("base").Int(f.base);
      w.Key("new").Int(f.next);
      w.Key("change").Int(f.next - f.base);
      w.EndObject();
    }
    w.EndObject();
    w.Key("segments_only_base").Int(d.segments_only_base);
    w.Key("bytes_only_base").Int(d.bytes_only_base);
    w.Key("segments_only_new").Int(d.segments_only_new);
    w.Key("bytes_only_new").Int(d.bytes_only_new);
    w.Key("sites").BeginArray();
    for (const passes::SiteChange& s : d.sites) {
      w.BeginObject();
      w.Key("change").Int(s.change());
      w.Key("base_bytes").Int(s.base_bytes);
      w.Key("new_bytes").Int(s.new_bytes);
      w.Key("base_blocks").Int(s.base_blocks);
      w.Key("new_blocks").Int(s.new_blocks);
      WriteSiteJson(w, s.in_base ? *c.base : *c.next, s.in_base ? s.base_site : s.new_site);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out + "\n";
}

std::string Csv(const std::vector<passes::SnapshotDeviceDiff>& diffs,
                const SnapshotDiffContext& c) {
  std::string out = "device,what,base,new,change\n";
  for (const passes::SnapshotDeviceDiff& d : diffs) {
    std::string device = passes::SnapshotDeviceName(d.device);
    for (const Figure& f : Figures(d))
      out += fmt::format("{},{},{},{},{}\n", device, f.name, f.base, f.next, f.next - f.base);
    for (const passes::SiteChange& s : d.sites)
      out += fmt::format("{},{},{},{},{}\n", device, CsvField("site: " + Label(s, c)), s.base_bytes,
                         s.new_bytes, s.change());
  }
  return out;
}

}  // namespace

std::string FormatSnapshotDiffAs(OutputFormat format,
                                 const std::vector<passes::SnapshotDeviceDiff>& diffs,
                                 const SnapshotDiffContext& c) {
  if (format == OutputFormat::kJson) return Json(diffs, c);
  if (format == OutputFormat::kCsv) return Csv(diffs, c);
  return Text(diffs, c);
}

}  // namespace profana::report
