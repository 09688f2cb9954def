#include "planner/optimizer/cost_based_join_order.hpp"

#include <gtest/gtest.h>

#include <set>

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

// Legality: outer, semi and anti joins are barriers. Reordering may change the inner joins on
// either side of them, never which tables sit on which side.

void tables_under(const LogicalOperator& op, std::multiset<std::string>& out) {
  if (op.kind == LogicalKind::Get) out.insert(op.as<LogicalGet>().table.name);
  for (auto& c : op.children) tables_under(*c, out);
}

/// For every non-inner join: its type and the tables under each side, in plan order.
std::vector<std::string> barrier_sides(const LogicalOperator& op) {
  std::vector<std::string> out;
  if (op.kind == LogicalKind::Join && op.as<LogicalJoin>().type != LogicalJoinType::Inner) {
    std::string text = join_type_name(op.as<LogicalJoin>().type);
    for (auto& c : op.children) {
      std::multiset<std::string> t;
      tables_under(*c, t);
      text += " |";
      for (auto& n : t) text += " " + n;
    }
    out.push_back(text);
  }
  for (auto& c : op.children)
    for (auto& s : barrier_sides(*c)) out.push_back(s);
  return out;
}

int inner_joins(const LogicalOperator& op) {
  int n = op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Inner;
  for (auto& c : op.children) n += inner_joins(*c);
  return n;
}

void expect_legal_reordering(const std::string& sql, const std::string& barrier_type) {
  Settings written;
  written.disabled_rules = {"cost_based_join_order"};
  auto before = testing::compile(sql, written);
  auto after = testing::compile(sql);
  auto b = barrier_sides(*before->logical), a = barrier_sides(*after->logical);
  ASSERT_FALSE(a.empty()) << sql;
  EXPECT_NE(a[0].find(barrier_type), std::string::npos) << a[0];
  EXPECT_EQ(a, b) << sql;
  EXPECT_EQ(inner_joins(*after->logical), inner_joins(*before->logical));
  // And the rows agree.
  auto r1 = testing::run(sql, written), r2 = testing::run(sql);
  ASSERT_TRUE(r1.ok() && r2.ok());
  ASSERT_EQ(r1.executed.row_count(), r2.executed.row_count());
  const Batch& x = r1.executed.batches.at(0);
  const Batch& y = r2.executed.batches.at(0);
  for (size_t c = 0; c < x.columns.size(); ++c) EXPECT_EQ(x.columns[c].get(0).to_sql(), y.columns[c].get(0).to_sql()) << sql;
}

TEST(CostBasedJoinOrderTest, LeftJoinKeepsItsSides) {
  expect_legal_reordering(
      "SELECT count(*), count(o_orderkey) FROM customer JOIN nation ON c_nationkey = n_nationkey "
      "JOIN region ON n_regionkey = r_regionkey "
      "LEFT JOIN orders ON o_custkey = c_custkey AND o_totalprice > 300000 WHERE r_name = 'ASIA'",
      "left");
}

TEST(CostBasedJoinOrderTest, RightSideOfALeftJoinIsOrderedSeparately) {
  expect_legal_reordering(
      "SELECT count(*), sum(x.l_quantity) FROM supplier JOIN nation ON s_nationkey = n_nationkey "
      "JOIN region ON n_regionkey = r_regionkey LEFT JOIN "
      "(SELECT l_suppkey, l_quantity FROM lineitem, orders, customer WHERE l_orderkey = o_orderkey "
      " AND o_custkey = c_custkey AND c_mktsegment = 'BUILDING') x ON x.l_suppkey = s_suppkey",
      "left");
}

TEST(CostBasedJoinOrderTest, SemiJoinKeepsItsSides) {
  expect_legal_reordering(
      "SELECT count(*) FROM customer, nation, region WHERE c_nationkey = n_nationkey AND n_regionkey = r_regionkey "
      "AND EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey AND o_totalprice > 300000)",
      "semi");
}

TEST(CostBasedJoinOrderTest, AntiJoinKeepsItsSides) {
  expect_legal_reordering(
      "SELECT count(*) FROM customer, nation, region WHERE c_nationkey = n_nationkey AND n_regionkey = r_regionkey "
      "AND NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)",
      "anti");
}

TEST(CostBasedJoinOrderTest, NotInKeepsItsSides) {
  expect_legal_reordering(
      "SELECT count(*) FROM part, partsupp, supplier WHERE p_partkey = ps_partkey AND ps_suppkey = s_suppkey "
      "AND p_size NOT IN (SELECT n_nationkey FROM nation, region WHERE n_regionkey = r_regionkey AND r_name = 'EUROPE')",
      "null-aware anti");
}

TEST(CostBasedJoinOrderTest, FullOuterJoinKeepsItsSides) {
  expect_legal_reordering(
      "SELECT count(*), count(s_suppkey), count(c_custkey) FROM "
      "(SELECT s_suppkey, s_nationkey FROM supplier, nation, region WHERE s_nationkey = n_nationkey AND n_regionkey = r_regionkey) s "
      "FULL JOIN customer ON s_suppkey = c_custkey",
      "full");
}

}  // namespace
}  // namespace hindsight
