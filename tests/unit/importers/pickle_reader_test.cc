// The data-only pickle reader: every data opcode a protocol 2-5 pickle of plain values uses reads
// back its value; every opcode that runs code, every text-form opcode and unknown bytes are
// refused with their name and byte offset; nesting, counts, lengths, memo indices and memory are
// bounded; cut-short pickles fail at every byte, never crash.
#include "profana/importers/allocator_snapshot/pickle_reader.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "pickle_bytes.h"
#include "profana/base/input_buffer.h"
#include "test_util.h"

namespace {

using profana::ErrorCode;
using profana::pickle::Kind;
using profana::pickle::PickleDocument;
using profana::pickle::ReadPickle;
using profana::pickle::ValueId;
using profana::test::PickleBytes;

profana::Result<PickleDocument> Read(const std::string& bytes, uint64_t max_bytes = 0) {
  return ReadPickle(bytes, "p.pickle", max_bytes);
}

// The value of `key` in a dict.
ValueId Get(const PickleDocument& d, ValueId dict, const std::string& key) {
  const auto& items = d.Items(dict);
  for (size_t i = 0; i + 1 < items.size(); i += 2)
    if (d.Text(items[i]) == key) return items[i + 1];
  FAIL("no key " << key);
  return ValueId::None();
}

}  // namespace

TEST_CASE("a pickle of plain values reads back every value", "[pickle]") {
  PickleBytes p;
  p.Byte(0x95).Le(0, 8);  // FRAME (a read-ahead hint)
  p.EmptyDict().Memoize().Mark();
  p.Key("small").Int(200).Key("medium").Int(60000).Key("negative").Int(-5);
  p.Key("address").Int(140467268222976).Key("max").Int(INT64_MAX).Key("min").Int(INT64_MIN);
  p.Key("wide").Byte(0x8a).Byte(9).Le(0, 8).Byte(1);    // 2^64: wider than 64 bits
  p.Key("padded").Byte(0x8a).Byte(9).Le(7, 8).Byte(0);  // 7 in nine bytes
  p.Key("zero").Byte(0x8a).Byte(0);                     // LONG1 of no bytes: 0
  p.Key("pi").Float(3.25).Key("yes").Bool(true).Key("no").Bool(false).Key("nothing").None();
  p.Key("name").Str("caf\xc3\xa9").Key("raw").Bytes(std::string("\x00\xff", 2));
  p.Key("long_name").Str(std::string(300, 'x'));
  p.Key("pair").Int(1).Int(2).Tuple2();
  p.Key("list").EmptyList().Memoize().Mark().Int(1).Int(2).Int(3).Appends();
  p.Key("again").Get(1);  // the same list, from the memo
  p.SetItems().Stop();
  auto doc = Read(p.str());
  REQUIRE(doc.ok());
  const PickleDocument& d = *doc;
  ValueId root = d.root();
  REQUIRE(d.kind(root) == Kind::kDict);
  CHECK(d.Int(Get(d, root, "small")) == 200);
  CHECK(d.Int(Get(d, root, "medium")) == 60000);
  CHECK(d.Int(Get(d, root, "negative")) == -5);
  CHECK(d.Int(Get(d, root, "address")) == 140467268222976);
  CHECK(d.Int(Get(d, root, "max")) == INT64_MAX);
  CHECK(d.Int(Get(d, root, "min")) == INT64_MIN);
  CHECK(d.kind(Get(d, root, "wide")) == Kind::kBigInt);
  CHECK(d.Int(Get(d, root, "padded")) == 7);
  CHECK(d.Int(Get(d, root, "zero")) == 0);
  CHECK(d.Float(Get(d, root, "pi")) == 3.25);
  CHECK(d.kind(Get(d, root, "yes")) == Kind::kBool);
  CHECK(d.Int(Get(d, root, "yes")) == 1);
  CHECK(d.Int(Get(d, root, "no")) == 0);
  CHECK(d.kind(Get(d, root, "nothing")) == Kind::kNone);
  CHECK(d.Text(Get(d, root, "name")) == "caf\xc3\xa9");
  CHECK(d.kind(Get(d, root, "raw")) == Kind::kBytes);
  CHECK(d.Text(Get(d, root, "raw")) == std::string("\x00\xff", 2));
  CHECK(d.Text(Get(d, root, "long_name")).size() == 300);
  ValueId pair = Get(d, root, "pair");
  REQUIRE(d.kind(pair) == Kind::kTuple);
  CHECK(d.Items(pair).size() == 2);
  ValueId list = Get(d, root, "list");
  CHECK(Get(d, root, "again") == list);  // one value, referred to twice
  REQUIRE(d.Items(list).size() == 3);
  CHECK(d.Int(d.Items(list)[2]) == 3);
}

TEST_CASE("every opcode that runs code, and every text-form opcode, is refused with its offset",
          "[pickle]") {
  struct Case {
    int op;
    const char* name;
  };
  const Case cases[] = {{'c', "GLOBAL"},    {0x93, "STACK_GLOBAL"}, {'R', "REDUCE"},
                        {'b', "BUILD"},     {'i', "INST"},          {'o', "OBJ"},
                        {0x81, "NEWOBJ"},   {0x92, "NEWOBJ_EX"},    {'P', "PERSID"},
                        {'Q', "BINPERSID"}, {0x82, "EXT1"},         {0x83, "EXT2"},
                        {0x84, "EXT4"},     {0x97, "NEXT_BUFFER"},  {0x98, "READONLY_BUFFER"},
                        {'I', "INT"},       {'L', "LONG"},          {'F', "FLOAT"},
                        {'S', "STRING"},    {'V', "UNICODE"},       {'g', "GET"},
                        {'p', "PUT"}};
  for (const Case& c : cases) {
    PickleBytes p;
    p.EmptyList().Int(7).Byte(c.op).Raw("os\nsystem\n").Stop();
    auto doc = Read(p.str());
    INFO(c.name);
    REQUIRE(!doc.ok());
    CHECK(doc.status().code() == ErrorCode::kMalformed);
    CHECK_THAT(doc.status().message(),
               Catch::StartsWith(std::string("p.pickle: byte 5: opcode ") + c.name + " (0x"));
    CHECK_THAT(doc.status().message(), Catch::Contains("refused"));
  }
  auto unknown = Read(PickleBytes().Byte(0xff).Stop().str());
  REQUIRE(!unknown.ok());
  CHECK(unknown.status().message() ==
        "p.pickle: byte 2: unknown opcode 0xff (not a pickle, or a protocol newer than 5)");
}

TEST_CASE("nesting deeper than the JSON limit is refused where it happens", "[pickle]") {
  // Lists on the stack, each appended to the one below: the 1,024th APPEND makes level 1,025.
  PickleBytes p;
  for (int i = 0; i < 1100; ++i) p.EmptyList();
  size_t at = 0;
  for (int i = 0; i < 1099; ++i) {
    if (i == 1023) at = p.size();
    p.Append();
  }
  auto doc = Read(p.Stop().str());
  REQUIRE(!doc.ok());
  CHECK(doc.status().message() ==
        "p.pickle: byte " + std::to_string(at) + ": values nested deeper than 1024 levels");
  // Marks open without end.
  PickleBytes marks;
  for (int i = 0; i < 1025; ++i) marks.Mark();
  auto deep = Read(marks.Stop().str());
  REQUIRE(!deep.ok());
  CHECK(deep.status().message() == "p.pickle: byte 1026: more than 1024 MARKs open");
  // 1,023 levels read.
  PickleBytes ok;
  for (int i = 0; i < 1023; ++i) ok.EmptyList();
  for (int i = 0; i < 1022; ++i) ok.Append();
  CHECK(Read(ok.Stop().str()).ok());
}

TEST_CASE("lengths and counts past the end are truncation at the opcode, not allocation",
          "[pickle]") {
  struct Case {
    PickleBytes bytes;
    const char* op;
  };
  std::vector<Case> cases;
  cases.push_back({PickleBytes().Byte(0x8d).Le(uint64_t{1} << 62, 8), "BINUNICODE8"});
  cases.push_back({PickleBytes().Byte(0x8e).Le(~uint64_t{0}, 8), "BINBYTES8"});
  cases.push_back({PickleBytes().Byte(0x96).Le(uint64_t{1} << 40, 8), "BYTEARRAY8"});
  cases.push_back({PickleBytes().Byte('X').Le(0xffffffff, 4), "BINUNICODE"});
  cases.push_back({PickleBytes().Byte('B').Le(0xfffffff0, 4), "BINBYTES"});
  cases.push_back({PickleBytes().Byte(0x8b).Le(0x7fffffff, 4), "LONG4"});
  cases.push_back({PickleBytes().Byte(0x95).Le(uint64_t{1} << 50, 8), "FRAME"});
  for (Case& c : cases) {
    auto doc = Read(c.bytes.Stop().str());
    INFO(c.op);
    REQUIRE(!doc.ok());
    CHECK(doc.status().code() == ErrorCode::kTruncated);
    CHECK_THAT(doc.status().message(),
               Catch::StartsWith(std::string("p.pickle: byte 2: the pickle ends inside ") + c.op));
  }
  auto negative = Read(PickleBytes().Byte(0x8b).Le(0xffffffff, 4).Stop().str());
  REQUIRE(!negative.ok());
  CHECK(negative.status().message() == "p.pickle: byte 2: LONG4 with a negative length");
  // A memo index never stored (the memo is a hash table: a huge index costs nothing).
  auto recall =
      Read(PickleBytes().None().Byte('r').Le(0xffffffff, 4).Byte('j').Le(7, 4).Stop().str());
  REQUIRE(!recall.ok());
  CHECK(recall.status().message() == "p.pickle: byte 8: memo entry 7 was never stored");
}

TEST_CASE("the memory budget bounds the values a pickle makes", "[pickle]") {
  PickleBytes p;
  p.EmptyList().Mark();
  for (int i = 0; i < 100000; ++i) p.None();
  p.Appends().Stop();
  CHECK(Read(p.str()).ok());
  auto doc = Read(p.str(), 1 << 20);
  REQUIRE(!doc.ok());
  CHECK(doc.status().code() == ErrorCode::kTooLarge);
  CHECK_THAT(doc.status().message(),
             Catch::Contains("the unpickled values pass the memory budget of 1048576 bytes"));
}

TEST_CASE("containers are never changed once inside another, so values have no cycles",
          "[pickle]") {
  // a = []; a.append(a)
  auto self = Read(PickleBytes().EmptyList().Memoize().Get(0).Append().Stop().str());
  REQUIRE(!self.ok());
  CHECK(self.status().message() == "p.pickle: byte 6: a list inside itself");
  // b = [a]; then a.append(b): a is inside b already.
  PickleBytes p;
  p.EmptyList().Memoize();                  // a (memo 0)
  p.EmptyList().Memoize().Get(0).Append();  // b = [a] (memo 1)
  p.Get(0).Get(1).Append().Stop();          // a.append(b)
  auto cycle = Read(p.str());
  REQUIRE(!cycle.ok());
  CHECK_THAT(cycle.status().message(),
             Catch::EndsWith("adding to a list that is already inside another value (not a pickle "
                             "of plain data)"));
}

TEST_CASE("broken stacks, bad strings and foreign protocols are refused with their offset",
          "[pickle]") {
  auto underflow = Read(PickleBytes().Append().Stop().str());
  REQUIRE(!underflow.ok());
  CHECK(underflow.status().message() == "p.pickle: byte 2: stack underflow: APPEND");
  auto not_list = Read(PickleBytes().EmptyDict().Int(1).Append().Stop().str());
  REQUIRE(!not_list.ok());
  CHECK(not_list.status().message() == "p.pickle: byte 5: APPEND to a dict (a list was expected)");
  auto odd = Read(PickleBytes().EmptyDict().Mark().Int(1).SetItems().Stop().str());
  REQUIRE(!odd.ok());
  CHECK(odd.status().message() == "p.pickle: byte 6: a key without a value after the MARK");
  auto utf8 = Read(PickleBytes().Str("ab\xff").Stop().str());
  REQUIRE(!utf8.ok());
  CHECK(utf8.status().message() == "p.pickle: byte 6: a string that is not valid UTF-8");
  auto proto = Read(PickleBytes(6).None().Stop().str());
  REQUIRE(!proto.ok());
  CHECK(proto.status().message() == "p.pickle: byte 0: pickle protocol 6 (profana reads 2 to 5)");
  auto empty = Read(PickleBytes().Stop().str());
  REQUIRE(!empty.ok());
  CHECK(empty.status().message() == "p.pickle: byte 2: STOP with nothing on the stack");
  CHECK(profana::pickle::HasPickleMagic(PickleBytes(2).str()));
  CHECK(profana::pickle::HasPickleMagic(PickleBytes(5).str()));
  CHECK(!profana::pickle::HasPickleMagic(PickleBytes(1).str()));
  CHECK(!profana::pickle::HasPickleMagic("{\"traceEvents\""));
}

TEST_CASE("a pickle cut short at any byte is truncation, with the offset", "[pickle]") {
  PickleBytes p;
  p.EmptyDict().Memoize().Mark().Key("segments").EmptyList().Mark();
  p.EmptyDict().Key("address").Int(140467268222976).SetItem();
  p.Appends().Key("f").Float(1.5).Key("s").Str("frame").SetItems().Stop();
  const std::string& whole = p.str();
  REQUIRE(Read(whole).ok());
  for (size_t n = 0; n + 1 < whole.size(); ++n) {
    auto doc = Read(whole.substr(0, n));
    INFO(n);
    REQUIRE(!doc.ok());
    CHECK(doc.status().code() == ErrorCode::kTruncated);
    CHECK_THAT(doc.status().message(), Catch::StartsWith("p.pickle: byte "));
  }
}
