// `profana memory SNAPSHOT.pickle`: an allocator snapshot's analysis (passes/memory/) as text, the
// profana.memory-snapshot/1 JSON document, CSV (the history, one row per entry) or the memory page
// (memory_page.h). Formatting only.
#pragma once

#include <string>

#include "profana/base/row_limit.h"
#include "profana/model/allocator_snapshot.h"
#include "profana/passes/memory/snapshot_analysis.h"
#include "profana/reporters/output_format.h"

namespace profana {
class JsonWriter;
}  // namespace profana

namespace profana::report {

struct SnapshotReportContext {
  std::string input;                                              // as given on the command line
  int top = static_cast<int>(DefaultRowLimit(RowKind::kRanked));  // rows per list in text
};

std::string FormatSnapshotText(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a,
                               const SnapshotReportContext& c);
std::string FormatSnapshotJson(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a,
                               const SnapshotReportContext& c);
// device,entry,time_us,action,bytes,allocated,reserved: one row per history entry.
std::string FormatSnapshotCsv(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a);
// One plot per device: memory allocated before the history, allocated in it, and reserved but
// not allocated, stacked; times from the history's first entry; the allocated peak and the
// out-of-memory events marked.
std::string FormatSnapshotHtml(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a,
                               const std::string& title);

// text, json, csv or html (the page's title: the input's file name).
std::string FormatSnapshotAs(OutputFormat format, const AllocatorSnapshot& s,
                             const passes::SnapshotAnalysis& a, const SnapshotReportContext& c);

// An allocation site in one line: "resnet.py:93 forward, at::native::batch_norm_cuda(...)"
// (the Python frame as _memory_viz prints frames, file:line function; the native frame's
// template and parameter lists elided); "<no frames>" for a site with neither.
std::string SiteLabel(const AllocatorSnapshot& s, const passes::AllocationSite& site);

// A site in JSON: the keys "python" and "frame", each {"name", "filename", "line"} or null.
void WriteSiteJson(JsonWriter& w, const AllocatorSnapshot& s, const passes::AllocationSite& site);

}  // namespace profana::report
