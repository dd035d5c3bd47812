// Databases built at test time, on the command line: generated columns, cut names in warnings,
// WAL-mode files; and the nvprof importer's own items (driver API names, the KERNEL table, stream
// order).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "fixtures.h"
#include "profana/importers/nvprof/cupti_names.h"
#include "simdjson.h"
#include "test_util.h"

using profana::test::FirstLine;
using profana::test::Run;
using profana::test::TempPath;
using profana::test::WriteFile;

TEST_CASE("a generated column is refused before it is evaluated", "[sqlite]") {
  // The hostile file of the review: StringTable.value computes a 100 MB string per row. Reading
  // it took 1.1 GB and 25 s; now the schema check refuses the table, naming the column.
  std::string db = profana::test::BuildNvprofDatabase(
      "generated",
      "DROP TABLE StringTable;\n"
      "CREATE TABLE StringTable(_id_ INTEGER PRIMARY KEY, v TEXT, value TEXT GENERATED ALWAYS AS "
      "(printf('%.*c', 100000000, v)));\n"
      "INSERT INTO StringTable(_id_, v) VALUES (1, 'x'), (2, 'y');");
  auto r = Run({"table", db, "--max-memory", "50M"});
  CHECK(r.code == 2);
  CHECK(FirstLine(r.err) == "profana: error: " + db +
                                ": table StringTable, column value: a generated column "
                                "(GENERATED ALWAYS AS ...); profilers never write one, and "
                                "profana does not evaluate them: refused");
  std::remove(db.c_str());
}

TEST_CASE("a 1 MB name is cut in the warning that quotes it", "[sqlite]") {
  // Marker 5 never ends; its name becomes 1,000,000 bytes.
  std::string db = profana::test::BuildNvprofDatabase(
      "long_name",
      "UPDATE StringTable SET value = printf('%.*c', 1000000, 'n') "
      "WHERE _id_ = 5;");
  auto r = Run({"info", db});
  REQUIRE(r.code == 0);
  std::string line;
  for (size_t at = 0; at < r.out.size();) {
    size_t end = r.out.find('\n', at);
    std::string l = r.out.substr(at, end - at);
    if (l.find("never ends") != std::string::npos) line = l;
    at = end == std::string::npos ? r.out.size() : end + 1;
  }
  CHECK(line.find("marker \"" + std::string(80, 'n') + "... (1000000 bytes)\" never ends") !=
        std::string::npos);
  CHECK(line.size() < 300);
  std::remove(db.c_str());
}

TEST_CASE("a WAL-mode database is read, and a write-ahead log beside it is said", "[sqlite]") {
  // Without the marker that never ends, the log's warning is the only one.
  std::string db = profana::test::BuildNvprofDatabase(
      "wal", "DELETE FROM CUPTI_ACTIVITY_KIND_MARKER WHERE _id_ = 5;");
  std::string bytes = profana::test::ReadFile(db);
  auto before = Run({"table", db});
  REQUIRE(before.code == 0);
  // Header bytes 18 and 19 = 2: what `PRAGMA journal_mode=WAL` leaves in the file. It used to be
  // called "not the table nvprof writes"; it reads as the same database.
  bytes[18] = bytes[19] = 2;
  WriteFile(db, bytes);
  auto wal = Run({"table", db});
  CHECK(wal.code == 0);
  CHECK(wal.out == before.out);
  CHECK(wal.err == before.err);
  CHECK(profana::test::ReadFile(db) == bytes);  // the file is left as it was
  // A FILE-wal with content: changes the import cannot see, said as a warning.
  WriteFile(db + "-wal", std::string(4096, '\x37'));
  auto with_log = Run({"table", db, "--strict"});
  CHECK(with_log.code == 2);
  CHECK(with_log.err.find("1 wal_not_read") != std::string::npos);
  CHECK(with_log.err.find("the database is in WAL mode and " + db +
                          "-wal holds changes not yet "
                          "written to it") != std::string::npos);
  std::remove((db + "-wal").c_str());
  std::remove(db.c_str());
}

TEST_CASE("nvprof: driver API calls are named from CUPTI's driver callback ids", "[nvprof]") {
  using profana::nvprof::DriverApiName;
  // Values written out in CUPTI's cupti_driver_cbid.h.
  CHECK(DriverApiName(1) == "cuInit");
  CHECK(DriverApiName(17) == "cuCtxSynchronize");
  CHECK(DriverApiName(276) == "cuMemcpyHtoD_v2");
  CHECK(DriverApiName(307) == "cuLaunchKernel");
  CHECK(DriverApiName(442) == "cuLaunchKernel_ptsz");
  CHECK(DriverApiName(514) == "cuGraphLaunch");
  CHECK(DriverApiName(652) == "cuLaunchKernelEx");
  CHECK(DriverApiName(656) == "cuGraphInstantiateWithParams");
  CHECK(DriverApiName(99999) == "cuDriver#99999");
  CHECK(profana::nvprof::IsDriverLaunchCallback(307));
  CHECK_FALSE(profana::nvprof::IsDriverLaunchCallback(9));
  // The real database's driver rows (cbids 1, 2, 3, 4, 5, 9, 259, 332, 482, 626) by name.
  auto r = Run({"table", "testdata/traces/nvprof/blinkplus-nccl/output.nvvp", "--row-limit", "-1"});
  REQUIRE(r.code == 0);
  for (const char* name : {"cuInit", "cuDriverGetVersion", "cuDeviceGet", "cuDeviceGetCount",
                           "cuDeviceGetName", "cuDeviceGetAttribute", "cuDeviceTotalMem_v2",
                           "cuDeviceGetPCIBusId", "cuDeviceGetUuid", "cuGetProcAddress"})
    CHECK(r.out.find(std::string(" ") + name + " ") != std::string::npos);
  CHECK(r.out.find("cuDriver#") == std::string::npos);
}

TEST_CASE("nvprof: kernels in CUPTI_ACTIVITY_KIND_KERNEL are read", "[nvprof]") {
  // Older nvprof (and --concurrent-kernels off, --analysis-metrics runs) write kernels to KERNEL,
  // not CONCURRENT_KERNEL: the same database with the table renamed gives the same table.
  std::string concurrent = profana::test::BuildNvprofDatabase("concurrent");
  std::string serial = profana::test::BuildNvprofDatabase(
      "serial",
      "ALTER TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL RENAME TO "
      "CUPTI_ACTIVITY_KIND_KERNEL;");
  auto a = Run({"table", concurrent});
  auto b = Run({"table", serial});
  REQUIRE(a.code == 0);
  CHECK(b.code == 0);
  CHECK(b.out == a.out);
  // aten::addmm's CUDA time: the kernel (5 ms .. 6 ms) and the one its cudaMemcpy correlates
  // with (6.5 ms .. 6.75 ms).
  CHECK(b.out.find("1.250ms") != std::string::npos);
  auto info = Run({"info", serial, "--format", "json"});
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(info.out);
  CHECK(int64_t(doc["by_kind"]["kernel"]) == 3);
  std::remove(concurrent.c_str());
  std::remove(serial.c_str());
}

TEST_CASE("nvprof: streams are listed alike from the database and from its JSON", "[nvprof]") {
  // Kernel rows are read in table order: stream 7's come first, but stream 9's kernel (added
  // last) starts earliest, at 4 ms. The JSON written by convert lists events by time, and read
  // back numbers stream 9 first; the database's import numbers threads the same way, so idle
  // and queue list the streams in the same order from both.
  std::string db = profana::test::BuildNvprofDatabase(
      "streams",
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (3, 211, 3600000, 3700000, 100, 7, 12, 0);\n"
      "INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES "
      "(4, 4000000, 4500000, 0, 1, 9, 12, 4);");
  std::string json = TempPath("streams") + ".json";
  REQUIRE(Run({"convert", "-q", db, "-o", json}).code == 0);
  for (const char* command : {"idle", "queue"}) {
    auto a = Run({command, db});
    auto b = Run({command, json});
    INFO(command);
    REQUIRE(a.code == 0);
    CHECK(a.out == b.out);
  }
  auto idle = Run({"idle", db});
  CHECK(idle.out.find("stream 9") < idle.out.find("stream 7"));
  std::remove(db.c_str());
  std::remove(json.c_str());
}
