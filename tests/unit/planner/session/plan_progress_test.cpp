// plan_progress: a plan's work with what a run observed, done and to do (what spilling in place weighs, docs/reexec.md).
#include <gtest/gtest.h>

#include <functional>

#include "planner/session/query_pipeline.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

// The build side's filter is estimated at about 1.6k rows of lineitem and keeps about 58k at SF 0.01, so the join's
// output is underestimated as much (tests/cli/reexec_cli_test.py's map join). Its three conjuncts are judged one by
// one (filter_sample off: the row sample would judge them right), which is the misestimate these tests need.
const char* kMapJoin =
    "SELECT count(*), sum(b.l_quantity) FROM lineitem a JOIN lineitem b ON a.l_partkey = b.l_partkey "
    "WHERE b.l_quantity + b.l_tax > 2 AND b.l_extendedprice / b.l_quantity > 900 AND b.l_tax + b.l_discount >= 0";

std::unique_ptr<CompiledQuery> compile_map_join() {
  Settings s;
  s.filter_sample = false;
  return testing::compile(kMapJoin, s);
}

std::vector<std::pair<double, double>> estimates(const CompiledQuery& cq) {
  std::vector<std::pair<double, double>> out;
  std::function<void(const PhysicalOperator&)> walk = [&](const PhysicalOperator& op) {
    out.emplace_back(op.estimated_rows, op.subtree_cost);
    for (auto& c : op.children) walk(*c);
  };
  walk(*cq.physical);
  return out;
}

TEST(PlanProgressTest, NothingObservedIsThePlanAsEstimatedWithNothingDone) {
  auto cq = compile_map_join();
  const auto before = estimates(*cq);
  const PlanProgress p = plan_progress(*cq, nullptr, Settings{});
  EXPECT_NEAR(p.total, plan_cost(*cq), 1e-6 * plan_cost(*cq));
  EXPECT_EQ(p.done, 0);
  EXPECT_GT(p.peak_bytes, 0);
  EXPECT_EQ(estimates(*cq), before);  // restored
}

TEST(PlanProgressTest, ARunToTheEndDidAllOfItsWork) {
  auto cq = compile_map_join();
  const auto before = estimates(*cq);
  ExecutedQuery run = execute_query(*cq, Settings{});
  ASSERT_FALSE(run.error) << run.error->message();
  const PlanProgress p = plan_progress(*cq, &run, Settings{});
  EXPECT_NEAR(p.done, p.total, 1e-6 * p.total);
  EXPECT_DOUBLE_EQ(p.total, plan_cost_observed(*cq, run, Settings{}));
  // The observed join output (about 1.8M rows) costs far more than the estimate (about 47k) did.
  EXPECT_GT(p.total, 5 * plan_cost(*cq));
  EXPECT_EQ(estimates(*cq), before);
}

/// The plan's progress after a run to the end (`whole`) and after a run that fails at its join probe's first rows
/// (`cut`: the build side finished, the join above it produced next to nothing).
struct WholeAndCut {
  PlanProgress whole, cut;
};
WholeAndCut whole_and_cut(CompiledQuery& cq) {
  WholeAndCut out;
  ExecutedQuery full = execute_query(cq, Settings{});
  EXPECT_FALSE(full.error);
  out.whole = plan_progress(cq, &full, Settings{});
  Settings s;
  apply_setting(s, "fault_injection", "operator=HashJoinProbe;after_rows=1;error=TRANSIENT");
  ExecutedQuery cut = execute_query(cq, s);
  EXPECT_TRUE(cut.error);
  out.cut = plan_progress(cq, &cut, s);
  return out;
}

TEST(PlanProgressTest, ARunCutShortRescalesWhatItDidNotFinishByWhatItSaw) {
  // The build side finishes (58k rows where 1.6k were estimated): the join's rows are its estimate scaled by its
  // build side's correction.
  auto cq = compile_map_join();
  const WholeAndCut p = whole_and_cut(*cq);
  EXPECT_GT(p.cut.done, 0);
  EXPECT_LT(p.cut.done, 0.5 * p.cut.total);
  EXPECT_GT(p.cut.total, 0.5 * p.whole.total);
  EXPECT_LT(p.cut.total, 2 * p.whole.total);
}

TEST(PlanProgressTest, ANotInJoinIsNeverRescaledByItsBuildSide) {
  // The NOT IN's build side is kMapJoin's underestimated filter: more rows there can only remove orders, so the
  // join's output stays within its probe side (orders) however far the build side's estimate was off.
  auto cq = testing::compile(
      "SELECT count(*) FROM orders WHERE o_orderkey NOT IN (SELECT l_orderkey FROM lineitem WHERE "
      "l_quantity + l_tax > 2 AND l_extendedprice / l_quantity > 900 AND l_tax + l_discount >= 0)");
  const WholeAndCut p = whole_and_cut(*cq);
  EXPECT_GT(p.cut.done, 0);
  EXPECT_LT(p.cut.total, 1.5 * p.whole.total);
}

}  // namespace
}  // namespace hindsight
