// libFuzzer target for allocator snapshots (the data-only pickle reader and the snapshot
// importer): any bytes either fail with a Status or give a snapshot that every analysis and
// report of `profana memory` and `profana diff` runs on, in every format; the page must hold no
// control character. Seeds: small snapshots cut from testdata/live's real one (smoke.sh).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/importers/allocator_snapshot/snapshot_importer.h"
#include "profana/passes/memory/snapshot_analysis.h"
#include "profana/passes/memory/snapshot_diff.h"
#include "profana/reporters/snapshot_diff_reporter.h"
#include "profana/reporters/snapshot_reporter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // A small budget: a gzip bomb or a pickle of millions of values stops at the limit.
  profana::InputLimits limits;
  limits.max_bytes = 16 << 20;
  auto input = profana::InputFromBytes(bytes, "fuzz.pickle", limits);
  if (!input.ok()) return 0;
  auto s = profana::snapshot::ImportAllocatorSnapshot(*input);
  if (!s.ok()) return 0;
  using profana::report::OutputFormat;
  profana::passes::SnapshotAnalysis a = profana::passes::AnalyzeSnapshot(*s);
  for (OutputFormat f :
       {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kHtml}) {
    std::string out = profana::report::FormatSnapshotAs(f, *s, a, {"fuzz.pickle", 10});
    if (f == OutputFormat::kHtml)
      for (char c : out)
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
          std::abort();
  }
  auto diffs = profana::passes::DiffSnapshots(*s, a, *s, a);
  profana::report::SnapshotDiffContext c{&*s, &*s, "a", "b", 30};
  for (OutputFormat f : {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv})
    profana::report::FormatSnapshotDiffAs(f, diffs, c);
  return 0;
}
