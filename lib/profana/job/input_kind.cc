#include "profana/job/input_kind.h"

#include "profana/base/byte_source.h"
#include "profana/importers/allocator_snapshot/snapshot_importer.h"
#include "profana/job/summary_file.h"

namespace profana::job {

InputKind InputKindOf(const std::string& path) {
  if (path == "-") return InputKind::kTrace;  // read once, by the load
  std::string head = ByteSource::Head(path, 256);
  if (LooksLikeSummary(head)) return InputKind::kSummary;
  if (snapshot::SniffPickle(head)) return InputKind::kSnapshot;
  return InputKind::kTrace;
}

}  // namespace profana::job
