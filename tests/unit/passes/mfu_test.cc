// MFU's FLOPs: which ops' FLOPs count, on which device and at which peak (docs/semantics.md
// "MFU"), on a live PyTorch 2.11 H100 session (testdata/live).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "profana/importers/importer.h"
#include "profana/passes/efficiency/op_flops.h"
#include "simdjson.h"
#include "test_util.h"

using namespace profana;

TEST_CASE("the FLOPs of ops that ran on a device, at the peak of each op's type", "[mfu]") {
  // gpt_train/all: bf16 autocast. Its 171 + 54 matmuls are bf16 on Tensor Cores (nvjet kernels),
  // its adds and muls of activations fp32 on the vector units; the long-int adds and muls of
  // position ids run on the host and launch nothing.
  auto loaded = LoadTrace(test::TestData("live/gpt_train/all/trace.json.gz"));
  REQUIRE(loaded.ok());
  const Trace& t = loaded->trace;
  std::vector<passes::OpDeviceFlops> ops = passes::FlopsOnDevices(t);
  REQUIRE(ops.size() == 270);
  uint64_t flops = 0;
  double peak_ns = 0;
  uint64_t bf16 = 0;
  for (const passes::OpDeviceFlops& o : ops) {
    CHECK(o.device == 0);
    REQUIRE(o.peak_ns >= 0);
    flops += o.flops;
    peak_ns += o.peak_ns;
    std::string_view name = t.str(t.events.trace_name[o.op.value]);
    if (name == "aten::mm" || name == "aten::addmm") {
      bf16 += o.flops;
      CHECK(o.peak_ns == Approx(static_cast<double>(o.flops) / 989.5e3).epsilon(1e-12));
    } else {
      CHECK(o.peak_ns == Approx(static_cast<double>(o.flops) / 67e3).epsilon(1e-12));
    }
  }
  CHECK(flops == 1700888838150u);
  CHECK(bf16 == 347892350976u + 1352914698240u);
  CHECK(peak_ns == Approx(1720075.7573577056).epsilon(1e-12));
}
