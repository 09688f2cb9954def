#include "planner/binder/binder.hpp"

#include <gtest/gtest.h>

#include "planner/logical/plan_utils.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::compile;
using testing::expect_error;

TEST(BinderTest, UnknownTableAndColumnCarryPositions) {
  expect_error([] { compile("SELECT 1 FROM nowhere"); }, ErrorCode::BIND_ERROR, 1, 15);
  expect_error([] { compile("SELECT n_name,\n  n_nope FROM nation"); }, ErrorCode::BIND_ERROR, 2, 3);
  expect_error([] { compile("SELECT x.n_name FROM nation n"); }, ErrorCode::BIND_ERROR, 1, 8);
}

TEST(BinderTest, AmbiguousColumnIsAnError) {
  expect_error([] { compile("SELECT n_name FROM nation a, nation b"); }, ErrorCode::BIND_ERROR, 1, 8);
  EXPECT_NO_THROW(compile("SELECT a.n_name FROM nation a, nation b"));
}

TEST(BinderTest, AggregatesOnlyWhereAllowed) {
  expect_error([] { compile("SELECT n_name FROM nation WHERE count(*) > 1"); }, ErrorCode::BIND_ERROR, 1, 33);
  expect_error([] { compile("SELECT n_name, count(*) FROM nation GROUP BY n_regionkey"); }, ErrorCode::BIND_ERROR, 1, 8);
  expect_error([] { compile("SELECT sum(count(*)) FROM nation"); }, ErrorCode::BIND_ERROR);
  EXPECT_NO_THROW(compile("SELECT n_regionkey + 1, count(*) FROM nation GROUP BY n_regionkey + 1"));
  EXPECT_NO_THROW(compile("SELECT n_regionkey AS r, count(*) FROM nation GROUP BY 1 ORDER BY r"));
}

TEST(BinderTest, TypeErrorsNameTheOperator) {
  expect_error([] { compile("SELECT 'abc' + 1"); }, ErrorCode::TYPE_ERROR, 1, 8);
  expect_error([] { compile("SELECT sum(n_name) FROM nation"); }, ErrorCode::TYPE_ERROR);
  expect_error([] { compile("SELECT * FROM orders WHERE o_orderdate = 5"); }, ErrorCode::TYPE_ERROR);
  expect_error([] { compile("SELECT * FROM nation WHERE n_name"); }, ErrorCode::TYPE_ERROR);
  expect_error([] { compile("SELECT DATE '1995-02-30'"); }, ErrorCode::TYPE_ERROR, 1, 8);
}

TEST(BinderTest, StringLiteralComparedWithDateIsCoerced) {
  auto cq = compile("SELECT o_orderkey FROM orders WHERE o_orderdate >= '1995-01-01'");
  std::string plan = plan_to_string(*cq->logical, cq->ctx);
  EXPECT_NE(plan.find("DATE '1995-01-01'"), std::string::npos) << plan;
}

TEST(BinderTest, CorrelatedExistsBecomesSemiJoinOnTheCorrelation) {
  auto cq = compile(
      "SELECT o_orderkey FROM orders WHERE EXISTS (SELECT * FROM lineitem WHERE l_orderkey = o_orderkey "
      "AND l_commitdate < l_receiptdate)");
  std::string plan = plan_to_string(*cq->logical, cq->ctx);
  EXPECT_NE(plan.find("type=[semi] condition=[l_orderkey = o_orderkey]"), std::string::npos) << plan;
}

TEST(BinderTest, NotInBecomesNullAwareAntiJoin) {
  auto cq = compile("SELECT p_partkey FROM part WHERE p_size NOT IN (SELECT s_nationkey FROM supplier)");
  std::string plan = plan_to_string(*cq->logical, cq->ctx);
  EXPECT_NE(plan.find("null-aware anti"), std::string::npos) << plan;
}

TEST(BinderTest, CorrelatedScalarSubqueryGroupsByTheCorrelationColumn) {
  // The binder's LEFT join (a comparison with the average above it makes it inner after simplify_outer_joins).
  Settings bound;
  bound.disabled_rules = {"simplify_outer_joins"};
  auto cq = compile(
      "SELECT p_partkey FROM part, lineitem WHERE p_partkey = l_partkey AND "
      "l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)",
      bound);
  std::string plan = plan_to_string(*cq->logical, cq->ctx);
  EXPECT_NE(plan.find("Aggregate groups=[l_partkey] aggregates=[AVG(l_quantity)]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("type=[left]"), std::string::npos) << plan;
}

TEST(BinderTest, UnsupportedCorrelationsAreTypedErrors) {
  expect_error([] { compile("SELECT n_name FROM nation WHERE n_regionkey = (SELECT r_regionkey FROM region WHERE r_regionkey > n_nationkey)"); },
               ErrorCode::NOT_SUPPORTED);
  expect_error([] { compile("SELECT n_name FROM nation WHERE n_regionkey > 1 OR EXISTS (SELECT 1 FROM region)"); },
               ErrorCode::NOT_SUPPORTED);
}

TEST(BinderTest, CteIsInlinedAtEveryReferenceWithFreshColumns) {
  auto cq = compile("WITH r AS (SELECT r_regionkey k FROM region) SELECT a.k, b.k FROM r a, r b WHERE a.k = b.k");
  std::string plan = plan_to_string(*cq->logical, cq->ctx);
  size_t first = plan.find("table=[region]");
  ASSERT_NE(first, std::string::npos) << plan;
  EXPECT_NE(plan.find("table=[region]", first + 1), std::string::npos) << plan;
  EXPECT_EQ(cq->names, (std::vector<std::string>{"k", "k"}));
}

TEST(BinderTest, MaterializedCteIsPlannedOnceAndReadByEachReference) {
  Settings s;
  s.cte_materialization = "always";
  auto cq = compile("WITH r AS (SELECT r_regionkey k FROM region) SELECT a.k, b.k FROM r a, r b WHERE a.k = b.k", s);
  ASSERT_EQ(cq->ctes.size(), 1u);
  std::string plan = plan_to_string(*cq->logical, cq->ctx);
  EXPECT_EQ(plan.find("table=[region]"), std::string::npos) << plan;
  size_t first = plan.find("CteRef cte=[r]");
  ASSERT_NE(first, std::string::npos) << plan;
  EXPECT_NE(plan.find("CteRef cte=[r]", first + 1), std::string::npos) << plan;
  auto r = testing::run("SET cte_materialization = always; WITH r AS (SELECT r_regionkey k FROM region) "
                        "SELECT count(*) FROM r a, r b WHERE a.k = b.k");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(r.executed.batches.at(0).columns.at(0).ints.at(0), 5);
}

TEST(BinderTest, UnionNeedsMatchingColumnCounts) {
  expect_error([] { compile("SELECT 1 UNION SELECT 1, 2"); }, ErrorCode::BIND_ERROR);
  auto cq = compile("SELECT n_nationkey FROM nation UNION ALL SELECT 1.5");
  EXPECT_EQ(cq->ctx.column(cq->outputs[0]).type.id, TypeId::Decimal);
}

}  // namespace
}  // namespace hindsight
