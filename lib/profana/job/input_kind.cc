#include "profana/job/input_kind.h"

#include "profana/importers/allocator_snapshot/snapshot_importer.h"
#include "profana/job/summary_file.h"

namespace profana::job {

InputKind InputKindOf(const std::string& path) {
  if (path == "-") return InputKind::kTrace;  // read once, by the load
  Result<InputFile> file = InputFile::Open(path);
  return file.ok() ? InputKindOf(*file) : InputKind::kTrace;
}

InputKind InputKindOf(InputFile& file) {
  std::string_view head = file.Head(256);  // empty for standard input: read once, by the load
  if (LooksLikeSummary(head)) return InputKind::kSummary;
  if (snapshot::SniffPickle(head)) return InputKind::kSnapshot;
  return InputKind::kTrace;
}

}  // namespace profana::job
