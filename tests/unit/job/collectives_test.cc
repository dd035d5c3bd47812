// Collectives: kernel names to collective kinds, the bus bandwidth factors, matching by process
// group and order, and transfers of ranks one clock timed matched by time.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "profana/job/collective_analysis.h"
#include "profana/job/collective_calls.h"
#include "simdjson.h"
#include "test_util.h"

using namespace profana;

TEST_CASE("NCCL kernel names name their collective", "[collectives]") {
  using job::CollectiveKind;
  using job::CollectiveKindOfKernel;
  CHECK(CollectiveKindOfKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned "
                               "long, ncclWork*)") == CollectiveKind::kAllReduce);
  CHECK(CollectiveKindOfKernel("ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, "
                               "ncclWork*)") == CollectiveKind::kAllGather);
  CHECK(CollectiveKindOfKernel("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL") ==
        CollectiveKind::kReduceScatter);
  CHECK(CollectiveKindOfKernel("ncclKernel_Broadcast_RING_LL_Sum_int8_t") ==
        CollectiveKind::kBroadcast);
  CHECK(CollectiveKindOfKernel("ncclKernel_Reduce_RING_LL_Sum_float") == CollectiveKind::kReduce);
  CHECK(CollectiveKindOfKernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t") ==
        CollectiveKind::kSendRecv);
  CHECK(CollectiveKindOfKernel("ncclDevKernel_SendRecv(ncclDevComm*)") ==
        CollectiveKind::kSendRecv);
  CHECK(CollectiveKindOfKernel("rccl_custom_kernel") == CollectiveKind::kOther);
}

TEST_CASE("bus bandwidth factors are nccl-tests'", "[collectives]") {
  using job::BusFactor;
  using job::CollectiveKind;
  CHECK(BusFactor(CollectiveKind::kAllReduce, 8) == Approx(14.0 / 8));  // 2(n-1)/n
  CHECK(BusFactor(CollectiveKind::kAllGather, 4) == Approx(0.75));      // (n-1)/n
  CHECK(BusFactor(CollectiveKind::kReduceScatter, 2) == Approx(0.5));
  CHECK(BusFactor(CollectiveKind::kBroadcast, 8) == 1);
  CHECK(BusFactor(CollectiveKind::kReduce, 8) == 1);
  CHECK(BusFactor(CollectiveKind::kSendRecv, 8) == 1);
}

TEST_CASE("collectives match by process group and order; bandwidth from the message size",
          "[collectives]") {
  using job::CollectiveKind;
  // Two groups: "dp" (ranks 0, 1, 2; 8 MB all-reduces) and "tp" (ranks 0, 1; all-gathers of
  // 4 MB). Each rank's clock is true time (no offsets), except rank 2, 500 us behind.
  // dp #0: rank 0 [100,300), rank 1 [150,300), rank 2 [200,300): skew 100 (rank 2 last),
  //   transfer 100, waits 100, 50, 0 = 150; algbw = 8e6 B / 100 us = 80 GB/s; busbw = 80 *
  //   2 * 2/3 = 106.67 GB/s (group size 3, recorded).
  // tp #0: rank 0 [400,450), rank 1 [420,450): skew 20 (rank 1), transfer 30, waits 20, 0;
  //   algbw = 4e6 B / 30 us = 133.33 GB/s; group size unrecorded: n = 2 matched ranks,
  //   busbw = 133.33 * 1/2 = 66.67.
  // dp #1: rank 0 [600,700), rank 1 [600,700), rank 2 [610,700): skew 10 (rank 2), transfer 90,
  //   waits 10, 10, 0; rank 2 also has a dp #2 no other rank has (unmatched).
  std::vector<job::RankCalls> ranks(3);
  ranks[0].rank = 0;
  ranks[0].calls = {test::CollectiveCallOf(CollectiveKind::kAllReduce, 100, 300, "dp", 8000000, 3),
                    test::CollectiveCallOf(CollectiveKind::kAllGather, 400, 450, "tp", 4000000),
                    test::CollectiveCallOf(CollectiveKind::kAllReduce, 600, 700, "dp", 8000000, 3)};
  ranks[1].rank = 1;
  ranks[1].calls = {test::CollectiveCallOf(CollectiveKind::kAllReduce, 150, 300, "dp", 8000000, 3),
                    test::CollectiveCallOf(CollectiveKind::kAllGather, 420, 450, "tp", 4000000),
                    test::CollectiveCallOf(CollectiveKind::kAllReduce, 600, 700, "dp", 8000000, 3)};
  ranks[2].rank = 2;
  ranks[2].calls = {
      test::CollectiveCallOf(CollectiveKind::kAllReduce, 200 - 500, 300 - 500, "dp", 8000000, 3),
      test::CollectiveCallOf(CollectiveKind::kAllReduce, 610 - 500, 700 - 500, "dp", 8000000, 3),
      test::CollectiveCallOf(CollectiveKind::kAllReduce, 900 - 500, 950 - 500, "dp", 8000000, 3)};
  job::CollectivesResult r = job::AnalyzeCollectives(ranks, true);
  CHECK(r.unmatched_calls == 1);
  CHECK(r.ranks[2].offset_ns == 500000);  // rank 0's ends minus rank 2's: 500 us both times
  CHECK(r.ranks[1].offset_ns == 0);
  REQUIRE(r.collectives.size() == 3);
  const job::MatchedCollective& dp0 = r.collectives[0];
  CHECK(dp0.group == "dp");
  CHECK(dp0.index == 0);
  CHECK(dp0.skew_ns == 100000);
  CHECK(dp0.transfer_ns == 100000);
  CHECK(dp0.wait_ns == 150000);
  CHECK(dp0.last_rank == 2);
  CHECK(dp0.algbw_gbps == Approx(80));
  CHECK(dp0.busbw_gbps == Approx(80 * 4.0 / 3));
  const job::MatchedCollective& tp0 = r.collectives[1];
  CHECK(tp0.group == "tp");
  CHECK(tp0.ranks.size() == 2);
  CHECK(tp0.group_size == 2);
  CHECK(tp0.last_rank == 1);
  CHECK(tp0.algbw_gbps == Approx(4e6 / 30e3));
  CHECK(tp0.busbw_gbps == Approx(4e6 / 30e3 / 2));
  const job::MatchedCollective& dp1 = r.collectives[2];
  CHECK(dp1.skew_ns == 10000);
  CHECK(dp1.transfer_ns == 90000);
  CHECK(dp1.last_rank == 2);
  // Stragglers: rank 2 caused 150 (dp #0) + 20 (dp #1); rank 1 caused 20 (tp #0).
  CHECK(r.ranks[2].arrived_last == 2);
  CHECK(r.ranks[2].wait_caused_ns == 170000);
  CHECK(r.ranks[1].wait_caused_ns == 20000);
  CHECK(r.ranks[0].wait_suffered_ns == 100000 + 20000 + 10000);
  CHECK(r.ranks[1].wait_suffered_ns == 50000 + 0 + 10000);

  // Without alignment rank 2 starts 500 us early everywhere: it is never last, and the skews
  // are 500 us wider on the other side.
  job::CollectivesResult raw = job::AnalyzeCollectives(ranks, false);
  CHECK(raw.ranks[2].offset_ns == 0);
  CHECK(raw.collectives.front().group == "dp");
  CHECK(raw.collectives.front().ranks[2].start_ns == -300000);
  CHECK(raw.ranks[2].arrived_last == 0);
}

TEST_CASE("transfers of ranks one clock timed are matched by time, not order", "[collectives]") {
  using job::CollectiveKind;
  // Two processes of one database. Rank 0 runs an extra send/recv first (to a rank outside the
  // export) at [0, 50); then both run the same two transfers: [100, 200) and [300, 400) on rank
  // 0, [110, 200) and [320, 400) on rank 1. By order, rank 0's first call would pair with rank
  // 1's first and every later pair would be off by one; by time, the extra call is unmatched
  // and the transfers pair with what they overlap.
  std::vector<job::RankCalls> ranks(2);
  ranks[0].rank = 0;
  ranks[0].clock = "nsys-sqlite:abc";
  ranks[0].calls = {test::CollectiveCallOf(CollectiveKind::kSendRecv, 0, 50),
                    test::CollectiveCallOf(CollectiveKind::kSendRecv, 100, 200),
                    test::CollectiveCallOf(CollectiveKind::kSendRecv, 300, 400)};
  ranks[1].rank = 1;
  ranks[1].clock = "nsys-sqlite:abc";
  ranks[1].calls = {test::CollectiveCallOf(CollectiveKind::kSendRecv, 110, 200),
                    test::CollectiveCallOf(CollectiveKind::kSendRecv, 320, 400)};
  job::CollectivesResult r = job::AnalyzeCollectives(ranks, true);
  CHECK(r.unmatched_calls == 1);
  REQUIRE(r.collectives.size() == 2);
  CHECK(r.collectives[0].ranks[0].start_ns == 100000);
  CHECK(r.collectives[0].ranks[1].start_ns == 110000);
  CHECK(r.collectives[0].skew_ns == 10000);
  CHECK(r.collectives[1].skew_ns == 20000);
  CHECK(r.ranks[1].offset_ns == 0);

  // Without a shared clock the same calls are matched by order: the first pair is [0, 50)
  // with [110, 200), and rank 0's last call is unmatched.
  ranks[0].clock.clear();
  ranks[1].clock.clear();
  job::CollectivesResult by_order = job::AnalyzeCollectives(ranks, false);
  CHECK(by_order.unmatched_calls == 1);
  REQUIRE(by_order.collectives.size() == 2);
  CHECK(by_order.collectives[0].ranks[0].start_ns == 0);
}
