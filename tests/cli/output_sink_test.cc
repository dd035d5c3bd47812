// `profana tree` written through a sink (as main() writes standard output) is the same bytes as
// the text collected in one string.
#include "profana/base/output_sink.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "profana/cli.h"
#include "test_util.h"

using profana::OutputSink;
using profana::Status;

namespace {

// Keeps every write apart.
class WritesKept final : public OutputSink {
 public:
  Status Write(std::string_view bytes) override {
    writes.emplace_back(bytes);
    return Status::Ok();
  }
  std::vector<std::string> writes;
};

}  // namespace

TEST_CASE("profana tree streamed to a sink is the same bytes as collected in one string",
          "[sink]") {
  // The MI300X ResNet trace's tree is over 1 MiB of text, so it is written in several chunks.
  const std::string trace =
      profana::test::TestData("traces/tracelens/mi300/resnet_act_checkpoint.json.gz");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"tree", trace}, {"tree", trace, "--format", "json"}}) {
    std::string whole, err;
    REQUIRE(profana::app::RunCli(args, &whole, &err) == 0);
    std::string out, err2;
    WritesKept sink;
    REQUIRE(profana::app::RunCli(args, &out, &err2, &sink) == 0);
    CHECK(out.empty());  // everything went to the sink
    CHECK(err2 == err);
    REQUIRE(sink.writes.size() >= 2);
    std::string joined;
    for (const std::string& w : sink.writes) joined += w;
    CHECK(joined == whole);
  }
}
