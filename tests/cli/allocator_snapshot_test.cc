// profana memory on allocator snapshots: the real ResNet-18 snapshot of
// testdata/live/snapshot_resnet_amp, plain or gzipped, in every format; hostile snapshots exit 2
// with the byte offset.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "pickle_bytes.h"
#include "profana/base/input_buffer.h"
#include "simdjson.h"
#include "test_util.h"

namespace {

using namespace profana;
using test::PickleBytes;

const char* kSnapshotFile = "live/snapshot_resnet_amp/snapshot.pickle.gz";

}  // namespace

TEST_CASE("profana memory reads a snapshot, plain or gzipped, in every format", "[snapshot][cli]") {
  std::string gz = test::TestData(kSnapshotFile);
  std::string plain = "/tmp/profana_snapshot_test.pickle";
  {
    auto input = ReadInput(gz);
    REQUIRE(input.ok());
    std::ofstream(plain, std::ios::binary).write(input->data.get(), input->size);
  }
  test::CliRun text = test::Run({"memory", gz});
  REQUIRE(text.code == 0);
  CHECK_THAT(
      text.out,
      Catch::Contains("    allocated         65.00 MiB  (memory_allocated; requested 65.00 MiB"));
  CHECK_THAT(text.out,
             Catch::Contains("    reserved         342.00 MiB  in 28 segments (0 expandable)"));
  CHECK_THAT(text.out, Catch::Contains("peak allocated                  312.45 MiB  at 935.054 ms "
                                       "(entry #1762)"));
  test::CliRun again = test::Run({"memory", plain});
  CHECK(again.code == 0);
  CHECK(again.out.substr(again.out.find('\n')) == text.out.substr(text.out.find('\n')));
  test::CliRun json = test::Run({"memory", gz, "--format", "json"});
  REQUIRE(json.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(json.out).get(doc) == simdjson::SUCCESS);
  CHECK(std::string_view(doc["schema"]) == "profana.memory-snapshot/1");
  CHECK(int64_t(doc["devices"].at(0)["state"]["allocated"]) == 68157440);
  CHECK(int64_t(doc["devices"].at(0)["history"]["peak_allocated"]["bytes"]) == 327629216);
  test::CliRun csv = test::Run({"memory", gz, "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.rfind("device,entry,time_us,action,bytes,allocated,reserved\n", 0) == 0);
  CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == 4010);
  test::CliRun html = test::Run({"memory", gz, "--format", "html"});
  REQUIRE(html.code == 0);
  CHECK_THAT(html.out, Catch::Contains("class=\"peaklabel\""));
  CHECK_THAT(html.out, Catch::Contains(">Time (ms)<"));
  test::CliRun device = test::Run({"memory", gz, "--device", "cuda:1"});
  CHECK(device.code == 2);
  CHECK_THAT(device.err, Catch::Contains("the snapshot has no such device (it has: cuda:0)"));
  test::CliRun raw = test::Run({"memory", gz, "--format", "raw"});
  CHECK(raw.code == 2);
  test::CliRun diff = test::Run({"diff", gz, plain});
  CHECK(diff.code == 0);
  CHECK_THAT(diff.out, Catch::Contains("allocated by site: no change"));
  test::CliRun mixed = test::Run({"diff", gz, test::TestData("memory/categories.json")});
  CHECK(mixed.code == 2);
  std::remove(plain.c_str());
}

TEST_CASE("hostile snapshots exit 2 with the byte offset", "[snapshot][cli]") {
  std::string path = "/tmp/profana_hostile.pickle";
  auto run = [&](const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    return test::Run({"memory", path});
  };
  // Every opcode that runs code (and protocol 0's text forms), deep nesting, a huge count, and
  // truncation.
  for (auto [op, name] : std::vector<std::pair<int, std::string>>{
           {'c', "GLOBAL"},    {0x93, "STACK_GLOBAL"}, {'R', "REDUCE"},
           {'b', "BUILD"},     {'i', "INST"},          {'o', "OBJ"},
           {0x81, "NEWOBJ"},   {0x92, "NEWOBJ_EX"},    {'P', "PERSID"},
           {'Q', "BINPERSID"}, {0x82, "EXT1"},         {0x83, "EXT2"},
           {0x84, "EXT4"},     {0x97, "NEXT_BUFFER"},  {0x98, "READONLY_BUFFER"},
           {'I', "INT"},       {'L', "LONG"},          {'F', "FLOAT"},
           {'S', "STRING"},    {'V', "UNICODE"},       {'g', "GET"},
           {'p', "PUT"}}) {
    test::CliRun code = run(PickleBytes().Byte(op).Raw("os\nsystem\n").Stop().str());
    INFO(name);
    CHECK(code.code == 2);
    CHECK_THAT(code.err, Catch::Contains(path + ": byte 2: opcode " + name + " (0x"));
    CHECK_THAT(code.err, Catch::Contains("refused"));
  }
  PickleBytes deep;
  for (int i = 0; i < 1100; ++i) deep.EmptyList();
  for (int i = 0; i < 1099; ++i) deep.Append();
  test::CliRun nested = run(deep.Stop().str());
  CHECK(nested.code == 2);
  CHECK_THAT(nested.err, Catch::Contains(path + ": byte 2125: values nested deeper than 1024"));
  test::CliRun count = run(PickleBytes().Byte(0x8e).Le(uint64_t{1} << 60, 8).Stop().str());
  CHECK(count.code == 2);
  CHECK_THAT(count.err, Catch::Contains(path + ": byte 2: the pickle ends inside BINBYTES8"));
  std::string real = test::ReadFile(test::TestData(kSnapshotFile));
  auto input = InputFromBytes(real, "real");
  REQUIRE(input.ok());
  test::CliRun cut = run(std::string(input->view().substr(0, 400000)));
  CHECK(cut.code == 2);
  CHECK_THAT(cut.err,
             Catch::Contains(path + ": byte 393313: the pickle ends inside FRAME (it needs "
                                    "65537 more bytes, 6678 are left)"));
  std::remove(path.c_str());
}
