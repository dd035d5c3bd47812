#include "profana/importers/native/native_importer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

// "profana-native 2 (N bytes)": the format and the version the file was written in (the reader
// has checked it: a binary file's u32 at byte 8, a text twin's number after its magic).
void SetContainer(Trace* trace, const char* container, std::string_view bytes, uint64_t size) {
  uint32_t version = 0;
  if (SniffNative(bytes) && bytes.size() >= 12) {
    for (int i = 3; i >= 0; --i) version = version << 8 | static_cast<unsigned char>(bytes[8 + i]);
  } else {
    for (size_t i = kTextMagic.size() + 1; i < bytes.size() && bytes[i] >= '0' && bytes[i] <= '9';
         ++i)
      version = version * 10 + static_cast<uint32_t>(bytes[i] - '0');
  }
  trace->metadata.container = fmt::format("{} {} ({} bytes)", container, version, size);
}

Result<LoadedTrace> ImportNativeBinary(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(LoadedTrace loaded, ReadNative(input.view(), input.name));
  SetContainer(&loaded.trace, "profana-native", input.view(), input.size);
  return loaded;
}

namespace {

// Whether the regular file starts with the native magic: read before mapping, so that another
// format's file is not mapped (and read ahead) whole only to be told apart.
bool StartsAsNative(const InputFile& file) {
  char magic[8];
  return file.regular() &&
         pread(file.fd(), magic, sizeof magic, 0) == static_cast<ssize_t>(sizeof magic) &&
         SniffNative(std::string_view(magic, sizeof magic));
}

}  // namespace

Result<std::optional<LoadedTrace>> OpenNativeBinary(InputFile& file, const LoadOptions& options) {
  if (!StartsAsNative(file)) return std::optional<LoadedTrace>();
  const std::string& path = file.path();
  auto mapped = MappedFile::Open(file);
  if (!mapped.ok() || !SniffNative(mapped->bytes())) return std::optional<LoadedTrace>();
  uint64_t limit = options.limits.max_bytes, size = mapped->bytes().size();
  if (limit && size > limit)  // the analyses grow with it: the same budget as any input
    return TooLargeError(path, "byte 0",
                         "is " + FormatBytes(static_cast<int64_t>(size)) + ", more than", limit);
  // The trace's columns read the mapping in place, and keep it alive.
  auto shared = std::make_shared<MappedFile>(std::move(*mapped));
  PROFANA_ASSIGN_OR_RETURN(LoadedTrace loaded, ReadNative(shared->bytes(), path, shared));
  SetContainer(&loaded.trace, "profana-native", shared->bytes(), size);
  return std::optional<LoadedTrace>(std::move(loaded));
}

Result<Trace> ImportNativeText(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, ReadNativeText(input.view(), input.name));
  SetContainer(&trace, "profana-native-text", input.view(), input.size);
  return trace;
}

}  // namespace profana::native
