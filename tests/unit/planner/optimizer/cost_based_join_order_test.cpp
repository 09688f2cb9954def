#include "planner/optimizer/cost_based_join_order.hpp"

#include <gtest/gtest.h>

#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

const char* kStar =
    "SELECT count(*) FROM lineitem, supplier, nation, region WHERE l_suppkey = s_suppkey "
    "AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = 'ASIA'";

/// The top inner join under the aggregate.
const LogicalOperator& top_join(const LogicalOperator& root) {
  const LogicalOperator* op = &root;
  while (op->kind != LogicalKind::Join) op = op->children.at(0).get();
  return *op;
}

bool is_scan_of(const LogicalOperator& op, const std::string& table) {
  return op.kind == LogicalKind::Get && op.as<LogicalGet>().table.name == table;
}

TEST(CostBasedJoinOrderTest, JoinsTheSelectiveDimensionsBeforeTheFactTable) {
  auto cq = testing::compile(kStar);
  const LogicalOperator& top = top_join(*cq->logical);
  // The big fact table meets the (already reduced) dimensions at the very top.
  EXPECT_TRUE(is_scan_of(*top.children[0], "lineitem") || is_scan_of(*top.children[1], "lineitem"));
}

TEST(CostBasedJoinOrderTest, DisabledItKeepsTheWrittenOrder) {
  Settings s;
  s.disabled_rules = {"cost_based_join_order"};
  auto cq = testing::compile(kStar, s);
  const LogicalOperator& top = top_join(*cq->logical);
  EXPECT_TRUE(is_scan_of(*top.children[1], "region")) << "written order puts region last";
}

TEST(CostBasedJoinOrderTest, ResultsDoNotDependOnTheOrder) {
  auto a = testing::run(kStar);
  Settings s;
  s.disabled_rules = {"cost_based_join_order"};
  auto b = testing::run(kStar, s);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.executed.batches.at(0).columns.at(0).ints.at(0), b.executed.batches.at(0).columns.at(0).ints.at(0));
}

}  // namespace
}  // namespace hindsight
