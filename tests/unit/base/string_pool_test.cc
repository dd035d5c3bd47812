// StringPool: interning identity, id 0 = "", and views that stay valid while the pool grows.
#include "profana/base/string_pool.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

using profana::StringId;
using profana::StringPool;

TEST_CASE("a new pool holds only the empty string, as id 0", "[pool]") {
  StringPool pool;
  CHECK(pool.size() == 1);
  CHECK(pool.Get(StringId(0)).empty());
  CHECK(pool.Intern("") == StringId(0));
  CHECK(pool.Intern(std::string_view()) == StringId(0));
  StringId found(7);
  CHECK(pool.Find("", &found));
  CHECK(found == StringId(0));
  CHECK(pool.size() == 1);
  CHECK(pool.bytes() == 0);
}

TEST_CASE("interning gives dense ids in first-seen order, one per distinct string", "[pool]") {
  StringPool pool;
  CHECK(pool.Intern("aten::mm") == StringId(1));
  CHECK(pool.Intern("aten::add") == StringId(2));
  CHECK(pool.Intern("aten::mm") == StringId(1));
  // Bytes, not C strings: an embedded NUL makes a different string.
  StringId with_nul = pool.Intern(std::string_view("aten::mm\0x", 10));
  CHECK(with_nul == StringId(3));
  CHECK(pool.Get(with_nul).size() == 10);
  CHECK(pool.Intern(std::string("aten::add")) == StringId(2));  // equal text, other storage
  CHECK(pool.size() == 4);
  CHECK(pool.bytes() == 8 + 9 + 10);  // each distinct string stored once
  StringId found;
  CHECK(pool.Find("aten::add", &found));
  CHECK(found == StringId(2));
  CHECK_FALSE(pool.Find("aten::ad", &found));
  CHECK_FALSE(pool.Find("aten::addd", &found));
}

TEST_CASE("views stay valid while the pool grows, rehashes and moves", "[pool]") {
  StringPool pool;
  StringId first = pool.Intern("first");
  std::string_view view = pool.Get(first);
  const char* where = view.data();
  // Many strings (the hash index doubles several times), strings that share their first 8-byte
  // words (the hash reads 8 bytes at a time), and strings bigger than a quarter of a 1 MiB
  // block (each gets a block of its own) between small ones.
  std::vector<std::pair<StringId, std::string>> all;
  for (int i = 0; i < 50000; ++i) {
    std::string s = "prefix__prefix__" + std::to_string(i);
    all.emplace_back(pool.Intern(s), s);
  }
  for (int i = 0; i < 6; ++i) {
    std::string big(300000 + i, static_cast<char>('a' + i));
    all.emplace_back(pool.Intern(big), big);
    std::string small = "small" + std::to_string(i);
    all.emplace_back(pool.Intern(small), small);
  }
  CHECK(pool.size() == 1 + 1 + all.size());
  CHECK(pool.Get(first).data() == where);  // the text did not move
  CHECK(view == "first");
  for (size_t i = 0; i < all.size(); ++i) {
    INFO(i);
    REQUIRE(pool.Get(all[i].first) == all[i].second);
    REQUIRE(pool.Intern(all[i].second) == all[i].first);
  }
  // Moving the pool moves its blocks, not the text in them.
  StringPool moved = std::move(pool);
  CHECK(moved.Get(first).data() == where);
  CHECK(moved.Get(all.back().first) == "small5");
}

TEST_CASE("blocks grow from a few KiB; long strings and many short ones stay whole", "[pool]") {
  // Blocks start at 4 KiB and double to 1 MiB; a string longer than a quarter of the next block
  // gets a block of its own size when it is larger still. Every size class is crossed here: a
  // few short names (the first block), 3000 and 5000 bytes (the second and third blocks), 2 MiB
  // (its own block), then 20000 short names (blocks of 16 KiB up to 1 MiB).
  profana::StringPool pool;
  std::vector<std::string> texts = {"nccl", "gemm", std::string(3000, 'a'), std::string(5000, 'b'),
                                    std::string(2 << 20, 'c')};
  for (int i = 0; i < 20000; ++i) texts.push_back("op_" + std::to_string(i));
  std::vector<profana::StringId> ids;
  size_t bytes = 0;
  for (const std::string& t : texts) {
    ids.push_back(pool.Intern(t));
    bytes += t.size();
  }
  REQUIRE(pool.size() == texts.size() + 1);
  CHECK(pool.bytes() == bytes);
  for (size_t i = 0; i < texts.size(); ++i) CHECK(pool.Get(ids[i]) == texts[i]);
  CHECK(pool.Intern(std::string(5000, 'b')) == ids[3]);  // found, not stored again
  CHECK(pool.bytes() == bytes);
}

TEST_CASE("a clone keeps every id and its text, and owns its own copy of the text", "[pool]") {
  StringPool pool;
  std::vector<std::pair<StringId, std::string>> all;
  for (int i = 0; i < 3000; ++i) {
    std::string s = "name_" + std::to_string(i);
    all.emplace_back(pool.Intern(s), s);
  }
  std::string big(400000, 'x');  // a block of its own in the original
  all.emplace_back(pool.Intern(big), big);
  StringPool copy = pool.Clone();
  REQUIRE(copy.size() == pool.size());
  CHECK(copy.bytes() == pool.bytes());
  for (const auto& [id, text] : all) {
    INFO(text.substr(0, 16));
    REQUIRE(copy.Get(id) == text);
    REQUIRE(copy.Get(id).data() != pool.Get(id).data());
    StringId found;
    REQUIRE(copy.Find(text, &found));
    REQUIRE(found == id);
  }
  // Both go on interning on their own: a new string gets the next id in each.
  StringId next = copy.Intern("only in the copy");
  CHECK(next.value == pool.size());
  StringId absent;
  CHECK_FALSE(pool.Find("only in the copy", &absent));
  CHECK(copy.Intern("name_17") == all[17].first);
}
