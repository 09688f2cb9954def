#include "planner/optimizer/cost_based_join_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "planner/logical/plan_utils.hpp"
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

// Semi, anti and null-aware anti joins are part of the search: the right side is one relation that
// never changes, the left side may hold more or fewer tables than written, but always every table
// the join's conditions read (a semi join never ends below a relation its predicate needs).

bool is_semi_like(const LogicalOperator& op) {
  if (op.kind != LogicalKind::Join) return false;
  const LogicalJoinType t = op.as<LogicalJoin>().type;
  return t == LogicalJoinType::Semi || t == LogicalJoinType::Anti || t == LogicalJoinType::NullAwareAnti;
}

struct Sides {
  std::string type;
  std::multiset<std::string> left, right;
};

/// Every semi-like join by node id (the enumerator keeps the node), with the tables under each side;
/// checks on the way that its conditions read only columns its two inputs offer.
void semi_sides(const LogicalOperator& op, std::map<NodeId, Sides>& out) {
  if (is_semi_like(op)) {
    Sides s;
    s.type = join_type_name(op.as<LogicalJoin>().type);
    tables_under(*op.children[0], s.left);
    tables_under(*op.children[1], s.right);
    std::set<ColumnId> offered = output_set(*op.children[0]);
    for (ColumnId c : output_set(*op.children[1])) offered.insert(c);
    for (auto& cond : op.as<LogicalJoin>().conditions)
      for (ColumnId c : columns_of(*cond))
        EXPECT_TRUE(offered.count(c)) << s.type << " join " << op.id << " is below a relation its predicate reads";
    out[op.id] = s;
  }
  for (auto& c : op.children) semi_sides(*c, out);
}

/// Every row of the result as text, sorted.
std::vector<std::string> all_rows(const StatementResult& r) {
  std::vector<std::string> rows;
  for (const Batch& b : r.executed.batches) {
    const size_t n = b.columns.empty() ? 0 : b.columns[0].size();
    for (size_t i = 0; i < n; ++i) {
      std::string row;
      for (auto& c : b.columns) row += c.get(i).to_sql() + "|";
      rows.push_back(row);
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// The semi-like joins of `sql` keep their right sides and the tables their conditions need on the
/// left; outer joins keep their sides; `moves` of them end over other tables than written; the
/// rows equal the written order's at 1 and 4 workers. `base`: the settings of both plans (disabled rules).
void expect_legal_semi_reordering(const std::string& sql, size_t semi_joins, size_t moves, const Settings& base = {}) {
  Settings written = base;
  written.disabled_rules.insert("cost_based_join_order");
  auto before = testing::compile(sql, written);
  auto after = testing::compile(sql, base);
  std::map<NodeId, Sides> b, a;
  semi_sides(*before->logical, b);
  semi_sides(*after->logical, a);
  ASSERT_EQ(b.size(), semi_joins) << sql;
  ASSERT_EQ(a.size(), semi_joins) << sql;
  size_t moved = 0;
  for (auto& [id, w] : b) {
    ASSERT_TRUE(a.count(id)) << "semi join " << id << " lost its node";
    EXPECT_EQ(a[id].type, w.type);
    EXPECT_EQ(a[id].right, w.right) << w.type << ": the right side is one relation of the graph";
    moved += a[id].left != w.left;
  }
  EXPECT_EQ(moved, moves) << sql;
  std::vector<std::string> outer_b, outer_a;
  for (auto& x : barrier_sides(*before->logical))
    if (x.rfind("left", 0) == 0 || x.rfind("full", 0) == 0 || x.rfind("right", 0) == 0) outer_b.push_back(x);
  for (auto& x : barrier_sides(*after->logical))
    if (x.rfind("left", 0) == 0 || x.rfind("full", 0) == 0 || x.rfind("right", 0) == 0) outer_a.push_back(x);
  EXPECT_EQ(outer_a, outer_b) << "outer joins never move";
  EXPECT_EQ(inner_joins(*after->logical), inner_joins(*before->logical));
  for (int workers : {1, 4}) {
    written.workers = workers;
    Settings reordered = base;
    reordered.workers = workers;
    auto r1 = testing::run(sql, written), r2 = testing::run(sql, reordered);
    ASSERT_TRUE(r1.ok() && r2.ok()) << sql;
    EXPECT_GT(r1.executed.row_count(), 0u) << "an empty result would show nothing";
    EXPECT_EQ(all_rows(r1), all_rows(r2)) << sql << " at " << workers << " workers";
  }
}

TEST(CostBasedJoinOrderTest, SemiJoinGoesDownToTheTableItReads) {
  expect_legal_semi_reordering(
      "SELECT c_custkey, n_name FROM customer, nation, region WHERE c_nationkey = n_nationkey AND n_regionkey = r_regionkey "
      "AND EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey AND o_totalprice > 300000)",
      1, 1);
}

TEST(CostBasedJoinOrderTest, AntiJoinGoesDownToTheTableItReads) {
  expect_legal_semi_reordering(
      "SELECT c_custkey, n_name FROM customer, nation, region WHERE c_nationkey = n_nationkey AND n_regionkey = r_regionkey "
      "AND NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)",
      1, 1);
}

TEST(CostBasedJoinOrderTest, NotInGoesDownToTheTableItReads) {
  expect_legal_semi_reordering(
      "SELECT p_partkey, s_name FROM part, partsupp, supplier WHERE p_partkey = ps_partkey AND ps_suppkey = s_suppkey "
      "AND p_size NOT IN (SELECT n_nationkey FROM nation, region WHERE n_regionkey = r_regionkey AND r_name = 'EUROPE')",
      1, 1);
}

TEST(CostBasedJoinOrderTest, StackedSemiAndAntiJoinsEachFindTheirTable) {
  expect_legal_semi_reordering(
      "SELECT c_custkey, n_name FROM customer, nation, region WHERE c_nationkey = n_nationkey AND n_regionkey = r_regionkey "
      "AND EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey AND o_totalprice > 200000) "
      "AND NOT EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal < -900)",
      2, 2);
}

TEST(CostBasedJoinOrderTest, SemiJoinNestedInASemiJoinsRightSide) {
  expect_legal_semi_reordering(
      "SELECT c_custkey, n_name FROM customer, nation, region WHERE c_nationkey = n_nationkey AND n_regionkey = r_regionkey "
      "AND EXISTS (SELECT 1 FROM orders, lineitem WHERE o_custkey = c_custkey AND l_orderkey = o_orderkey "
      "            AND l_quantity > 45 AND EXISTS (SELECT 1 FROM part WHERE p_partkey = l_partkey AND p_size < 5))",
      2, 2);
}

TEST(CostBasedJoinOrderTest, SemiJoinOverTwoTablesStaysAboveBoth) {
  // Its conditions read orders and customer: it goes below the join with the big lineitem l0,
  // never below the join of orders and customer.
  const std::string sql =
      "SELECT o_orderkey, c_name, l0.l_linenumber FROM lineitem l0, orders, customer, nation, region "
      "WHERE l0.l_orderkey = o_orderkey AND o_custkey = c_custkey AND c_nationkey = n_nationkey "
      "AND n_regionkey = r_regionkey AND r_name = 'ASIA' "
      "AND EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey AND l_suppkey = c_nationkey AND l_quantity > 40)";
  expect_legal_semi_reordering(sql, 1, 1);
  std::map<NodeId, Sides> a;
  semi_sides(*testing::compile(sql)->logical, a);
  ASSERT_EQ(a.size(), 1u);
  const Sides& semi = a.begin()->second;
  EXPECT_TRUE(semi.left.count("orders") && semi.left.count("customer"));
  EXPECT_FALSE(semi.left.count("lineitem")) << "applied before the join with l0";
}

TEST(CostBasedJoinOrderTest, SemiJoinCorrelatedOnTwoColumns) {
  expect_legal_semi_reordering(
      "SELECT ps_partkey, ps_suppkey, s_name FROM partsupp, part, supplier WHERE ps_partkey = p_partkey "
      "AND ps_suppkey = s_suppkey AND p_size < 20 "
      "AND EXISTS (SELECT 1 FROM lineitem WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey AND l_quantity > 49 "
      "AND l_discount = 0.1)",
      1, 1);
}

TEST(CostBasedJoinOrderTest, GreedyBeyondFourteenRelationsKeepsTheSemiJoinLegal) {
  // Fifteen nations in a chain and a semi join on the eighth: 16 relations, past DPccp's limit.
  std::string sql = "SELECT n1.n_name, n15.n_regionkey FROM nation n1";
  for (int i = 2; i <= 15; ++i) sql += ", nation n" + std::to_string(i);
  sql += " WHERE n1.n_nationkey = n2.n_nationkey";
  for (int i = 3; i <= 15; ++i)
    sql += " AND n" + std::to_string(i - 1) + ".n_nationkey = n" + std::to_string(i) + ".n_nationkey";
  sql += " AND EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = n8.n_nationkey AND s_acctbal > 9000)";
  expect_legal_semi_reordering(sql, 1, 1);
}

TEST(CostBasedJoinOrderTest, LeftJoinUnderASemiJoinKeepsItsSides) {
  // The semi join reads the LEFT join's null-producing side: the LEFT join is one relation, and
  // neither it nor the semi join above it moves. (Its condition rejects the null-extended rows, so
  // simplify_outer_joins would make the join inner: kept LEFT here to test the barrier.)
  Settings keep_outer;
  keep_outer.disabled_rules = {"simplify_outer_joins"};
  expect_legal_semi_reordering(
      "SELECT c_custkey, o_orderkey FROM customer JOIN nation ON c_nationkey = n_nationkey "
      "JOIN region ON n_regionkey = r_regionkey LEFT JOIN orders ON o_custkey = c_custkey AND o_totalprice > 300000 "
      "WHERE r_name = 'ASIA' AND EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 49)",
      1, 0, keep_outer);
}

TEST(CostBasedJoinOrderTest, SemiJoinGoesDownOntoAFullJoinNeverIntoIt) {
  // The FULL join is one relation of the graph: the semi join reading c_custkey may be applied
  // right over it (below the join with n2), never inside it. (The semi join and the inner join with n2
  // reject customer's nulls, so simplify_outer_joins would make it a RIGHT join: kept FULL here.)
  Settings keep_outer;
  keep_outer.disabled_rules = {"simplify_outer_joins"};
  const std::string sql =
      "SELECT s_suppkey, c_custkey FROM "
      "(SELECT s_suppkey, s_nationkey FROM supplier, nation, region WHERE s_nationkey = n_nationkey AND n_regionkey = r_regionkey) s "
      "FULL JOIN customer ON s_suppkey = c_custkey JOIN nation n2 ON n2.n_nationkey = c_nationkey "
      "WHERE EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey AND o_totalprice > 300000)";
  expect_legal_semi_reordering(sql, 1, 1, keep_outer);
  auto cq = testing::compile(sql, keep_outer);
  const LogicalOperator* op = cq->logical.get();
  std::vector<const LogicalOperator*> stack{op};
  bool found = false;
  while (!stack.empty()) {
    op = stack.back();
    stack.pop_back();
    if (is_semi_like(*op)) {
      found = true;
      ASSERT_EQ(op->children[0]->kind, LogicalKind::Join);
      EXPECT_EQ(op->children[0]->as<LogicalJoin>().type, LogicalJoinType::Full);
    }
    for (auto& c : op->children) stack.push_back(c.get());
  }
  EXPECT_TRUE(found);
}

// LEFT joins whose ON reads their preserved side are part of the search too (docs/join-order.md, "LEFT members"):
// the null-producing side is one relation that never changes and never swaps with the preserved side; the
// preserved side may hold more or fewer tables than written, but always every table the ON reads; a LEFT join
// whose null-producing side a condition above it reads stays where it was written.

/// Every LEFT join by node id, with the tables under each side; checks on the way that its conditions read only
/// columns its two inputs offer, and that no inner join below it (on its preserved side) reads its null-producing
/// side's columns (they are not there: a condition that did would have been evaluated below the LEFT join).
void left_sides(const LogicalOperator& op, std::map<NodeId, Sides>& out) {
  if (op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Left) {
    Sides s;
    s.type = "left";
    tables_under(*op.children[0], s.left);
    tables_under(*op.children[1], s.right);
    std::set<ColumnId> offered = output_set(*op.children[0]);
    for (ColumnId c : output_set(*op.children[1])) offered.insert(c);
    for (auto& cond : op.as<LogicalJoin>().conditions)
      for (ColumnId c : columns_of(*cond))
        EXPECT_TRUE(offered.count(c)) << "LEFT join " << op.id << " is below a relation its ON reads";
    out[op.id] = s;
  }
  for (auto& c : op.children) left_sides(*c, out);
}

/// The LEFT joins of `sql` keep their nodes and null-producing sides, `moves` of them end over other preserved-side
/// tables than written; FULL joins keep their sides; the rows equal the written order's at 1 and 4 workers.
void expect_legal_left_reordering(const std::string& sql, size_t left_joins, size_t moves) {
  Settings written;
  written.disabled_rules = {"cost_based_join_order"};
  auto before = testing::compile(sql, written);
  auto after = testing::compile(sql);
  std::map<NodeId, Sides> b, a;
  left_sides(*before->logical, b);
  left_sides(*after->logical, a);
  ASSERT_EQ(b.size(), left_joins) << sql;
  ASSERT_EQ(a.size(), left_joins) << sql;
  size_t moved = 0;
  for (auto& [id, w] : b) {
    ASSERT_TRUE(a.count(id)) << "LEFT join " << id << " lost its node";
    EXPECT_EQ(a[id].right, w.right) << "the null-producing side is one relation of the graph";
    moved += a[id].left != w.left;
  }
  EXPECT_EQ(moved, moves) << sql << "\n" << plan_to_string(*after->logical, after->ctx);
  std::vector<std::string> full_b, full_a;
  for (auto& x : barrier_sides(*before->logical))
    if (x.rfind("full", 0) == 0 || x.rfind("right", 0) == 0) full_b.push_back(x);
  for (auto& x : barrier_sides(*after->logical))
    if (x.rfind("full", 0) == 0 || x.rfind("right", 0) == 0) full_a.push_back(x);
  EXPECT_EQ(full_a, full_b) << "FULL joins never move";
  EXPECT_EQ(inner_joins(*after->logical), inner_joins(*before->logical));
  for (int workers : {1, 4}) {
    written.workers = workers;
    Settings reordered;
    reordered.workers = workers;
    auto r1 = testing::run(sql, written), r2 = testing::run(sql, reordered);
    ASSERT_TRUE(r1.ok() && r2.ok()) << sql;
    EXPECT_GT(r1.executed.row_count(), 0u) << "an empty result would show nothing";
    EXPECT_EQ(all_rows(r1), all_rows(r2)) << sql << " at " << workers << " workers";
  }
}

TEST(CostBasedJoinOrderTest, LeftJoinGoesDownBelowAnInnerJoinOfItsPreservedSide) {
  // Written over lineitem ⋈ supplier; its ON reads supplier only: applied to the 100 suppliers instead.
  const std::string sql =
      "SELECT count(*), count(n_name) FROM lineitem JOIN supplier ON l_suppkey = s_suppkey "
      "LEFT JOIN nation ON n_nationkey = s_nationkey AND n_name LIKE 'A%'";
  expect_legal_left_reordering(sql, 1, 1);
  std::map<NodeId, Sides> a;
  left_sides(*testing::compile(sql)->logical, a);
  EXPECT_EQ(a.begin()->second.left, std::multiset<std::string>{"supplier"});
}

TEST(CostBasedJoinOrderTest, LeftJoinGoesUpAboveASelectiveInnerJoin) {
  // Written on orders; the join with the few rich customers first leaves few orders to extend.
  const std::string sql =
      "SELECT count(*), count(l_orderkey) FROM orders LEFT JOIN lineitem ON l_orderkey = o_orderkey AND l_quantity > 30 "
      "JOIN customer ON c_custkey = o_custkey WHERE c_acctbal > 9900";
  expect_legal_left_reordering(sql, 1, 1);
  std::map<NodeId, Sides> a;
  left_sides(*testing::compile(sql)->logical, a);
  EXPECT_EQ(a.begin()->second.left, (std::multiset<std::string>{"customer", "orders"}));
}

TEST(CostBasedJoinOrderTest, LeftJoinWhoseNullProducingSideALaterConditionReadsStays) {
  // The same query, with the inner join reading the LEFT join's null-producing side (l_suppkey): that condition must
  // see the NULLs the LEFT join produces, so the LEFT join stays below it, one relation of the region.
  expect_legal_left_reordering(
      "SELECT count(*), count(l_orderkey) FROM orders LEFT JOIN lineitem ON l_orderkey = o_orderkey AND l_quantity > 30 "
      "JOIN customer ON c_custkey = o_custkey AND coalesce(l_suppkey, 1) < c_custkey WHERE c_acctbal > 9900",
      1, 0);
}

TEST(CostBasedJoinOrderTest, LeftOfLeftKeepsTheSecondAboveTheFirst) {
  // The second LEFT join's ON reads the first one's null-producing side (supplier): NULL-rejecting (s_nationkey =
  // n_nationkey) or not (coalesce), it stays above the first, whose own place among the inner joins of its
  // preserved side (customer ⋈ orders) is the enumerator's choice.
  for (const char* on : {"n_nationkey = s_nationkey", "n_nationkey = coalesce(s_nationkey, 3)"}) {
    const std::string sql =
        std::string("SELECT count(*), count(s_suppkey), count(n_name) FROM orders JOIN customer ON o_custkey = c_custkey "
                    "LEFT JOIN supplier ON s_suppkey = c_custkey AND s_acctbal > 0 LEFT JOIN nation ON ") +
        on + " WHERE c_acctbal > 9000";
    auto after = testing::compile(sql);
    std::map<NodeId, Sides> a;
    left_sides(*after->logical, a);
    ASSERT_EQ(a.size(), 2u);
    bool nation_over_supplier = false;
    for (auto& [id, s] : a)
      if (s.right.count("nation")) nation_over_supplier = s.left.count("supplier") > 0;
    EXPECT_TRUE(nation_over_supplier) << on << "\n" << plan_to_string(*after->logical, after->ctx);
    expect_legal_left_reordering(sql, 2, 1);
  }
}

TEST(CostBasedJoinOrderTest, FullJoinNeverMovesWithLeftJoinsAround) {
  // A LEFT join over the FULL join's result may move among the inner joins (here down to n2, the one table its ON
  // reads); the FULL join keeps its sides.
  const std::string sql =
      "SELECT count(*), count(s_suppkey), count(c_custkey), count(r_name) FROM "
      "(SELECT s_suppkey, s_nationkey FROM supplier, nation WHERE s_nationkey = n_nationkey) s "
      "FULL JOIN customer ON s_suppkey = c_custkey JOIN nation n2 ON n2.n_nationkey = c_nationkey "
      "LEFT JOIN region ON r_regionkey = n2.n_regionkey AND r_name = 'ASIA'";
  expect_legal_left_reordering(sql, 1, 1);
  std::map<NodeId, Sides> a;
  left_sides(*testing::compile(sql)->logical, a);
  EXPECT_EQ(a.begin()->second.left, std::multiset<std::string>{"nation"});
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
