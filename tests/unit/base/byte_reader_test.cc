// ByteReader: little-endian values, bounds, and the sticky error every binary reader relies on.
#include "profana/base/byte_reader.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

using profana::ByteReader;

namespace {

// 01 | 02 03 04 05 | fe ff ff ff ff ff ff ff | 03 00 00 00 'a' 'b' 'c' | 09
const std::string kBytes = std::string("\x01\x02\x03\x04\x05", 5) +
                           std::string("\xfe\xff\xff\xff\xff\xff\xff\xff", 8) +
                           std::string("\x03\x00\x00\x00", 4) + "abc" + "\x09";

}  // namespace

TEST_CASE("ByteReader reads little-endian fields in order", "[byte_reader]") {
  ByteReader r(kBytes);
  CHECK(r.U8() == 1);
  CHECK(r.U32() == 0x05040302u);  // bytes 02 03 04 05, least significant first
  CHECK(r.offset() == 5);
  CHECK(r.I64() == -2);  // fe ff .. ff
  std::string_view s = r.String();
  CHECK(s == "abc");
  CHECK(s.data() == kBytes.data() + 17);  // a view into the input, not a copy
  CHECK(r.remaining() == 1);
  CHECK(r.U8() == 9);
  CHECK(r.remaining() == 0);
  CHECK(r.Bytes(0).empty());  // nothing left, nothing asked: still fine
  CHECK(r.ok());

  ByteReader w(kBytes.data() + 5, 8);  // a reader views its bytes: they must outlive it
  CHECK(w.U64() == 0xfffffffffffffffeull);
  CHECK(w.ok());
}

TEST_CASE("ByteReader never reads past the end, and its first failure sticks", "[byte_reader]") {
  ByteReader r(kBytes.data(), 7);  // 01 02 03 04 05 fe ff
  r.Skip(4);
  CHECK(r.U32() == 0);  // needs bytes 4..7; only 4..6 exist
  CHECK_FALSE(r.ok());
  CHECK(r.error_offset() == 4);  // where the failed read started
  CHECK(r.offset() == 4);        // and the cursor did not move
  CHECK(r.remaining() == 0);
  // Sticky: later reads return zero even where bytes remain, and the first failure is kept.
  CHECK(r.U8() == 0);
  CHECK(r.Bytes(1).empty());
  CHECK_FALSE(r.Skip(1));
  CHECK(r.error_offset() == 4);
  CHECK(r.offset() == 4);
}

TEST_CASE("ByteReader refuses lengths the input does not hold, however large", "[byte_reader]") {
  ByteReader r(kBytes);
  r.Skip(13);  // at the string's u32 length (3)
  ByteReader huge = r;
  CHECK(huge.Bytes(UINT64_MAX).empty());  // no overflow of offset + n
  CHECK_FALSE(huge.ok());
  CHECK(huge.error_offset() == 13);

  // A string whose length says more than is left fails after the length, at the text.
  ByteReader s(kBytes.data() + 13, 6);  // 03 00 00 00 'a' 'b'

  CHECK(s.String().empty());
  CHECK_FALSE(s.ok());
  CHECK(s.error_offset() == 4);

  CHECK_FALSE(ByteReader(kBytes).Skip(kBytes.size() + 1));
  ByteReader exact(kBytes);
  CHECK(exact.Skip(kBytes.size()));
  CHECK(exact.ok());
}

TEST_CASE("ByteReader::Fail marks a value that read fine but makes no sense", "[byte_reader]") {
  ByteReader r(kBytes);
  r.U8();
  uint32_t count = r.U32();
  CHECK(r.ok());
  if (count > 1000) r.Fail();  // 0x05040302: a count this input cannot hold
  CHECK_FALSE(r.ok());
  CHECK(r.error_offset() == 5);  // the offset after the value
  r.Fail();
  CHECK(r.error_offset() == 5);  // a second Fail keeps the first position
}
