#include "planner/optimizer/cardinality_model.hpp"

#include <gtest/gtest.h>

#include <functional>

#include <filesystem>

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

TEST(CardinalityModelTest, TwoBoundsOnOneColumnAreOneInterval) {
  // TPC-H Q14's month of l_shipdate: as two independent half-open ranges the estimate was about a quarter of the
  // table (q-error 20 at SF 1); as one interval it is the month.
  expect_within(counted("lineitem WHERE l_shipdate >= DATE '1995-09-01' AND l_shipdate < DATE '1995-10-01'"), 1.5,
                "a one-month interval");
  expect_within(counted("lineitem WHERE l_quantity BETWEEN 10 AND 11"), 1.5, "BETWEEN");
  expect_within(counted("lineitem WHERE l_shipdate < DATE '1995-10-01' AND l_quantity >= 10 AND "
                        "l_shipdate >= DATE '1995-09-01' AND l_quantity < 12"),
                2, "two intervals, written interleaved");
  // An empty interval: nothing (the model's floor of one row), not a product of two halves.
  auto [est, actual] = counted("lineitem WHERE l_quantity > 30 AND l_quantity < 20");
  EXPECT_EQ(actual, 0);
  EXPECT_LE(est, 1.0);
  // Bounds on different columns stay independent.
  expect_within(counted("lineitem WHERE l_shipdate < DATE '1995-01-01' AND l_quantity > 25"), 1.5,
                "bounds on two columns");
}

TEST(CardinalityModelTest, InfixAndSuffixLikeUseHistogramBounds) {
  // Not a range: matched against the most common values and the histogram bounds.
  expect_within(counted("part WHERE p_name LIKE '%green%'"), 2, "LIKE infix");
  expect_within(counted("part WHERE p_type LIKE '%BRASS'"), 1.5, "LIKE suffix");
  expect_within(counted("part WHERE p_type NOT LIKE '%BRASS'"), 1.5, "NOT LIKE suffix");
}

TEST(CardinalityModelTest, EquiJoinsUseContainment) {
  expect_within(counted("orders, lineitem WHERE o_orderkey = l_orderkey"), 1.5, "orders join lineitem");
  expect_within(counted("customer, nation WHERE c_nationkey = n_nationkey"), 1.5, "customer join nation");
}

TEST(CardinalityModelTest, CompositeKeysUseTheDistinctCountsOfTheirColumnSets) {
  // l_partkey and l_suppkey together name one partsupp row, so each lineitem row has one partner. The columns'
  // own distinct counts cannot tell: combined by backoff they gave 2.5x too few rows here (250x at SF 1 in Q9).
  expect_within(counted("lineitem, partsupp WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey"), 1.5,
                "composite foreign key");
  // Both sides one table: (l_orderkey, l_linenumber) is unique, so the self-join keeps lineitem's rows.
  expect_within(counted("lineitem a, lineitem b WHERE a.l_orderkey = b.l_orderkey AND a.l_linenumber = b.l_linenumber"),
                1.5, "unique composite key, self-join");
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

TEST(CardinalityModelTest, OrUsesInclusionExclusion) {
  expect_within(counted("lineitem WHERE l_returnflag = 'R' OR l_shipmode = 'AIR'"), 1.5, "OR of two equalities");
}

TEST(CardinalityModelTest, SemiAndAntiJoinsUseKeyContainment) {
  // Every order has lineitems: the semi join keeps (nearly) all orders, the anti join (nearly) none.
  expect_within(counted("orders WHERE EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey)"), 1.5,
                "semi join");
  // Two thirds of the customers have orders (TPC-H leaves every third customer without).
  expect_within(counted("customer WHERE EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)"), 2,
                "semi join, part of the keys");
  expect_within(counted("customer WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)"), 2.5,
                "anti join");
}

// Q21's self-joins: a condition beyond the key must hold for the pair too. Ignored, the anti join (lineitems of
// an order no other supplier delivered) was estimated at 1 row, and the plan at 2 workers probed it with all of
// lineitem instead of the one nation's suppliers first.
TEST(CardinalityModelTest, SemiAndAntiJoinsCountTheirResidualConditions) {
  expect_within(counted("lineitem l1 WHERE NOT EXISTS (SELECT 1 FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey "
                        "AND l2.l_suppkey <> l1.l_suppkey)"),
                10, "anti join with a residual");
  expect_within(counted("lineitem l1 WHERE EXISTS (SELECT 1 FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey "
                        "AND l2.l_suppkey <> l1.l_suppkey)"),
                1.5, "semi join with a residual");
}

TEST(CardinalityModelTest, OuterJoinsKeepThePreservedSide) {
  auto [est, actual] = counted("customer LEFT JOIN orders ON o_custkey = c_custkey AND o_totalprice > 1000000");
  // No order is that expensive: every customer comes out once, padded with NULLs.
  EXPECT_EQ(actual, 1500);
  EXPECT_GE(est, 1500);
  EXPECT_LE(est, 1500 * 1.5);
}

TEST(CardinalityModelTest, LeftJoinFanoutKeepsEveryLeftRow) {
  // The rows per left row of a LEFT join (the join enumerator's LEFT edges and the written node's estimate): its
  // inner join's rows per left row, never below 1.
  CardinalityModel model([](const TableDef&) { return 1000.0; });
  LogicalJoin j(NodeId{1});
  j.type = LogicalJoinType::Left;  // no condition: a cross product, r rows per left row
  EXPECT_DOUBLE_EQ(model.left_join_fanout(j, 10, 5), 5);
  EXPECT_DOUBLE_EQ(model.left_join_fanout(j, 10, 0.25), 1);  // fewer matches than left rows: each row kept once
  EXPECT_DOUBLE_EQ(model.left_join_fanout(j, 0, 5), 1);
  // Through a query: the LEFT join node's estimate is at least its preserved side's.
  auto cq = testing::compile(
      "SELECT count(*) FROM customer LEFT JOIN orders ON o_custkey = c_custkey AND o_totalprice > 1000000");
  const LogicalOperator* op = cq->logical.get();
  while (op->kind != LogicalKind::Join) op = op->children.at(0).get();
  EXPECT_GE(op->estimated_rows, op->children[0]->estimated_rows);
}

// Skewed data: the model assumes independence and uniformity within histogram buckets, so it
// misjudges correlated predicates. This test pins the misestimate down (it must not silently
// disappear or grow) rather than hide it: it is what the runtime feedback is for.
/// TPC-H SF 0.01 with Zipf-skewed foreign keys (gen tpch --skew 1), generated once, removed at exit.
const std::string& skewed_dir() {
  static const std::string& dir = *[] {
    auto* d = new std::string(
        (std::filesystem::temp_directory_path() / ("hindsight-skew-test-" + std::to_string(getpid()))).string());
    TpchOptions o;
    o.sf = 0.01;
    o.skew = 1;
    o.out_dir = *d;
    o.quiet = true;
    generate_tpch(o);
    std::atexit([] { std::filesystem::remove_all(skewed_dir()); });
    return d;
  }();
  return dir;
}

TEST(CardinalityModelTest, SkewedCorrelatedDataIsMisestimatedAndThatIsDocumented) {
  Database db(skewed_dir());
  Session s(db);
  // A filter on the dimension side of a join whose foreign keys are Zipf-skewed.
  auto r = s.run_script("SELECT count(*) FROM lineitem, part WHERE l_partkey = p_partkey AND p_partkey <= 20");
  ASSERT_TRUE(r.ok()) << r.error->format();
  const LogicalOperator* op = r.compiled->logical.get();
  while (op->kind != LogicalKind::Aggregate) op = op->children.at(0).get();
  double est = op->children.at(0)->estimated_rows;
  double actual = static_cast<double>(r.executed.batches.at(0).columns.at(0).ints.at(0));
  ASSERT_GT(actual, 0);
  double q = std::max(est / actual, actual / est);
  // Zipf puts most lineitems on the first parts; containment assumes each part has the average
  // share, so the join of the 20 hottest parts is underestimated by an order of magnitude.
  RecordProperty("q_error", std::to_string(q));
  EXPECT_GT(actual, est) << "the misestimate is an underestimate";
  EXPECT_GT(q, 5.0) << "estimated " << est << ", actual " << actual << ": the skew is no longer misjudged; update the note";
  EXPECT_LT(q, 1000.0) << "estimated " << est << ", actual " << actual;
}

// A semi join whose right side keeps keys by their frequency in the same column (the most ordered customers, the
// parts with the most lines) is estimated from the column's most common values: on skewed data those keys hold far
// more rows than containment's average share (the top 5 customers: 5 / 1000 of the customers, a fifth of the orders).
TEST(CardinalityModelTest, KeysSelectedByTheirFrequencyAreEstimatedByTheRowsTheyHold) {
  Database db(skewed_dir());
  struct Case {
    const char* sql;
    double max_q_error;
  };
  for (const Case& c : {
           // the n most frequent, n within the most common values: their rows exactly
           Case{"SELECT count(*) FROM orders WHERE o_custkey IN "
                "(SELECT o_custkey FROM orders GROUP BY o_custkey ORDER BY count(*) DESC, o_custkey LIMIT 5)",
                1.01},
           Case{"SELECT count(*) FROM lineitem WHERE l_quantity < 25 AND l_partkey IN "
                "(SELECT l_partkey FROM lineitem GROUP BY l_partkey ORDER BY count(*) DESC, l_partkey LIMIT 2)",
                1.2},
           // keys with more than c rows: the frequent ones' rows, and the ranks past them by a power law
           Case{"SELECT count(*) FROM lineitem WHERE l_partkey IN "
                "(SELECT l_partkey FROM lineitem GROUP BY l_partkey HAVING count(*) > 40)",
                1.2},
           Case{"SELECT count(*) FROM lineitem WHERE l_partkey IN "
                "(SELECT l_partkey FROM lineitem GROUP BY l_partkey HAVING count(*) >= 400)",
                1.2},
           Case{"SELECT count(*) FROM orders WHERE o_custkey IN "
                "(SELECT o_custkey FROM orders GROUP BY o_custkey ORDER BY count(*) DESC, o_custkey LIMIT 100)",
                1.2},
       }) {
    Session s(db);
    auto r = s.run_script(std::string("EXPLAIN ANALYZE ") + c.sql);
    ASSERT_TRUE(r.ok()) << r.error->format();
    const LogicalOperator* semi = nullptr;
    std::function<void(const LogicalOperator&)> find = [&](const LogicalOperator& op) {
      if (op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Semi) semi = &op;
      for (auto& ch : op.children) find(*ch);
    };
    find(*r.compiled->logical);
    ASSERT_TRUE(semi) << c.sql;
    const double est = semi->estimated_rows;
    const double actual = static_cast<double>(r.executed.batches.at(0).columns.at(0).ints.at(0));
    ASSERT_GT(actual, 0) << c.sql;
    EXPECT_LE(std::max(est / actual, actual / est), c.max_q_error) << c.sql << ": estimated " << est << ", actual " << actual;
  }
  // Keys of another column (part's, selected by their frequency among lineitem's) keep containment's share.
  Session s(db);
  auto r = s.run_script(
      "EXPLAIN SELECT count(*) FROM part WHERE p_partkey IN "
      "(SELECT l_partkey FROM lineitem GROUP BY l_partkey ORDER BY count(*) DESC, l_partkey LIMIT 10)");
  ASSERT_TRUE(r.ok()) << r.error->format();
  const LogicalOperator* op = r.compiled->logical.get();
  while (!(op->kind == LogicalKind::Join)) op = op->children.at(0).get();
  EXPECT_LE(op->estimated_rows, 10.0);
}

// The join enumerator prices a semi join as a member of its region, with the right input held apart from the
// join node: it must get the same keep share as the rebuilt node. It used the node's (then empty) children to find
// the frequency-selected keys, so it priced lineitem IN (the most ordered parts) at containment's tiny share, built
// that side against orders, and the plan it chose was the one the rebuilt estimates said was the worse (at SF 1,
// popular_parts_semi's re-plan built 4.6M lineitem rows where orders had 911k).
TEST(CardinalityModelTest, TheJoinOrderSeesTheSemiJoinShareTheNodeGets) {
  Database db(skewed_dir());
  Session s(db);
  auto r = s.run_script(
      "EXPLAIN SELECT count(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey "
      "WHERE o_orderdate < DATE '1996-01-01' AND l_partkey IN "
      "(SELECT l_partkey FROM lineitem GROUP BY l_partkey ORDER BY count(*) DESC, l_partkey LIMIT 20)");
  ASSERT_TRUE(r.ok()) << r.error->format();
  // The inner join of lineitem and orders (the semi join below or above it): it builds on its smaller input by the
  // final estimates.
  const PhysicalOperator* join = nullptr;
  std::function<void(const PhysicalOperator&)> find = [&](const PhysicalOperator& op) {
    if (op.kind == PhysicalOpKind::HashJoin && op.as<PhysicalHashJoin>().type == JoinType::Inner) join = &op;
    for (auto& ch : op.children) find(*ch);
  };
  find(*r.compiled->physical);
  ASSERT_TRUE(join);
  const double probe = join->children.at(0)->estimated_rows, build = join->children.at(1)->estimated_rows;
  EXPECT_LE(build, probe) << "builds " << build << " rows against a probe of " << probe;
}

}  // namespace
}  // namespace hindsight
