#include "profana/io/native_writer.h"

#include <cstring>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

#include "profana/base/crc32c.h"
#include "profana/io/native_format.h"
#include "profana/io/native_records.h"

namespace profana::native {
namespace {

struct Section {
  uint32_t id;
  const char* data;
  uint64_t size;
};

std::string StringsSection(const StringPool& pool) {
  std::string out;
  uint64_t count = pool.size();
  Put(&out, count);
  uint64_t at = 0;
  for (uint64_t i = 0; i < count; ++i) {
    Put(&out, at);
    at += pool.Get(StringId(static_cast<uint32_t>(i))).size();
  }
  Put(&out, at);
  out.reserve(out.size() + at);
  for (uint64_t i = 0; i < count; ++i) out += pool.Get(StringId(static_cast<uint32_t>(i)));
  return out;
}

}  // namespace

std::string WriteNative(const Trace& t, const std::optional<FunctionEventIndex>& function_index) {
  std::string strings = StringsSection(t.strings);
  std::string metadata = EncodeMetadata(t.metadata);
  std::string diagnostics = EncodeDiagnostics(t.diagnostics);
  std::vector<Section> sections = {
      {kStrings, strings.data(), strings.size()},
      {kMetadata, metadata.data(), metadata.size()},
      {kDiagnostics, diagnostics.data(), diagnostics.size()},
      {kThreads, reinterpret_cast<const char*>(t.threads.data()),
       t.threads.size() * sizeof(ThreadInfo)},
  };
  // A column kept as one value or narrow is written as the array of its values, as the format
  // keeps every column.
  std::deque<std::string> arrays;  // a deque: the sections point into its strings
  auto add = [&](const ColumnInfo& c, const auto& column) {
    using T = std::decay_t<decltype(column[0])>;
    size_t bytes = column.size() * sizeof(T);
    if (column.is_array()) {
      sections.push_back({c.id, reinterpret_cast<const char*>(column.data()), bytes});
      return;
    }
    std::string& values = arrays.emplace_back(bytes, '\0');
    for (size_t i = 0; i < column.size(); ++i) {
      T v = column[i];
      std::memcpy(values.data() + i * sizeof(T), &v, sizeof(T));
    }
    sections.push_back({c.id, values.data(), bytes});
  };
  ForEachColumnSection(t, add);
  std::string index;
  if (function_index) {
    const FunctionEventIndex& x = *function_index;
    Put(&index, x.version);
    Put(&index, uint32_t{0});
    for (uint64_t v : {x.removed_duplicates, x.kernels_attributed, x.kernels_unattributed,
                       x.external_id_mismatches})
      Put(&index, v);
    sections.push_back({kFunctionIndex, index.data(), index.size()});
    ForEachIndexColumnSection(x, add);
  }

  // Header, section table, then each section at an 8-byte boundary (so a reader may use the
  // columns in place), zero padding between.
  uint64_t at = kHeaderSize + uint64_t{kSectionEntrySize} * sections.size();
  std::string table;
  for (const Section& s : sections) {
    at = (at + 7) & ~uint64_t{7};
    Put(&table, s.id);
    Put(&table, uint32_t{0});  // flags
    Put(&table, at);
    Put(&table, s.size);
    Put(&table, Crc32c(s.data, s.size));
    Put(&table, uint32_t{0});  // reserved
    at += s.size;
  }
  std::string out;
  out.reserve(at);
  out.append(kMagic, 8);
  Put(&out, kVersion);
  Put(&out, kHeaderSize);
  Put(&out, static_cast<uint32_t>(sections.size()));
  Put(&out, uint32_t{0});  // flags
  Put(&out, Crc32c(table));
  Put(&out, Crc32c(out.data(), out.size()));
  out += table;
  for (const Section& s : sections) {
    out.resize((out.size() + 7) & ~size_t{7}, '\0');
    if (s.size) out.append(s.data, s.size);
  }
  return out;
}

}  // namespace profana::native
