#include <gtest/gtest.h>

#include <fmt/format.h>

#include <map>
#include <random>

#include "planner/exec/operators/hash_join_build.hpp"
#include "planner/exec/operators/hash_join_probe.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

std::unique_ptr<HashJoinProbeOp> make_join(TestContext& tc, Batch probe, Batch build, std::vector<int> pk,
                                           std::vector<int> bk, JoinType type, ExprPtr residual = nullptr,
                                           size_t chunk = kBatchSize) {
  auto b = std::make_unique<HashJoinBuildOp>(&tc.ctx, 0, source(&tc.ctx, std::move(build), chunk), std::move(bk));
  return std::make_unique<HashJoinProbeOp>(&tc.ctx, 0, source(&tc.ctx, std::move(probe), chunk), std::move(b),
                                           std::move(pk), type, std::move(residual));
}

V run_join(Batch probe, Batch build, JoinType type, ExprPtr residual = nullptr) {
  TestContext tc;
  auto j = make_join(tc, std::move(probe), std::move(build), {0}, {0}, type, std::move(residual));
  return sorted(drain(*j));
}

// probe: (k, tag) with keys 1, 2, 2, 3, NULL; build: (k, name) with keys 2, 2, 4, NULL
Batch probe_rows() { return make_batch({int_col({1, 2, 2, 3, std::nullopt}), str_col({"p1", "p2a", "p2b", "p3", "pn"})}); }
Batch build_rows() { return make_batch({int_col({2, 2, 4, std::nullopt}), str_col({"b2a", "b2b", "b4", "bn"})}); }

TEST(HashJoinTest, InnerMatchesDuplicatesAndNeverNullKeys) {
  EXPECT_EQ(run_join(probe_rows(), build_rows(), JoinType::Inner),
            (V{"2|p2a|2|b2a", "2|p2a|2|b2b", "2|p2b|2|b2a", "2|p2b|2|b2b"}));
}

TEST(HashJoinTest, ProbeOuterKeepsUnmatchedAndNullKeyProbeRows) {
  EXPECT_EQ(run_join(probe_rows(), build_rows(), JoinType::ProbeOuter),
            (V{"1|p1|NULL|NULL", "2|p2a|2|b2a", "2|p2a|2|b2b", "2|p2b|2|b2a", "2|p2b|2|b2b", "3|p3|NULL|NULL",
               "NULL|pn|NULL|NULL"}));
}

TEST(HashJoinTest, BuildOuterEmitsUnmatchedBuildRowsIncludingNullKeys) {
  EXPECT_EQ(run_join(probe_rows(), build_rows(), JoinType::BuildOuter),
            (V{"2|p2a|2|b2a", "2|p2a|2|b2b", "2|p2b|2|b2a", "2|p2b|2|b2b", "NULL|NULL|4|b4", "NULL|NULL|NULL|bn"}));
}

TEST(HashJoinTest, FullOuterHasBothSides) {
  EXPECT_EQ(run_join(probe_rows(), build_rows(), JoinType::FullOuter),
            (V{"1|p1|NULL|NULL", "2|p2a|2|b2a", "2|p2a|2|b2b", "2|p2b|2|b2a", "2|p2b|2|b2b", "3|p3|NULL|NULL",
               "NULL|NULL|4|b4", "NULL|NULL|NULL|bn", "NULL|pn|NULL|NULL"}));
}

TEST(HashJoinTest, SemiAndAntiOutputProbeColumnsOnce) {
  EXPECT_EQ(run_join(probe_rows(), build_rows(), JoinType::Semi), (V{"2|p2a", "2|p2b"}));
  // NOT EXISTS: a NULL probe key has no match, so it stays.
  EXPECT_EQ(run_join(probe_rows(), build_rows(), JoinType::Anti), (V{"1|p1", "3|p3", "NULL|pn"}));
}

TEST(HashJoinTest, NullAwareAntiCornerCases) {
  // Build side with a NULL key: x NOT IN (..., NULL) is never TRUE.
  EXPECT_EQ(run_join(probe_rows(), build_rows(), JoinType::NullAwareAnti), V{});
  // No NULL in the build side: NULL probe keys are dropped, the rest is Anti.
  Batch build = make_batch({int_col({2, 4}), str_col({"b2", "b4"})});
  EXPECT_EQ(run_join(probe_rows(), std::move(build), JoinType::NullAwareAnti), (V{"1|p1", "3|p3"}));
  // Empty build side: every probe row, NULL key or not.
  Batch empty = make_batch({int_col({}), str_col({})});
  EXPECT_EQ(run_join(probe_rows(), std::move(empty), JoinType::NullAwareAnti),
            (V{"1|p1", "2|p2a", "2|p2b", "3|p3", "NULL|pn"}));
}

TEST(HashJoinTest, EmptyBuildSide) {
  auto empty = [] { return make_batch({int_col({}), str_col({})}); };
  EXPECT_EQ(run_join(probe_rows(), empty(), JoinType::Inner), V{});
  EXPECT_EQ(run_join(probe_rows(), empty(), JoinType::Semi), V{});
  EXPECT_EQ(run_join(probe_rows(), empty(), JoinType::Anti).size(), 5u);
  EXPECT_EQ(run_join(probe_rows(), empty(), JoinType::ProbeOuter),
            (V{"1|p1|NULL|NULL", "2|p2a|NULL|NULL", "2|p2b|NULL|NULL", "3|p3|NULL|NULL", "NULL|pn|NULL|NULL"}));
}

// Residual over [probe k, probe tag, build k, build name]: probe tag < build name (string compare).
ExprPtr tag_lt_name() { return compare(ScalarOp::Lt, col_ref(1, DataType::varchar()), col_ref(3, DataType::varchar())); }

TEST(HashJoinTest, ResidualIsPartOfTheMatchCondition) {
  Batch probe = make_batch({int_col({1, 1, 2}), str_col({"a", "z", "m"})});
  Batch build = make_batch({int_col({1, 1, 2}), str_col({"c", "y", "b"})});
  auto copy = [](const Batch& b) { return b; };
  EXPECT_EQ(run_join(copy(probe), copy(build), JoinType::Inner, tag_lt_name()), (V{"1|a|1|c", "1|a|1|y"}));
  // ON semantics: key matches that fail the residual leave the probe row unmatched (NULL-extended once).
  EXPECT_EQ(run_join(copy(probe), copy(build), JoinType::ProbeOuter, tag_lt_name()),
            (V{"1|a|1|c", "1|a|1|y", "1|z|NULL|NULL", "2|m|NULL|NULL"}));
  EXPECT_EQ(run_join(copy(probe), copy(build), JoinType::BuildOuter, tag_lt_name()),
            (V{"1|a|1|c", "1|a|1|y", "NULL|NULL|2|b"}));
  EXPECT_EQ(run_join(copy(probe), copy(build), JoinType::Semi, tag_lt_name()), (V{"1|a"}));
  EXPECT_EQ(run_join(copy(probe), copy(build), JoinType::Anti, tag_lt_name()), (V{"1|z", "2|m"}));
}

TEST(HashJoinTest, MultiColumnKeysOfMixedKinds) {
  TestContext tc;
  Batch probe = make_batch({int_col({1, 1, 2, 2}), str_col({"x", "y", "x", std::nullopt}), dbl_col({0.0, 1, 2, 3})});
  Batch build = make_batch({str_col({"x", "x", "y", std::nullopt}), int_col({1, 2, 2, 2}), dbl_col({-0.0, 2, 9, 3})});
  auto j = make_join(tc, std::move(probe), std::move(build), {0, 1, 2}, {1, 0, 2}, JoinType::Inner);
  // -0.0 and 0.0 are equal keys; (2, NULL, 3) matches nothing.
  EXPECT_EQ(sorted(drain(*j)), (V{"1|x|0.0|x|1|-0.0", "2|x|2.0|x|2|2.0"}));
}

/// Reference: all pairs with equal non-NULL keys.
TEST(HashJoinTest, RandomInnerAndOuterMatchNestedLoopReference) {
  std::mt19937 rng(7);
  std::vector<OptInt> pk, bk;
  std::vector<OptInt> pv, bv;
  for (int i = 0; i < 6000; ++i) {
    pk.push_back(rng() % 10 == 0 ? std::nullopt : OptInt(rng() % 500));
    pv.push_back(i);
  }
  for (int i = 0; i < 3000; ++i) {
    bk.push_back(rng() % 10 == 0 ? std::nullopt : OptInt(rng() % 700));
    bv.push_back(i);
  }
  std::multimap<int64_t, int64_t> build_by_key;
  for (size_t i = 0; i < bk.size(); ++i)
    if (bk[i]) build_by_key.emplace(*bk[i], *bv[i]);
  V inner, outer;
  for (size_t i = 0; i < pk.size(); ++i) {
    bool matched = false;
    if (pk[i]) {
      auto [lo, hi] = build_by_key.equal_range(*pk[i]);
      for (auto it = lo; it != hi; ++it) {
        std::string row = fmt::format("{}|{}|{}|{}", *pk[i], *pv[i], it->first, it->second);
        inner.push_back(row);
        outer.push_back(row);
        matched = true;
      }
    }
    if (!matched) outer.push_back(fmt::format("{}|{}|NULL|NULL", pk[i] ? std::to_string(*pk[i]) : "NULL", *pv[i]));
  }
  TestContext tc;
  auto j = make_join(tc, make_batch({int_col(pk), int_col(pv)}), make_batch({int_col(bk), int_col(bv)}), {0}, {0},
                     JoinType::Inner, nullptr, 1000);
  EXPECT_EQ(sorted(drain(*j)), sorted(inner));
  auto o = make_join(tc, make_batch({int_col(pk), int_col(pv)}), make_batch({int_col(bk), int_col(bv)}), {0}, {0},
                     JoinType::ProbeOuter, nullptr, 777);
  EXPECT_EQ(sorted(drain(*o)), sorted(outer));
}

// A small build gets a sparse bucket array (most probes of a selective join then meet an empty
// slot); a large one two slots a row, probed with prefetches. Both find exactly the matching rows.
TEST(HashJoinTest, SmallBuildsGetSparseTablesAndBothSizesMatchTheReference) {
  for (int build_rows : {100, 3000, 20000}) {
    std::vector<OptInt> pk, bk;
    for (int i = 0; i < 50000; ++i) pk.push_back(OptInt((i * 7919) % 100000));
    for (int i = 0; i < build_rows; ++i) bk.push_back(OptInt(i * 3));
    V want;
    for (const auto& k : pk)
      if (*k % 3 == 0 && *k / 3 < build_rows) want.push_back(std::to_string(*k));
    TestContext tc;
    auto b = std::make_unique<HashJoinBuildOp>(&tc.ctx, 0, source(&tc.ctx, make_batch({int_col(bk)})), std::vector<int>{0});
    HashJoinBuildOp* build = b.get();
    HashJoinProbeOp j(&tc.ctx, 0, source(&tc.ctx, make_batch({int_col(pk)})), std::move(b), {0}, JoinType::Semi, nullptr);
    j.open();
    Batch out;
    V got;
    bool first = true;
    while (j.next(out)) {
      if (first) {
        const size_t slots = build->slots();
        const size_t rows = static_cast<size_t>(build_rows);
        if (rows * 8 <= HashJoinBuildOp::kSparseSlots) EXPECT_GE(slots, rows * 8) << build_rows;
        else EXPECT_LT(slots, rows * 8) << build_rows;
        EXPECT_GE(slots, rows * 2) << build_rows;
        first = false;
      }
      for (size_t r = 0; r < out.rows; ++r) got.push_back(std::to_string(out.columns[0].ints[r]));
    }
    EXPECT_EQ(sorted(got), sorted(want)) << build_rows;
  }
}

TEST(HashJoinTest, OneProbeBatchWithManyMatchesSpansSeveralOutputBatches) {
  TestContext tc;
  std::vector<OptInt> keys(100, 5), build_keys(100, 5);
  auto j = make_join(tc, make_batch({int_col(keys)}), make_batch({int_col(build_keys)}), {0}, {0}, JoinType::Inner);
  j->open();
  Batch b;
  size_t rows = 0, batches = 0;
  while (j->next(b)) {
    EXPECT_LE(b.rows, kBatchSize);
    rows += b.rows;
    ++batches;
  }
  EXPECT_EQ(rows, 10000u);
  EXPECT_GE(batches, 10000u / kBatchSize);
}

TEST(HashJoinTest, StatsCountRowsOfBothSides) {
  TestContext tc;
  auto j = make_join(tc, probe_rows(), build_rows(), {0}, {0}, JoinType::Inner, nullptr, 2);
  EXPECT_EQ(drain(*j).size(), 4u);
  EXPECT_EQ(j->stats().rows_in, 5u);
  EXPECT_EQ(j->stats().rows_out, 4u);
  EXPECT_TRUE(j->stats().complete);
  const ExecOperator& build = *j->children()[1];
  EXPECT_EQ(build.name(), "HashJoinBuild");
  EXPECT_EQ(build.stats().rows_in, 4u);
  EXPECT_TRUE(build.stats().complete);
  EXPECT_GT(build.stats().peak_memory, 0);
}

TEST(HashJoinTest, BuildOverTheMemoryBudgetFailsNamingTheOperator) {
  TestContext tc(4096);
  std::vector<OptInt> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(i);
  {
    auto j = make_join(tc, make_batch({int_col(keys)}), make_batch({int_col(keys)}), {0}, {0}, JoinType::Inner);
    j->children()[1]->exec_id = 7;
    try {
      drain(*j);
      FAIL() << "expected MEMORY_LIMIT_EXCEEDED";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
      EXPECT_NE(e.message().find("HashJoinBuild#7"), std::string::npos) << e.message();
    }
    EXPECT_FALSE(j->stats().complete);
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

TEST(HashJoinTest, MemoryIsReleasedWhenExhaustedAndWhenDestroyed) {
  {
    // Abandoned half-way (as under a LIMIT): held until destroyed.
    TestContext tc;
    {
      auto j = make_join(tc, probe_rows(), build_rows(), {0}, {0}, JoinType::Inner, nullptr, 1);
      j->open();
      Batch b;
      ASSERT_TRUE(j->next(b));
      EXPECT_GT(tc.memory.used(), 0);
    }
    EXPECT_EQ(tc.memory.used(), 0);
  }
  TestContext tc;
  {
    auto j = make_join(tc, probe_rows(), build_rows(), {0}, {0}, JoinType::FullOuter);
    drain(*j);
    EXPECT_GT(tc.memory.peak(), 0);
    EXPECT_EQ(tc.memory.used(), 0);  // freed once the probe is exhausted
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

}  // namespace
}  // namespace hindsight
