#include "profana/base/streamed_output.h"

#include <memory>
#include <system_error>

#include "profana/base/output_file.h"
#include "profana/base/terminal_text.h"
#include "profana/base/worker_pool.h"
#include "profana/base/write_behind_sink.h"

namespace profana {
namespace {

// Hands each chunk on, made printable first where asked.
class PrintableSink final : public OutputSink {
 public:
  PrintableSink(OutputSink* next, bool printable) : next_(next), printable_(printable) {}
  Status Write(std::string_view bytes) override {
    if (!printable_ || !HasControlCharactersInText(bytes)) return next_->Write(bytes);
    std::string text(bytes);
    MakePrintable(&text, /*keep_colors=*/true);
    return next_->Write(text);
  }

 private:
  OutputSink* next_;
  bool printable_;
};

// A -o file written chunk by chunk.
class ReplacingFileSink final : public OutputSink {
 public:
  explicit ReplacingFileSink(ReplacingFile* file) : file_(file) {}
  Status Write(std::string_view bytes) override { return file_->Write(bytes); }

 private:
  ReplacingFile* file_;
};

// Runs `write` into `sink` through a WriteBehindSink where a second core can do the writing.
Status WriteBehind(OutputSink* sink, const WriteOutput& write) {
  std::unique_ptr<WriteBehindSink> behind;
  try {
    if (AvailableCores() >= 2) behind = std::make_unique<WriteBehindSink>(sink);
  } catch (const std::system_error&) {
    // No thread to be had (a caller's tight limits): write on this one.
  }
  if (!behind) return write(sink);
  Status made = write(behind.get());
  Status written = behind->Finish();
  return made.ok() ? written : made;
}

}  // namespace

Status WriteStreamed(OutputSink* sink, bool printable, const WriteOutput& write) {
  PrintableSink printable_sink(sink, printable);
  return WriteBehind(&printable_sink, write);
}

Status WriteFileStreamed(const std::string& path, bool printable, const WriteOutput& write) {
  ReplacingFile file;
  PROFANA_RETURN_IF_ERROR(file.Open(path));
  ReplacingFileSink file_sink(&file);
  PROFANA_RETURN_IF_ERROR(WriteStreamed(&file_sink, printable, write));
  return file.Commit();
}

}  // namespace profana
