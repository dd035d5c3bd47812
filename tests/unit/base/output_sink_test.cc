// ChunkedOutput: a reporter's text reaches its sink in chunks of about kChunkBytes, in order and
// whole, and the first failed write is the report's status, also when a WriteBehindSink writes
// them on a thread of its own.
#include "profana/base/output_sink.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "profana/base/write_behind_sink.h"
#include "test_util.h"

using profana::ChunkedOutput;
using profana::ErrorCode;
using profana::OutputSink;
using profana::Status;

namespace {

// Keeps every write apart; fails from write number `fail_at` on (0: never).
class RecordingSink final : public OutputSink {
 public:
  explicit RecordingSink(size_t fail_at = 0) : fail_at_(fail_at) {}
  Status Write(std::string_view bytes) override {
    if (fail_at_ && writes.size() + 1 >= fail_at_) {
      ++failed;
      return Status(ErrorCode::kIo, "disk full");
    }
    writes.emplace_back(bytes);
    return Status::Ok();
  }
  std::vector<std::string> writes;
  int failed = 0;

 private:
  size_t fail_at_;
};

std::string Record(int i) { return "record " + std::to_string(i) + std::string(90, '.') + "\n"; }

}  // namespace

TEST_CASE("chunked output reaches the sink in order, a chunk at a time", "[sink]") {
  RecordingSink sink;
  ChunkedOutput out(&sink);
  std::string whole;
  // 40,000 records of 98-102 bytes: about 4 MB, so three full chunks and a short last one.
  for (int i = 0; i < 40000; ++i) {
    out.MaybeFlush();
    out.text()->append(Record(i));
    whole += Record(i);
  }
  REQUIRE(out.Finish().ok());
  REQUIRE(sink.writes.size() == 4);
  std::string joined;
  for (size_t k = 0; k < sink.writes.size(); ++k) {
    // A chunk is written at the first record boundary at or past kChunkBytes: at most one record
    // (under 103 bytes) longer.
    if (k + 1 < sink.writes.size()) {
      CHECK(sink.writes[k].size() >= ChunkedOutput::kChunkBytes);
      CHECK(sink.writes[k].size() < ChunkedOutput::kChunkBytes + 103);
    }
    joined += sink.writes[k];
  }
  CHECK(joined == whole);
}

TEST_CASE("chunked output: the first failed write is the status, nothing is written after it",
          "[sink]") {
  RecordingSink sink(/*fail_at=*/2);
  ChunkedOutput out(&sink);
  for (int i = 0; i < 40000; ++i) {
    out.MaybeFlush();
    out.text()->append(Record(i));
  }
  Status st = out.Finish();
  CHECK(st.code() == ErrorCode::kIo);
  CHECK(st.message() == "disk full");
  CHECK(sink.writes.size() == 1);  // the first chunk went out
  CHECK(sink.failed == 1);         // the second failed, and no later one was tried
}

TEST_CASE("written behind on a thread, chunks reach the sink whole and in order", "[sink]") {
  RecordingSink sink;
  {
    profana::WriteBehindSink behind(&sink);
    ChunkedOutput out(&behind);
    for (int i = 0; i < 40000; ++i) {
      out.MaybeFlush();
      out.text()->append(Record(i));
    }
    REQUIRE(out.Finish().ok());
    REQUIRE(behind.Finish().ok());
  }
  std::string joined, whole;
  for (const std::string& w : sink.writes) joined += w;
  for (int i = 0; i < 40000; ++i) whole += Record(i);
  CHECK(sink.writes.size() == 4);
  CHECK(joined == whole);
}

TEST_CASE("written behind on a thread, the first failure is the status, and nothing follows it",
          "[sink]") {
  RecordingSink sink(/*fail_at=*/2);
  profana::WriteBehindSink behind(&sink);
  ChunkedOutput out(&behind);
  for (int i = 0; i < 40000; ++i) {
    out.MaybeFlush();
    out.text()->append(Record(i));
  }
  // The failure of chunk 2 reaches the reporter at a later chunk or at the end.
  Status made = out.Finish();
  Status written = behind.Finish();
  CHECK(written.code() == ErrorCode::kIo);
  CHECK(written.message() == "disk full");
  CHECK((made.ok() || made.message() == "disk full"));
  CHECK(sink.writes.size() == 1);
  CHECK(sink.failed == 1);
}

TEST_CASE("an empty output writes nothing", "[sink]") {
  RecordingSink sink;
  ChunkedOutput out(&sink);
  CHECK(out.Finish().ok());
  CHECK(sink.writes.empty());
}
