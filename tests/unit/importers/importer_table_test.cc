// The importer table is the only way in: its rows name the formats in --help and errors, each
// row's sniffer claims only its own format, and LoadTrace's fast paths for files (the native
// mapping, JSON streaming) are rows of the table too.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>

#include "profana/importers/importer.h"
#include "profana/io/native_format.h"
#include "profana/io/native_writer.h"
#include "test_util.h"

namespace {

std::string WriteTemp(const std::string& bytes, const char* suffix) {
  std::string path = "/tmp/profana-importer-table-" + std::to_string(getpid()) + suffix;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("FormatsSummary names every row of the importer table in order", "[importers]") {
  CHECK(profana::FormatsSummary() ==
        "rocprofv3 JSON, Chrome-trace JSON, Nsight Systems SQLite exports, rocmProfileData "
        "databases, rocpd databases, nvprof databases, profana native files and native text "
        "twins");
}

TEST_CASE("each importer's sniffer claims only its own format", "[importers]") {
  using profana::native::kMagicView;
  using profana::native::kTextMagic;
  const std::pair<const char*, std::string> samples[] = {
      {"chrome-json", "\xEF\xBB\xBF {\"traceEvents\": []}"},
      {"chrome-json", "\n[{\"ph\": \"X\"}]"},
      {"nvprof-sqlite", std::string("SQLite format 3\0\x10\x00", 18)},
      {"profana-native", std::string(kMagicView) + std::string(8, '\0')},
      {"profana-native-text", std::string(kTextMagic) + " 1\n"},
  };
  for (const auto& [name, bytes] : samples) {
    INFO(name);
    int claims = 0;
    for (const profana::ImporterInfo& info : profana::Importers()) claims += info.sniff(bytes);
    CHECK(claims == 1);
    const profana::ImporterInfo* found = profana::DetectFormat(bytes);
    REQUIRE(found);
    CHECK(std::string(found->name) == name);
  }
  CHECK(profana::DetectFormat("PK\x03\x04 a zip file") == nullptr);

  // A rocprofv3 document is a JSON object too, which chrome-json's sniffer would take: its row
  // comes first, and its first key decides. (The SQLite formats are told apart by their tables:
  // gpu_databases_test builds one database of each.)
  const profana::ImporterInfo* rocprofv3 =
      profana::DetectFormat(" {\n  \"rocprofiler-sdk-tool\": [{\"metadata\": {}}]}");
  REQUIRE(rocprofv3);
  CHECK(std::string(rocprofv3->name) == "rocprofv3-json");
  const profana::ImporterInfo* kineto = profana::DetectFormat("{\"traceEvents\": [], \"x\": 1}");
  REQUIRE(kineto);
  CHECK(std::string(kineto->name) == "chrome-json");
}

TEST_CASE("LoadTrace reads files through the table's open paths", "[importers]") {
  std::string json_path = profana::test::TestData("bad/wrong_types.json");
  auto json = profana::LoadTrace(json_path);
  REQUIRE(json.ok());
  CHECK(json->trace.metadata.container.empty());  // no container line: read as JSON

  // The native file goes through the mapping row: its container line names the file's size.
  std::string native = profana::native::WriteNative(json->trace);
  std::string path = WriteTemp(native, ".pfa");
  auto mapped = profana::LoadTrace(path);
  REQUIRE(mapped.ok());
  CHECK(mapped->trace.metadata.container == "profana-native " +
                                                std::to_string(profana::native::kVersion) + " (" +
                                                std::to_string(native.size()) + " bytes)");
  CHECK(mapped->trace.events.size() == json->trace.events.size());

  // The mapping row applies the same --max-memory budget as a whole read.
  profana::LoadOptions tight;
  tight.limits.max_bytes = native.size() - 1;
  auto refused = profana::LoadTrace(path, tight);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == profana::ErrorCode::kTooLarge);
  CHECK(refused.status().message().rfind(path + ": byte 0: is ", 0) == 0);
  std::remove(path.c_str());
}
