#include "planner/optimizer/cardinality_model.hpp"

#include <gtest/gtest.h>

#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

/// Estimates of the child of the top COUNT(*) aggregate vs the count.
std::pair<double, double> counted(const std::string& from_where) {
  auto r = testing::run("SELECT count(*) FROM " + from_where);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->format() : "");
  if (!r.ok()) return {0, 0};
  const LogicalOperator* op = r.compiled->logical.get();
  while (op->kind != LogicalKind::Aggregate) op = op->children.at(0).get();
  double est = op->children.at(0)->estimated_rows;
  return {est, static_cast<double>(r.executed.batches.at(0).columns.at(0).ints.at(0))};
}

void expect_within(std::pair<double, double> ea, double factor, const std::string& what) {
  auto [est, actual] = ea;
  ASSERT_GT(actual, 0) << what;
  EXPECT_LE(est, actual * factor) << what << ": estimated " << est << ", actual " << actual;
  EXPECT_GE(est, actual / factor) << what << ": estimated " << est << ", actual " << actual;
}

TEST(CardinalityModelTest, RangeAndEqualityUseColumnStatistics) {
  expect_within(counted("lineitem WHERE l_shipdate < DATE '1995-01-01'"), 1.5, "date range");
  expect_within(counted("lineitem WHERE l_returnflag = 'R'"), 1.5, "equality on a low-cardinality column");
  expect_within(counted("lineitem WHERE l_shipmode IN ('MAIL', 'SHIP')"), 1.5, "IN list");
  expect_within(counted("part WHERE p_type LIKE 'PROMO%'"), 1.5, "LIKE prefix");
}

TEST(CardinalityModelTest, EquiJoinsUseContainment) {
  expect_within(counted("orders, lineitem WHERE o_orderkey = l_orderkey"), 1.5, "orders join lineitem");
  expect_within(counted("customer, nation WHERE c_nationkey = n_nationkey"), 1.5, "customer join nation");
}

TEST(CardinalityModelTest, GroupCountsComeFromDistinctCounts) {
  auto r = testing::run("SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY l_returnflag, l_linestatus");
  ASSERT_TRUE(r.ok());
  const LogicalOperator* op = r.compiled->logical.get();
  while (op->kind != LogicalKind::Aggregate) op = op->children.at(0).get();
  // 3 flags x 2 statuses bound the estimate; 4 combinations exist.
  EXPECT_LE(op->estimated_rows, 6);
  EXPECT_GE(op->estimated_rows, 3);
  EXPECT_EQ(r.executed.row_count(), 4u);
}

}  // namespace
}  // namespace hindsight
