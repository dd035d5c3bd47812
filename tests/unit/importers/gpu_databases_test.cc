// PyTorch's NVTX range text, as the Nsight Systems and rocmProfileData importers read it: its
// name and fields.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>

#include "profana/importers/common/pytorch_range.h"
#include "simdjson.h"
#include "test_util.h"

TEST_CASE("PyTorch's NVTX range text splits into its name and fields", "[nsys]") {
  using profana::ParsePyTorchRange;
  // getNvtxStr's fullest form: every suffix, in its order.
  auto full = ParsePyTorchRange(
      "aten::addmm, seq = 12, op_id = 40, sizes = [[8, 64], [64, 128], []], input_op_ids = "
      "[(38,0), (39,0)]");
  CHECK(full.name == "aten::addmm");
  CHECK(full.sequence_nr == 12);
  CHECK(full.op_id == 40);
  CHECK(full.sizes == "[[8, 64], [64, 128], []]");
  CHECK(full.is_op);
  auto plain = ParsePyTorchRange("train step");
  CHECK(plain.name == "train step");
  CHECK(plain.sequence_nr == -1);
  CHECK(plain.op_id == -1);
  CHECK(plain.sizes.empty());
  CHECK_FALSE(plain.is_op);
  CHECK(ParsePyTorchRange("aten::relu").is_op);  // an ATen name without suffixes
  // A list counts only where its brackets balance exactly at the end, after its key.
  auto unbalanced = ParsePyTorchRange("f, sizes = [[1], [2]]]");
  CHECK(unbalanced.name == "f, sizes = [[1], [2]]]");
  CHECK(unbalanced.sizes.empty());
  auto nested = ParsePyTorchRange("g [x], sizes = [[1, [2]], []]");
  CHECK(nested.name == "g [x]");
  CHECK(nested.sizes == "[[1, [2]], []]");
  auto other_key = ParsePyTorchRange("h, shapes = [[1]]");
  CHECK(other_key.name == "h, shapes = [[1]]");
  // A sequence number past int32 is dropped; the name is still cut.
  auto big = ParsePyTorchRange("aten::mm, seq = 99999999999");
  CHECK(big.name == "aten::mm");
  CHECK(big.sequence_nr == -1);
}
