#include "profana/importers/native/native_importer.h"

#include <memory>

#include "fmt/format.h"
#include "profana/base/byte_size.h"
#include "profana/base/mapped_file.h"
#include "profana/io/native_format.h"
#include "profana/io/native_reader.h"
#include "profana/io/native_text.h"

namespace profana::native {

bool SniffNativeBinary(std::string_view first_bytes) { return SniffNative(first_bytes); }
bool SniffNativeTextFile(std::string_view first_bytes) { return SniffNativeText(first_bytes); }

void SetContainer(Trace* trace, const char* container, uint64_t bytes) {
  trace->metadata.container = fmt::format("{} {} ({} bytes)", container, kVersion, bytes);
}

Result<LoadedTrace> ImportNativeBinary(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(LoadedTrace loaded, ReadNative(input.view(), input.name));
  SetContainer(&loaded.trace, "profana-native", input.size);
  return loaded;
}

Result<std::optional<LoadedTrace>> OpenNativeBinary(const std::string& path,
                                                    const LoadOptions& options) {
  auto mapped = MappedFile::Open(path);
  if (!mapped.ok() || !SniffNative(mapped->bytes())) return std::optional<LoadedTrace>();
  uint64_t limit = options.limits.max_bytes, size = mapped->bytes().size();
  if (limit && size > limit)  // the analyses grow with it: the same budget as any input
    return TooLargeError(path, "byte 0",
                         "is " + FormatBytes(static_cast<int64_t>(size)) + ", more than", limit);
  // The trace's columns read the mapping in place, and keep it alive.
  auto shared = std::make_shared<MappedFile>(std::move(*mapped));
  PROFANA_ASSIGN_OR_RETURN(LoadedTrace loaded, ReadNative(shared->bytes(), path, shared));
  SetContainer(&loaded.trace, "profana-native", size);
  return std::optional<LoadedTrace>(std::move(loaded));
}

Result<Trace> ImportNativeText(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, ReadNativeText(input.view(), input.name));
  SetContainer(&trace, "profana-native-text", input.size);
  return trace;
}

}  // namespace profana::native
