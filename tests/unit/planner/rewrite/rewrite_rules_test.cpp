#include <gtest/gtest.h>

#include "planner/logical/plan_utils.hpp"
#include "planner/rewrite/rules/constant_folding.hpp"
#include "planner/rewrite/rules/simplify_outer_joins.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::compile;

std::string logical(const std::string& sql, Settings s = {}) {
  auto cq = compile(sql, s);
  return plan_to_string(*cq->logical, cq->ctx);
}

TEST(PushDownFiltersTest, WhereConjunctsReachScansAndJoinConditions) {
  std::string plan = logical("SELECT n_name FROM nation, region WHERE n_regionkey = r_regionkey AND r_name = 'ASIA'");
  // r_name is read by the scan's filter only: not an output of the Get.
  EXPECT_NE(plan.find("Get table=[region] columns=[r_regionkey] filter=[r_name = 'ASIA']"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Join type=[inner] condition=[n_regionkey = r_regionkey]"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("Filter"), std::string::npos) << plan;
}

TEST(PushDownFiltersTest, DisabledRuleLeavesTheFilterAbove) {
  Settings s;
  s.disabled_rules = {"push_down_filters"};
  std::string plan = logical("SELECT n_name FROM nation, region WHERE n_regionkey = r_regionkey AND r_name = 'ASIA'", s);
  EXPECT_NE(plan.find("Filter"), std::string::npos) << plan;
  EXPECT_NE(plan.find("condition=[true]"), std::string::npos) << plan;
}

TEST(PushDownFiltersTest, OuterJoinKeepsConditionsOnTheNullableSideAbove) {
  std::string plan =
      logical("SELECT c_custkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey WHERE o_orderkey IS NULL AND c_custkey < 10");
  // The IS NULL test reads the null-extended side: it must stay above the join.
  size_t filter = plan.find("Filter predicate=[o_orderkey IS NULL]");
  size_t join = plan.find("Join type=[left]");
  ASSERT_NE(filter, std::string::npos) << plan;
  EXPECT_LT(filter, join) << plan;
  EXPECT_NE(plan.find("filter=[c_custkey < 10]"), std::string::npos) << plan;
}

TEST(PushDownFiltersTest, ThroughProjectionsAndIntoAggregateGroups) {
  std::string plan = logical(
      "SELECT * FROM (SELECT n_regionkey r, count(*) c FROM nation GROUP BY n_regionkey) t WHERE r = 1 AND c > 2");
  EXPECT_NE(plan.find("filter=[n_regionkey = 1]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Filter predicate=[count(*) > 2]"), std::string::npos) << plan;
}

TEST(ConstantFoldingTest, FoldsArithmeticAndBooleanIdentities) {
  std::string plan = logical("SELECT n_name FROM nation WHERE n_nationkey < 2 + 3 AND (1 = 1 OR n_name = 'x')");
  EXPECT_NE(plan.find("filter=[n_nationkey < 5]"), std::string::npos) << plan;
  plan = logical("SELECT o_orderkey FROM orders WHERE o_orderdate < DATE '1995-01-31' + INTERVAL '1' MONTH");
  EXPECT_NE(plan.find("DATE '1995-02-28'"), std::string::npos) << plan;
}

TEST(ConstantFoldingTest, KeepsDivisionByZeroForExecution) {
  ExprPtr e = Expr::call(ScalarOp::Div, DataType::bigint(), [] {
    std::vector<ExprPtr> v;
    v.push_back(Expr::constant(Value::bigint(1)));
    v.push_back(Expr::constant(Value::bigint(0)));
    return v;
  }());
  EXPECT_FALSE(fold_constants(e));
  EXPECT_EQ(e->kind, ExprKind::Call);
}

TEST(SimplifyPredicatesTest, DeduplicatesAndTurnsConstantsRight) {
  std::string plan = logical("SELECT n_name FROM nation WHERE 3 > n_nationkey AND n_nationkey < 3");
  EXPECT_NE(plan.find("filter=[n_nationkey < 3]"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("AND"), std::string::npos) << plan;
}

TEST(SimplifyPredicatesTest, FactorsConjunctsCommonToEveryOrBranch) {
  std::string plan = logical(
      "SELECT count(*) FROM lineitem, part WHERE (p_partkey = l_partkey AND p_size < 5) OR "
      "(p_partkey = l_partkey AND l_quantity > 10)");
  EXPECT_NE(plan.find("Join type=[inner] condition=[p_partkey = l_partkey"), std::string::npos) << plan;
}

// TPC-H Q7's nation pair: an OR whose every branch holds each nation's n_name to a constant implies an IN list on
// each nation alone, which reaches that nation's scan; the OR itself stays (as the condition joining the two).
TEST(SimplifyPredicatesTest, AnOrImpliesAnInListOnAColumnEveryBranchConstrains) {
  std::string plan = logical(
      "SELECT count(*) FROM nation n1, nation n2 WHERE (n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY') OR "
      "(n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE')");
  EXPECT_NE(plan.find("filter=[n_name IN ('FRANCE', 'GERMANY')]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("filter=[n_name IN ('GERMANY', 'FRANCE')]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("n_name = 'FRANCE' AND n_name = 'GERMANY' OR n_name = 'GERMANY' AND n_name = 'FRANCE'"),
            std::string::npos)
      << plan;
  // IN lists and equalities merge; a column some branch leaves free implies nothing.
  plan = logical(
      "SELECT count(*) FROM part WHERE (p_brand = 'Brand#12' AND p_size < 5) OR "
      "(p_brand IN ('Brand#23', 'Brand#12') AND p_container = 'SM BOX')");
  EXPECT_NE(plan.find("p_brand IN ('Brand#12', 'Brand#23')"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("p_container IN"), std::string::npos) << plan;
  // A column the WHERE clause already holds to a constant gets nothing more (the OR is absorbed or weaker).
  plan = logical("SELECT n_name FROM nation WHERE n_regionkey = 1 AND (n_regionkey = 2 OR n_regionkey = 1)");
  EXPECT_EQ(plan.find("IN ("), std::string::npos) << plan;
}

TEST(ReorderInnerJoinsTest, AvoidsCrossProductsOfCommaJoins) {
  // part and supplier are not connected: the written order would cross them.
  std::string plan = logical(
      "SELECT count(*) FROM part, supplier, partsupp WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey");
  EXPECT_EQ(plan.find("condition=[true]"), std::string::npos) << plan;
}

TEST(PruneColumnsTest, ScansReadOnlyWhatIsUsed) {
  // l_quantity is read by the scan's own filter only: the Get does not output it (the scan reads it in place).
  std::string plan = logical("SELECT l_orderkey FROM lineitem WHERE l_quantity > 40");
  EXPECT_NE(plan.find("Get table=[lineitem] columns=[l_orderkey] filter=[l_quantity > 40.00]"), std::string::npos) << plan;
  // A column the plan above also reads stays an output.
  plan = logical("SELECT l_orderkey, l_quantity FROM lineitem WHERE l_quantity > 40");
  EXPECT_NE(plan.find("Get table=[lineitem] columns=[l_orderkey, l_quantity] filter=[l_quantity > 40.00]"), std::string::npos)
      << plan;
}

// Q13's shape: o_comment is read by the orders scan's filter only, so it is not an output of the scan and does not
// travel through the outer join above it; the scan still reads it (project(3 of 9)).
TEST(PruneColumnsTest, AColumnOnlyTheScanFilterReadsDoesNotTravelThroughJoins) {
  auto cq = compile(
      "SELECT c_custkey, count(o_orderkey) FROM customer LEFT OUTER JOIN orders ON c_custkey = o_custkey AND "
      "o_comment NOT LIKE '%special%requests%' GROUP BY c_custkey");
  std::string plan = plan_to_string(*cq->logical, cq->ctx);
  EXPECT_NE(plan.find("Get table=[orders] columns=[o_orderkey, o_custkey] filter=[o_comment NOT LIKE"), std::string::npos)
      << plan;
  EXPECT_EQ(plan.find("columns=[o_orderkey, o_custkey, o_comment]"), std::string::npos) << plan;
}

// Q17's shape: the decorrelated per-part average is computed only over the parts the outer query's
// filtered scan of part produces (a semi join with a copy of that scan under the aggregate).
TEST(MagicSetKeysTest, RestrictsTheDecorrelatedAggregateToTheOuterScansKeys) {
  const std::string q17 =
      "SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND p_brand = 'Brand#23' AND "
      "l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)";
  std::string plan = logical(q17);
  size_t agg = plan.find("Aggregate groups=[l_partkey]");
  ASSERT_NE(agg, std::string::npos) << plan;
  size_t semi = plan.find("Join type=[semi] condition=[p_partkey = l_partkey]", agg);
  ASSERT_NE(semi, std::string::npos) << plan;
  EXPECT_NE(plan.find("Get table=[part] columns=[p_partkey] filter=[p_brand = 'Brand#23']", semi), std::string::npos)
      << plan;
  Settings off;
  off.disabled_rules = {"magic_set_keys"};
  EXPECT_EQ(logical(q17, off).find("Join type=[semi]"), std::string::npos) << logical(q17, off);
}

// Without a filter on the outer key's scan every group can match: nothing to restrict.
TEST(MagicSetKeysTest, LeavesAnUnfilteredOuterScanAlone) {
  std::string plan = logical(
      "SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND "
      "l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)");
  EXPECT_EQ(plan.find("Join type=[semi]"), std::string::npos) << plan;
}


// Q20's shape: the outer key ps_partkey is restricted by a semi join with the 'forest%' parts, above the
// join with the decorrelated per (part, supplier) sum: the sum's input gets a semi join with a copy of it.
TEST(MagicSetKeysTest, RestrictsTheAggregateToTheKeysASemiJoinAboveKeeps) {
  const std::string q20 =
      "SELECT ps_suppkey FROM partsupp WHERE ps_partkey IN (SELECT p_partkey FROM part WHERE p_name LIKE 'forest%') "
      "AND ps_availqty > (SELECT 0.5 * sum(l_quantity) FROM lineitem WHERE l_partkey = ps_partkey AND "
      "l_suppkey = ps_suppkey AND l_shipdate >= DATE '1994-01-01')";
  std::string plan = logical(q20);
  size_t agg = plan.find("Aggregate groups=[l_partkey, l_suppkey]");
  ASSERT_NE(agg, std::string::npos) << plan;
  size_t semi = plan.find("Join type=[semi] condition=[l_partkey = p_partkey]", agg);
  ASSERT_NE(semi, std::string::npos) << plan;
  EXPECT_NE(plan.find("Get table=[part] columns=[p_partkey] filter=[p_name LIKE 'forest%']", semi), std::string::npos)
      << plan;
  Settings off;
  off.disabled_rules = {"magic_set_keys"};
  EXPECT_EQ(logical(q20, off).find("condition=[l_partkey = p_partkey]"), std::string::npos) << logical(q20, off);
  // Applied once: a second pass finds the restriction in place.
  size_t first = plan.find("condition=[l_partkey = p_partkey]", semi);
  EXPECT_EQ(plan.find("condition=[l_partkey = p_partkey]", first + 1), std::string::npos) << plan;
}

// An anti join (NOT IN / NOT EXISTS) keeps the rows whose key is absent: nothing to restrict to.
TEST(MagicSetKeysTest, LeavesKeysAnAntiJoinFiltersAlone) {
  std::string plan = logical(
      "SELECT ps_suppkey FROM partsupp WHERE NOT EXISTS (SELECT 1 FROM part WHERE p_partkey = ps_partkey AND "
      "p_name LIKE 'forest%') AND ps_availqty > (SELECT 0.5 * sum(l_quantity) FROM lineitem WHERE "
      "l_partkey = ps_partkey AND l_suppkey = ps_suppkey)");
  size_t agg = plan.find("Aggregate groups=[l_partkey, l_suppkey]");
  ASSERT_NE(agg, std::string::npos) << plan;
  EXPECT_EQ(plan.find("Join type=[semi]", agg), std::string::npos) << plan;
}

// --- simplify_outer_joins ---------------------------------------------------------------------------
std::string join_type_of(const std::string& sql, Settings s = {}) {
  std::string plan = logical(sql, s);
  for (const char* t : {"left", "right", "full", "inner"})
    if (plan.find(std::string("Join type=[") + t + "]") != std::string::npos) return t;
  return "none: " + plan;
}

const char* kCustOrders = "SELECT c_custkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey WHERE ";

TEST(SimplifyOuterJoinsTest, AFilterRejectingTheNullSideMakesALeftJoinInner) {
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "o_totalprice > 100"), "inner");
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "o_orderkey IS NOT NULL"), "inner");
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "NOT (o_totalprice > 100)"), "inner");
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "o_comment LIKE 'a%'"), "inner");
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "o_orderkey IN (1, 2, NULL)"), "inner");
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "CAST(o_totalprice AS DOUBLE) + 1 > 2"), "inner");
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "o_totalprice > 100 OR o_shippriority = 0"), "inner");
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "(o_totalprice > 100 OR c_acctbal > 0) AND o_shippriority = 0"),
            "inner");
  Settings off;
  off.disabled_rules = {"simplify_outer_joins"};
  EXPECT_EQ(join_type_of(std::string(kCustOrders) + "o_totalprice > 100", off), "left");
}

TEST(SimplifyOuterJoinsTest, PredicatesThatCanBeTrueOnNullExtendedRowsKeepTheLeftJoin) {
  for (const char* where :
       {"o_orderkey IS NULL", "coalesce(o_totalprice, 0) < 100", "o_totalprice > 100 OR c_acctbal > 0",
        "c_custkey < 10", "CASE WHEN o_totalprice IS NULL THEN 1 ELSE 0 END = 1", "NOT (o_orderkey IS NULL)  OR 1 = 1",
        "NOT (o_totalprice > 100 AND c_acctbal > 0)", "nullif(o_custkey, 3) IS NULL",
        "(o_totalprice IS NULL) = true"})
    EXPECT_EQ(join_type_of(std::string(kCustOrders) + where), "left") << where;
}

TEST(SimplifyOuterJoinsTest, FullJoinKeepsTheSideWhoseNullsAreNotRejected) {
  const std::string q = "SELECT c_custkey FROM customer FULL JOIN orders ON c_custkey = o_custkey WHERE ";
  EXPECT_EQ(join_type_of(q + "o_totalprice > 100"), "right");  // left-only rows rejected: orders preserved
  EXPECT_EQ(join_type_of(q + "c_acctbal > 0"), "left");
  EXPECT_EQ(join_type_of(q + "c_acctbal > 0 AND o_totalprice > 100"), "inner");
  EXPECT_EQ(join_type_of(q + "c_acctbal > 0 OR o_totalprice > 100"), "full");
  EXPECT_EQ(join_type_of(q + "o_orderkey IS NULL"), "full");
}

TEST(SimplifyOuterJoinsTest, ProjectedColumnsAreStrictOnlyIfTheirExpressionIs) {
  const std::string q =
      "SELECT * FROM (SELECT c_custkey, o_totalprice * 2 AS t, coalesce(o_totalprice, 0) AS z FROM customer "
      "LEFT JOIN orders ON c_custkey = o_custkey) s WHERE ";
  EXPECT_EQ(join_type_of(q + "t > 5"), "inner");
  EXPECT_EQ(join_type_of(q + "z > 5"), "left");
  // A filter above a LIMIT does not hold below it.
  EXPECT_EQ(join_type_of("SELECT * FROM (SELECT o_totalprice FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                         "LIMIT 5) s WHERE o_totalprice > 5"),
            "left");
}

TEST(SimplifyOuterJoinsTest, AnOuterJoinsConditionRejectsTheNullsOfANestedJoinOnItsNullableSide) {
  std::string plan = logical(
      "SELECT n_name, t.c FROM nation LEFT JOIN (SELECT o_custkey AS c FROM customer LEFT JOIN orders ON "
      "c_custkey = o_custkey) t ON n_nationkey = t.c");
  // The outer join stays left (nations without a match are kept); the nested one is inner.
  EXPECT_NE(plan.find("Join type=[left]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Join type=[inner]"), std::string::npos) << plan;
  // Under an anti join's right side too, but not under NOT IN's.
  EXPECT_EQ(join_type_of("SELECT n_name FROM nation WHERE NOT EXISTS (SELECT 1 FROM customer LEFT JOIN orders ON "
                         "c_custkey = o_custkey WHERE o_custkey = n_nationkey)"),
            "inner");
  EXPECT_EQ(join_type_of("SELECT n_name FROM nation WHERE n_nationkey NOT IN (SELECT o_custkey FROM customer LEFT "
                         "JOIN orders ON c_custkey = o_custkey)"),
            "left");
}

TEST(SimplifyOuterJoinsTest, StrictnessOfExpressions) {
  const std::set<ColumnId> nulls{7};
  auto col = [] { return Expr::column(7, DataType::bigint()); };
  auto other = [] { return Expr::column(8, DataType::bigint()); };
  auto args = [](ExprPtr a, ExprPtr b) {
    std::vector<ExprPtr> v;
    v.push_back(std::move(a));
    v.push_back(std::move(b));
    return v;
  };
  ExprPtr coalesce = Expr::call(ScalarOp::Coalesce, DataType::bigint(), args(col(), other()));
  EXPECT_FALSE(is_null_strict(*coalesce, nulls));
  ExprPtr plus = Expr::call(ScalarOp::Add, DataType::bigint(), args(col(), other()));
  EXPECT_TRUE(is_null_strict(*plus, nulls));
  std::vector<ExprPtr> one;
  one.push_back(col());
  ExprPtr is_null = Expr::make(ExprKind::IsNull, DataType::boolean(), std::move(one));
  EXPECT_FALSE(rejects_nulls(*is_null, nulls));
  is_null->negated = true;
  EXPECT_TRUE(rejects_nulls(*is_null, nulls));
  // x IN (other): strict in x, not in the list.
  ExprPtr in = Expr::make(ExprKind::InList, DataType::boolean(), args(other(), col()));
  EXPECT_FALSE(rejects_nulls(*in, nulls));
}

}  // namespace
}  // namespace hindsight
