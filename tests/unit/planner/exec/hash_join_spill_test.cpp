// The hash join under spill = on (docs/spilling.md): a build that does not fit goes to partition files, the
// probe follows, and every join type gives exactly the rows of the unconstrained in-memory run.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "planner/exec/operators/hash_join_build.hpp"
#include "planner/exec/operators/hash_join_probe.hpp"
#include "planner/exec/spill_file.hpp"
#include "planner/storage/bucketing.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

constexpr JoinType kAllTypes[] = {JoinType::Inner, JoinType::ProbeOuter, JoinType::BuildOuter, JoinType::FullOuter,
                                  JoinType::Semi,  JoinType::Anti,       JoinType::NullAwareAnti};

struct JoinRun {
  V rows;
  OperatorStats probe, build;
  int64_t peak = 0;
  int64_t left = 0;  ///< memory still charged after the drain
};

/// Joins (probe, build) on key columns `keys` of both sides (same positions), with an optional residual,
/// under `limit` bytes with spilling on or off.
JoinRun run(const Batch& probe, const Batch& build, std::vector<int> keys, JoinType type, ExprPtr residual,
            int64_t limit, bool spill) {
  TestContext tc(limit);
  tc.ctx.spill = spill;
  tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
  JoinRun r;
  {
    auto b = std::make_unique<HashJoinBuildOp>(&tc.ctx, 0, source(&tc.ctx, build), keys);
    HashJoinProbeOp j(&tc.ctx, 0, source(&tc.ctx, probe), std::move(b), keys, type, std::move(residual));
    r.rows = sorted(drain(j));
    r.probe = j.stats();
    r.build = j.children()[1]->stats();
  }
  r.peak = tc.memory.peak();
  r.left = tc.memory.used();
  return r;
}

/// (k, tag, n): keys 0..distinct-1 (duplicates), every 37th key NULL, strings to make rows wide.
Batch rows(size_t n, int64_t distinct, uint32_t seed, const std::string& side) {
  std::mt19937 rng(seed);
  std::vector<OptInt> k, num;
  std::vector<OptStr> tag;
  for (size_t i = 0; i < n; ++i) {
    k.push_back(i % 37 == 5 ? std::nullopt : OptInt(static_cast<int64_t>(rng() % static_cast<uint32_t>(distinct))));
    tag.push_back(side + std::to_string(i) + "-padding-to-be-wide");
    num.push_back(static_cast<int64_t>(rng() % 100));
  }
  return make_batch({int_col(k), str_col(tag), int_col(num)});
}

/// probe.n < build.n (columns: probe 0..2, build 3..5).
ExprPtr residual() { return compare(ScalarOp::Lt, col_ref(2), col_ref(5)); }

TEST(HashJoinSpillTest, EveryJoinTypeGivesTheInMemoryRowsAndSpills) {
  const Batch probe = rows(12000, 6000, 1, "p");
  const Batch build = rows(10000, 6000, 2, "b");
  const int64_t limit = 400 << 10;
  for (JoinType type : kAllTypes) {
    for (bool with_residual : {false, true}) {
      SCOPED_TRACE(fmt::format("{} residual={}", join_type_name(type), with_residual));
      JoinRun want = run(probe, build, {0}, type, with_residual ? residual() : nullptr, int64_t{1} << 40, false);
      ASSERT_GT(want.peak, limit);  // the unconstrained run does not fit
      JoinRun got = run(probe, build, {0}, type, with_residual ? residual() : nullptr, limit, true);
      EXPECT_EQ(got.rows, want.rows);
      EXPECT_FALSE(want.rows.empty() && type != JoinType::NullAwareAnti);
      EXPECT_GE(got.build.spills, 1u);
      EXPECT_GT(got.build.spilled_rows, 0u);
      EXPECT_GT(got.build.spilled_bytes, 0u);
      // NOT IN over a build side with a NULL key is empty: the probe side is never read.
      if (type != JoinType::NullAwareAnti) {
        EXPECT_GT(got.probe.spilled_rows, 0u);
      }
      EXPECT_LE(got.peak, limit);
      EXPECT_EQ(got.left, 0);
      EXPECT_EQ(want.build.spilled_rows, 0u);
    }
  }
}

TEST(HashJoinSpillTest, NullAwareAntiWithoutBuildNullsDropsNullProbeKeysWhenSpilled) {
  // The shared fixture has NULL build keys (NOT IN is then empty); here the build has none.
  const Batch probe = rows(12000, 9000, 3, "p");
  Batch build = rows(10000, 6000, 4, "b");
  for (size_t r = 0; r < build.rows; ++r)
    if (build.columns[0].is_null(r)) build.columns[0].nulls[r] = 0;  // its value (0) is a key like any
  JoinRun want = run(probe, build, {0}, JoinType::NullAwareAnti, nullptr, int64_t{1} << 40, false);
  JoinRun got = run(probe, build, {0}, JoinType::NullAwareAnti, nullptr, 400 << 10, true);
  EXPECT_GT(want.rows.size(), 1000u);
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_GE(got.build.spills, 1u);
  for (const auto& r : got.rows) EXPECT_NE(r.rfind("NULL|", 0), 0u) << r;
}

TEST(HashJoinSpillTest, MultiColumnKeysSpill) {
  // Key (tag-suffix string, n) takes the general path (not the single-int fast path).
  auto make = [](size_t n, uint32_t seed, const std::string& side) {
    std::mt19937 rng(seed);
    std::vector<OptStr> k;
    std::vector<OptInt> k2;
    std::vector<OptStr> tag;
    for (size_t i = 0; i < n; ++i) {
      k.push_back(i % 41 == 3 ? std::nullopt : OptStr("key" + std::to_string(rng() % 3000)));
      k2.push_back(static_cast<int64_t>(rng() % 3));
      tag.push_back(side + std::to_string(i) + "-padding-padding");
    }
    return make_batch({str_col(k), int_col(k2), str_col(tag)});
  };
  const Batch probe = make(9000, 5, "p"), build = make(9000, 6, "b");
  for (JoinType type : {JoinType::Inner, JoinType::FullOuter, JoinType::Anti}) {
    SCOPED_TRACE(join_type_name(type));
    JoinRun want = run(probe, build, {0, 1}, type, nullptr, int64_t{1} << 40, false);
    JoinRun got = run(probe, build, {0, 1}, type, nullptr, 400 << 10, true);
    EXPECT_EQ(got.rows, want.rows);
    EXPECT_GE(got.build.spills, 1u);
  }
}

TEST(HashJoinSpillTest, WithSpillOffTheSameLimitFails) {
  const Batch probe = rows(12000, 6000, 1, "p");
  const Batch build = rows(10000, 6000, 2, "b");
  try {
    run(probe, build, {0}, JoinType::Inner, nullptr, 400 << 10, false);
    FAIL() << "expected MEMORY_LIMIT_EXCEEDED";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
  }
}

/// Level-0 partition of an int key (as the join computes it).
int partition_of(int64_t key) {
  ColumnVector c = int_col({key});
  std::vector<uint64_t> h;
  row_hashes({&c}, 1, h);
  return spill_partition_of(h[0], 0, JoinSpillFiles::kFanout);
}

TEST(HashJoinSpillTest, ASkewedPartitionIsSplitAgain) {
  // Most build rows have distinct keys that all fall into level-0 partition 0: that partition alone does
  // not fit, its 16 parts at level 1 do.
  std::vector<OptInt> bk, pk;
  std::vector<OptStr> btag, ptag;
  int64_t key = 0;
  for (int i = 0; i < 40000; ++key) {
    if (partition_of(key) != 0 && key % 10 != 0) continue;
    bk.push_back(key);
    btag.push_back("build-row-" + std::to_string(i) + "-with-some-padding");
    if (i % 3 == 0) {
      pk.push_back(key);
      ptag.push_back("p" + std::to_string(i));
    }
    ++i;
  }
  pk.push_back(std::nullopt);
  ptag.push_back("pnull");
  const Batch build = make_batch({int_col(bk), str_col(btag)});
  const Batch probe = make_batch({int_col(pk), str_col(ptag)});
  for (JoinType type : {JoinType::Inner, JoinType::FullOuter}) {
    SCOPED_TRACE(join_type_name(type));
    JoinRun want = run(probe, build, {0}, type, nullptr, int64_t{1} << 40, false);
    JoinRun got = run(probe, build, {0}, type, nullptr, 1 << 20, true);
    EXPECT_EQ(got.rows, want.rows);
    EXPECT_GE(got.build.spills, 2u);  // the first spill and at least one split
    EXPECT_GT(got.build.spilled_rows, build.rows);  // split rows are written again
    EXPECT_EQ(got.left, 0);
  }
}

TEST(HashJoinSpillTest, OneKeyValueThatDoesNotFitFailsSayingSpillingDidNotHelp) {
  std::vector<OptInt> bk;
  std::vector<OptStr> btag;
  for (int i = 0; i < 30000; ++i) {
    bk.push_back(i % 10 == 0 ? i : 7);  // 27000 rows with key 7
    btag.push_back("build-row-" + std::to_string(i) + "-with-some-padding");
  }
  const Batch build = make_batch({int_col(bk), str_col(btag)});
  const Batch probe = make_batch({int_col({7, 8, 10}), str_col({"a", "b", "c"})});
  try {
    run(probe, build, {0}, JoinType::Inner, nullptr, 600 << 10, true);
    FAIL() << "expected MEMORY_LIMIT_EXCEEDED";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
    EXPECT_NE(e.message().find("spilling did not help"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("one key value"), std::string::npos) << e.message();
  }
}

TEST(HashJoinSpillTest, TooManyNullKeyRowsOfAnOuterBuildFailSayingSo) {
  std::vector<OptInt> bk;
  std::vector<OptStr> btag;
  for (int i = 0; i < 30000; ++i) {
    bk.push_back(i % 10 == 0 ? OptInt(i) : std::nullopt);
    btag.push_back("build-row-" + std::to_string(i) + "-with-some-padding");
  }
  const Batch build = make_batch({int_col(bk), str_col(btag)});
  const Batch probe = make_batch({int_col({0, 10, 11}), str_col({"a", "b", "c"})});
  // Inner drops the NULL-key rows: it fits by spilling.
  JoinRun inner = run(probe, build, {0}, JoinType::Inner, nullptr, 600 << 10, true);
  EXPECT_EQ(inner.rows, (V{"0|a|0|build-row-0-with-some-padding", "10|b|10|build-row-10-with-some-padding"}));
  EXPECT_GE(inner.build.spills, 1u);
  try {
    run(probe, build, {0}, JoinType::BuildOuter, nullptr, 600 << 10, true);
    FAIL() << "expected MEMORY_LIMIT_EXCEEDED";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
    EXPECT_NE(e.message().find("spilling did not help: the 27000 build rows with a NULL key"), std::string::npos)
        << e.message();
  }
}

TEST(HashJoinSpillTest, ALimitTooSmallForTheSpillBuffersFailsSayingSo) {
  const Batch probe = rows(2000, 1000, 1, "p");
  const Batch build = rows(5000, 1000, 2, "b");
  try {
    // 17 write buffers of at least kSpillMinBufferBytes (256 B) do not fit in 2 KB.
    run(probe, build, {0}, JoinType::Inner, nullptr, 2 << 10, true);
    FAIL() << "expected MEMORY_LIMIT_EXCEEDED";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
    EXPECT_NE(e.message().find("spilling did not help: the buffers of its spill files"), std::string::npos)
        << e.message();
  }
}

TEST(HashJoinSpillTest, ASmallLimitSpillsWithSmallBuffers) {
  // 8 KB: 17 write buffers of 1 KB (the floor before) could not fit; of 256 B they do, and the join spills
  // (splitting its partitions again) to the in-memory rows.
  const Batch probe = rows(2000, 1000, 1, "p");
  const Batch build = rows(5000, 1000, 2, "b");
  JoinRun want = run(probe, build, {0}, JoinType::Inner, nullptr, int64_t{1} << 40, false);
  JoinRun got = run(probe, build, {0}, JoinType::Inner, nullptr, 8 << 10, true);
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_FALSE(got.rows.empty());
  EXPECT_GE(got.build.spills, 2u);  // the switch to partitioned mode and at least one split
  EXPECT_LE(got.peak, 8 << 10);
  EXPECT_EQ(got.left, 0);
}

TEST(HashJoinSpillTest, SmallPartitionsRefusedBecauseOthersHoldTheMemoryLoadIntoTheSpillReserve) {
  // The other operators hold everything but the spill reserve (as after spilling turned on in place at the
  // limit): every charge of the join's data is refused. Its partitions are a few rows each, smaller than the
  // buffers a split would hold, so they load into the reserve instead of splitting until they give up (which
  // failed with "a hash join build partition of 1 rows does not fit", exists_economy_nickel_lines at SF 1).
  const Batch probe = rows(600, 200, 1, "p");
  const Batch build = rows(300, 200, 2, "b");
  for (JoinType type : {JoinType::Inner, JoinType::FullOuter, JoinType::Anti}) {
    SCOPED_TRACE(join_type_name(type));
    JoinRun want = run(probe, build, {0}, type, nullptr, int64_t{1} << 40, false);
    const int64_t limit = 1 << 20, reserve = 256 << 10;
    TestContext tc(limit);
    tc.ctx.spill = true;
    tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
    tc.memory.set_spill_reserve(reserve);
    tc.memory.charge(limit - reserve, "the other operators");
    V got;
    OperatorStats build_stats;
    {
      auto b = std::make_unique<HashJoinBuildOp>(&tc.ctx, 0, source(&tc.ctx, build), std::vector<int>{0});
      HashJoinProbeOp j(&tc.ctx, 0, source(&tc.ctx, probe), std::move(b), {0}, type, nullptr);
      got = sorted(drain(j));
      build_stats = j.children()[1]->stats();
    }
    EXPECT_EQ(got, want.rows);
    EXPECT_GE(build_stats.spills, 1u);
    EXPECT_EQ(build_stats.spills, 1u) << "no partition was split: each loaded into the reserve";
    EXPECT_LE(tc.memory.peak(), limit);
    EXPECT_EQ(tc.memory.used(), limit - reserve);
  }
}

TEST(HashJoinSpillTest, RandomSizesAndLimitsGiveTheInMemoryRowsOrAMemoryError) {
  // Sizes, key spreads and limits drawn at random (fixed seed): every run gives the in-memory rows, or fails
  // with MEMORY_LIMIT_EXCEEDED (a limit too small for even the spill buffers); most of them spill and finish.
  std::mt19937 rng(42);
  int spilled_and_finished = 0;
  for (int round = 0; round < 24; ++round) {
    const size_t np = 500 + rng() % 6000, nb = 500 + rng() % 6000;
    const int64_t distinct = 1 + rng() % 3000;
    const Batch probe = rows(np, distinct, rng(), "p");
    const Batch build = rows(nb, distinct, rng(), "b");
    const JoinType type = kAllTypes[rng() % 7];
    const bool with_residual = rng() % 2;
    const int64_t limit = (48 << 10) + rng() % (400 << 10);
    SCOPED_TRACE(fmt::format("round {}: {} residual={} probe {} build {} distinct {} limit {}", round,
                             join_type_name(type), with_residual, np, nb, distinct, limit));
    JoinRun want = run(probe, build, {0}, type, with_residual ? residual() : nullptr, int64_t{1} << 40, false);
    try {
      JoinRun got = run(probe, build, {0}, type, with_residual ? residual() : nullptr, limit, true);
      EXPECT_EQ(got.rows, want.rows);
      EXPECT_EQ(got.left, 0);
      if (got.build.spills > 0) ++spilled_and_finished;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED) << e.message();
      EXPECT_NE(e.message().find("spilling did not help"), std::string::npos) << e.message();
    }
  }
  EXPECT_GE(spilled_and_finished, 12);
}

TEST(HashJoinSpillTest, ABuildThatFitsDoesNotSpill) {
  const Batch probe = rows(2000, 500, 1, "p");
  const Batch build = rows(1000, 500, 2, "b");
  JoinRun want = run(probe, build, {0}, JoinType::FullOuter, residual(), int64_t{1} << 40, false);
  JoinRun got = run(probe, build, {0}, JoinType::FullOuter, residual(), int64_t{1} << 40, true);
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_EQ(got.build.spills, 0u);
  EXPECT_EQ(got.probe.spilled_rows, 0u);
}

}  // namespace
}  // namespace hindsight
