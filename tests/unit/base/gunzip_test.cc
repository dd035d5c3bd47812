// Whole-input gunzip (base/input_buffer.cc, ISA-L): concatenated members, a stream cut at every
// byte, and damage named at the first compressed byte that breaks the stream; a file's head,
// gunzipped; and the streamed gunzip's estimate of the content's size.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "profana/base/byte_source.h"
#include "profana/base/gzip_writer.h"
#include "profana/base/input_buffer.h"
#include "profana/base/input_file.h"
#include "test_util.h"

namespace {

std::string Gzip(const std::string& text) {
  auto gz = profana::GzipBytes(text, 9);
  REQUIRE(gz.ok());
  return *gz;
}

// The compressed byte an error message names ("...: compressed byte N: ..."), or 0.
size_t NamedByte(const std::string& message) {
  size_t at = message.find("compressed byte ");
  return at == std::string::npos ? 0 : std::stoul(message.substr(at + 16));
}

}  // namespace

TEST_CASE("concatenated gzip members inflate to their concatenation", "[gzip]") {
  auto in = profana::InputFromBytes(Gzip("{\"traceEvents\": [") + Gzip("]}\n"), "two.json.gz");
  REQUIRE(in.ok());
  CHECK(in->gzipped);
  CHECK_FALSE(in->gzip_truncated);
  CHECK(std::string(in->view()) == "{\"traceEvents\": []}\n");
}

TEST_CASE("a gzip stream cut at any byte keeps a prefix and says where it ends", "[gzip]") {
  std::string text = profana::test::ReadFile(profana::test::TestData("bad/wrong_types.json"));
  std::string gz = Gzip(text);
  for (size_t cut = 2; cut < gz.size(); ++cut) {  // 2: the gzip magic, so it is taken as gzip
    INFO("cut at " << cut);
    auto in = profana::InputFromBytes(gz.substr(0, cut), "cut.json.gz");
    REQUIRE(in.ok());
    CHECK(in->gzip_truncated);  // a cut inside the 8-byte trailer too: the stream is not whole
    CHECK(in->gzip_truncated_at == cut);
    CHECK(text.compare(0, in->size, std::string(in->view())) == 0);
    if (cut >= gz.size() - 8) CHECK(in->size == text.size());  // the trailer holds no content
  }
}

TEST_CASE("damaged gzip data is named at the first byte that breaks the stream", "[gzip]") {
  // ISA-L decodes ahead and notices damage up to a few dozen bytes late; the message names the
  // first byte whose arrival breaks the stream: the bytes before it read as a stream cut short.
  std::string text = profana::test::ReadFile(profana::test::TestData("bad/wrong_types.json"));
  std::string gz = Gzip(text + text + text);
  int damaged = 0;
  // Every byte of the deflate data (after the 10-byte header, before the 8-byte trailer), each
  // XORed with two patterns.
  for (size_t at = 10; at + 8 < gz.size(); ++at) {
    for (unsigned char pattern : {0x01, 0xA5}) {
      std::string bad = gz;
      bad[at] = static_cast<char>(bad[at] ^ pattern);
      auto in = profana::InputFromBytes(bad, "bad.json.gz");
      if (in.ok()) continue;  // some flips still decode (to other text: the CRC is checked)
      ++damaged;
      INFO("byte " << at << " ^ " << int(pattern) << ": " << in.status().message());
      size_t named = NamedByte(in.status().message());
      REQUIRE(named > at);  // the damage is at `at`: no byte before it can break the stream
      CHECK(in.status().message().find(": corrupt gzip data (") != std::string::npos);
      auto before = profana::InputFromBytes(bad.substr(0, named - 1), "bad.json.gz");
      REQUIRE(before.ok());
      CHECK(before->gzip_truncated);
      auto upto = profana::InputFromBytes(bad.substr(0, named), "bad.json.gz");
      REQUIRE_FALSE(upto.ok());
      CHECK(NamedByte(upto.status().message()) == named);
    }
  }
  CHECK(damaged > 300);
}

TEST_CASE("a file's head is its first bytes gunzipped, read into the caller's buffer", "[gzip]") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "{\"ph\": \"X\", \"ts\": " + std::to_string(i) + "},\n";
  auto zipped = profana::GzipBytes(text);
  REQUIRE(zipped.ok());
  std::string plain = profana::test::TempPath("head.json"), gz = profana::test::TempPath("head.gz");
  profana::test::WriteFile(plain, text);
  profana::test::WriteFile(gz, *zipped);
  std::string buffer;
  for (const std::string& path : {plain, gz}) {
    INFO(path);
    auto file = profana::InputFile::Open(path);
    REQUIRE(file.ok());
    CHECK(file->HeadInto(1000, &buffer) == text.substr(0, 1000));
    const char* reused = buffer.data();
    CHECK(file->HeadInto(200, &buffer) == text.substr(0, 200));
    CHECK(buffer.data() == reused);  // the buffer's room is kept for the next head
    CHECK(file->HeadInto(text.size() + 10, &buffer) == text);  // shorter than asked: all of it
    CHECK(file->Head(300) == text.substr(0, 300));             // Head keeps its own
  }
  std::remove(plain.c_str());
  std::remove(gz.c_str());
}

TEST_CASE("the streamed gunzip estimates the content's size from the ratio so far", "[gzip]") {
  // 20 MB of events alike but for their numbers (five of the inflater's 4 MiB blocks).
  std::string text;
  for (uint64_t i = 0; text.size() < 20'000'000; ++i)
    text +=
        "{\"ph\": \"X\", \"name\": \"aten::mm\", \"ts\": " + std::to_string(i * 7919 % 1'000'003) +
        ", \"dur\": " + std::to_string(i % 977) + "},\n";
  for (const std::string& bytes : {text, Gzip(text)}) {
    std::string path = profana::test::TempPath("estimate.json");
    profana::test::WriteFile(path, bytes);
    auto source = profana::ByteSource::Open(path);
    std::remove(path.c_str());
    REQUIRE(source);
    std::string buffer(1 << 20, '\0');
    size_t read = 0;
    while (read < 6'000'000) read += source->Read(buffer.data(), buffer.size());
    if (!source->gzipped()) {
      CHECK(source->content_estimate() == text.size());
      continue;
    }
    // Two blocks in: within a few percent (the numbers compress a little differently along).
    double estimate = static_cast<double>(source->content_estimate());
    CHECK(estimate > 0.97 * static_cast<double>(text.size()));
    CHECK(estimate < 1.03 * static_cast<double>(text.size()));
    while (size_t got = source->Read(buffer.data(), buffer.size())) read += got;
    CHECK(read == text.size());
    CHECK(source->content_estimate() == text.size());  // the whole file inflated
  }
}
