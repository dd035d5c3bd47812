#include "profana/importers/native/native_importer.h"

#include "fmt/format.h"
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

Result<Trace> ImportNativeText(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, ReadNativeText(input.view(), input.name));
  SetContainer(&trace, "profana-native-text", input.size);
  return trace;
}

}  // namespace profana::native
