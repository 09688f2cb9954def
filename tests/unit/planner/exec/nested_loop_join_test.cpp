#include <gtest/gtest.h>

#include "planner/exec/operators/nested_loop_join.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

Batch probe_rows() { return make_batch({int_col({1, 5, std::nullopt, 9})}); }
Batch build_rows() { return make_batch({int_col({4, 6, std::nullopt})}); }

V run_nlj(Batch probe, Batch build, ExprPtr cond, JoinType type, size_t chunk = kBatchSize) {
  TestContext tc;
  NestedLoopJoinOp op(&tc.ctx, 0, source(&tc.ctx, std::move(probe), chunk), source(&tc.ctx, std::move(build), chunk),
                      std::move(cond), type);
  return sorted(drain(op));
}

ExprPtr probe_lt_build() { return compare(ScalarOp::Lt, col_ref(0), col_ref(1)); }

TEST(NestedLoopJoinTest, InnerWithInequality) {
  EXPECT_EQ(run_nlj(probe_rows(), build_rows(), probe_lt_build(), JoinType::Inner), (V{"1|4", "1|6", "5|6"}));
}

TEST(NestedLoopJoinTest, CrossJoinWithoutCondition) {
  EXPECT_EQ(run_nlj(probe_rows(), build_rows(), nullptr, JoinType::Inner).size(), 12u);
  EXPECT_EQ(run_nlj(probe_rows(), make_batch({int_col({})}), nullptr, JoinType::Inner), V{});
}

TEST(NestedLoopJoinTest, ProbeOuterSemiAnti) {
  EXPECT_EQ(run_nlj(probe_rows(), build_rows(), probe_lt_build(), JoinType::ProbeOuter),
            (V{"1|4", "1|6", "5|6", "9|NULL", "NULL|NULL"}));
  EXPECT_EQ(run_nlj(probe_rows(), build_rows(), probe_lt_build(), JoinType::Semi), (V{"1", "5"}));
  EXPECT_EQ(run_nlj(probe_rows(), build_rows(), probe_lt_build(), JoinType::Anti), (V{"9", "NULL"}));
  EXPECT_EQ(run_nlj(probe_rows(), make_batch({int_col({})}), nullptr, JoinType::Anti).size(), 4u);
  EXPECT_EQ(run_nlj(probe_rows(), make_batch({int_col({})}), probe_lt_build(), JoinType::ProbeOuter).size(), 4u);
}

TEST(NestedLoopJoinTest, LargeCrossProductSpansBatchesAndCountsStats) {
  std::vector<OptInt> a, b;
  for (int i = 0; i < 300; ++i) a.push_back(i);
  for (int i = 0; i < 100; ++i) b.push_back(i);
  TestContext tc;
  NestedLoopJoinOp op(&tc.ctx, 0, source(&tc.ctx, make_batch({int_col(a)}), 64),
                      source(&tc.ctx, make_batch({int_col(b)}), 64), compare(ScalarOp::Eq, col_ref(0), col_ref(1)),
                      JoinType::Inner);
  V rows = drain(op);
  EXPECT_EQ(rows.size(), 100u);
  EXPECT_EQ(op.stats().rows_in, 400u);  // both children
  EXPECT_EQ(op.stats().rows_out, 100u);
}

TEST(NestedLoopJoinTest, UnsupportedJoinTypesAreRejected) {
  TestContext tc;
  try {
    NestedLoopJoinOp op(&tc.ctx, 0, source(&tc.ctx, probe_rows()), source(&tc.ctx, build_rows()), nullptr,
                        JoinType::FullOuter);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::NOT_SUPPORTED);
  }
}

}  // namespace
}  // namespace hindsight
