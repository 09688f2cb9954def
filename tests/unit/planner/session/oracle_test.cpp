// Oracle mode: true cardinalities of every input and connected sub-join, by counting sub-plans.
#include "planner/session/oracle.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "planner/session/explain.hpp"
#include "planner/session/session.hpp"
#include "planner/sql/parser.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

// Q5's join of six tables (five joins), with a filter on two of them.
const char* kFiveJoins =
    "SELECT n_name, COUNT(*) FROM customer, orders, lineitem, supplier, nation, region "
    "WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey "
    "AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey "
    "AND r_name = 'ASIA' AND o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01' GROUP BY n_name";

void each_physical(const PhysicalOperator& op, const std::function<void(const PhysicalOperator&)>& f) {
  f(op);
  for (auto& c : op.children) each_physical(*c, f);
}

TEST(OracleTest, EveryJoinAndScanIsEstimatedWithItsTrueRows) {
  Settings s;
  s.workers = 2;
  s.cardinality = "oracle";
  Session session(testing::tpch_db());
  session.settings() = s;
  StatementResult r = session.run_script(std::string("EXPLAIN ANALYZE ") + kFiveJoins);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_TRUE(r.oracle);
  EXPECT_GT(r.oracle->subplans, 6u);
  EXPECT_FALSE(r.oracle->capped());
  int joins = 0, scans = 0;
  each_physical(*r.compiled->physical, [&](const PhysicalOperator& op) {
    if (op.kind != PhysicalOpKind::HashJoin && op.kind != PhysicalOpKind::TableScan) return;
    (op.kind == PhysicalOpKind::HashJoin ? joins : scans)++;
    EXPECT_EQ(op.estimate_source, stats::EstimateSource::Oracle) << physical_op_name(op.kind) << " #" << op.id;
    auto actual = observed_output(r.executed, op);
    ASSERT_TRUE(actual && actual->complete);
    EXPECT_EQ(op.estimated_rows, std::max(1.0, static_cast<double>(actual->rows)))
        << physical_op_name(op.kind) << " #" << op.id;
  });
  EXPECT_EQ(joins, 5);
  EXPECT_EQ(scans, 6);
}

// Semi and anti joins inside the join tree: the oracle counts the sets holding them too (their keys are the join
// sets with semi members the enumerator asks for), so every join, semi and anti ones included, gets its true rows.
const char* kSemiAndAnti =
    "SELECT c_custkey, COUNT(*) FROM customer, nation, orders WHERE c_nationkey = n_nationkey AND o_custkey = c_custkey "
    "AND EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 45) "
    "AND NOT EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal < -900) GROUP BY c_custkey";

TEST(OracleTest, SemiAndAntiJoinsInTheTreeAreEstimatedWithTheirTrueRows) {
  Settings s;
  s.workers = 2;
  s.cardinality = "oracle";
  Session session(testing::tpch_db());
  session.settings() = s;
  StatementResult r = session.run_script(std::string("EXPLAIN ANALYZE ") + kSemiAndAnti);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_TRUE(r.oracle);
  int joins = 0, semi = 0;
  each_physical(*r.compiled->physical, [&](const PhysicalOperator& op) {
    if (op.kind != PhysicalOpKind::HashJoin) return;
    ++joins;
    const JoinType t = static_cast<const PhysicalHashJoin&>(op).type;
    const std::string type = t == JoinType::Inner ? "inner" : "semi or anti";
    if (t != JoinType::Inner) ++semi;
    EXPECT_EQ(op.estimate_source, stats::EstimateSource::Oracle) << type << " join #" << op.id;
    auto actual = observed_output(r.executed, op);
    ASSERT_TRUE(actual && actual->complete);
    EXPECT_EQ(op.estimated_rows, std::max(1.0, static_cast<double>(actual->rows))) << type << " join #" << op.id;
  });
  EXPECT_EQ(joins, 4);
  EXPECT_EQ(semi, 2);
}

// LEFT joins inside the join tree: the oracle counts the sets holding LEFT members (the enumerator's keys) and the
// LEFT join kept whole because a condition above reads its null-producing side (its own region), so every join
// gets its true rows.
TEST(OracleTest, LeftJoinsInTheTreeAreEstimatedWithTheirTrueRows) {
  for (const char* sql :
       {"SELECT count(*), count(l_orderkey) FROM orders LEFT JOIN lineitem ON l_orderkey = o_orderkey AND l_quantity > "
        "30 JOIN customer ON c_custkey = o_custkey JOIN nation ON n_nationkey = c_nationkey WHERE c_acctbal > 9000",
        "SELECT count(*) FROM orders LEFT JOIN lineitem ON l_orderkey = o_orderkey AND l_quantity > 30 JOIN customer "
        "ON c_custkey = o_custkey AND coalesce(l_suppkey, 1) < c_custkey JOIN nation ON n_nationkey = c_nationkey"}) {
    Settings s;
    s.workers = 2;
    s.cardinality = "oracle";
    Session session(testing::tpch_db());
    session.settings() = s;
    StatementResult r = session.run_script(std::string("EXPLAIN ANALYZE ") + sql);
    ASSERT_TRUE(r.ok()) << r.error->format();
    ASSERT_TRUE(r.oracle);
    int joins = 0, left = 0;
    each_physical(*r.compiled->physical, [&](const PhysicalOperator& op) {
      if (op.kind != PhysicalOpKind::HashJoin) return;
      ++joins;
      if (static_cast<const PhysicalHashJoin&>(op).type == JoinType::ProbeOuter) ++left;
      EXPECT_EQ(op.estimate_source, stats::EstimateSource::Oracle) << sql << ": join #" << op.id;
      auto actual = observed_output(r.executed, op);
      ASSERT_TRUE(actual && actual->complete);
      EXPECT_EQ(op.estimated_rows, std::max(1.0, static_cast<double>(actual->rows))) << sql << ": join #" << op.id;
    });
    EXPECT_EQ(joins, 3) << sql;
    EXPECT_EQ(left, 1) << sql;
  }
}

TEST(OracleTest, LeavesThePlanItCountsOverAsItWas) {
  Settings s;
  s.workers = 2;
  auto cq = testing::compile(kFiveJoins, s);
  const std::string before = explain_text(*cq, nullptr);
  const std::string root = cq->signer->sign(*cq->logical).exact.hex();
  OracleReport report;
  QueryLimits limits(s);
  auto source = oracle_cardinalities(testing::tpch_db(), *cq, s, &limits, report);
  EXPECT_FALSE(source->empty());
  EXPECT_EQ(explain_text(*cq, nullptr), before);
  PlanSigner fresh(cq->ctx);
  EXPECT_EQ(fresh.sign(*cq->logical).exact.hex(), root);
}

TEST(OracleTest, LeavesASemiJoinPlanItCountsOverAsItWas) {
  Settings s;
  s.workers = 2;
  auto cq = testing::compile(kSemiAndAnti, s);
  const std::string before = explain_text(*cq, nullptr);
  const std::string root = cq->signer->sign(*cq->logical).exact.hex();
  OracleReport report;
  QueryLimits limits(s);
  auto source = oracle_cardinalities(testing::tpch_db(), *cq, s, &limits, report);
  EXPECT_FALSE(source->empty());
  EXPECT_GT(report.subplans, 10u);
  EXPECT_EQ(explain_text(*cq, nullptr), before);
  PlanSigner fresh(cq->ctx);
  EXPECT_EQ(fresh.sign(*cq->logical).exact.hex(), root);
}

TEST(OracleTest, SaysWhenTheCapLeftSetsToTheModel) {
  Settings s;
  s.workers = 1;
  s.cardinality = "oracle";
  s.oracle_max_subplans = 4;
  Session session(testing::tpch_db());
  session.settings() = s;
  StatementResult r = session.run_script(kFiveJoins);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_TRUE(r.oracle);
  EXPECT_EQ(r.oracle->subplans, 4u);
  EXPECT_TRUE(r.oracle->capped());
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("capped at oracle_max_subplans = 4"), std::string::npos) << r.warnings[0];
  // The answer is the same as without the oracle.
  Settings plain;
  StatementResult p = testing::run(kFiveJoins, plain);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.executed.row_count(), r.executed.row_count());
}

TEST(OracleTest, ACountTooBigForItsTimeoutIsLeftToTheModel) {
  Settings s;
  s.workers = 1;
  s.cardinality = "oracle";
  apply_setting(s, "oracle_subplan_timeout", "1ms");
  EXPECT_EQ(s.oracle_subplan_timeout_ms, 1);
  Session session(testing::tpch_db());
  session.settings() = s;
  StatementResult r = session.run_script(kFiveJoins);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_TRUE(r.oracle);
  EXPECT_GT(r.oracle->timed_out, 0u);
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings.back().find("ran past oracle_subplan_timeout"), std::string::npos) << r.warnings.back();
  StatementResult p = testing::run(kFiveJoins, Settings{});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.executed.row_count(), r.executed.row_count());
}

TEST(OracleTest, ACountThatDoesNotFitTheBudgetIsLeftToTheModel) {
  // Under a budget too small for the counts, the oracle leaves those sets to the model and the statement
  // still runs (and fails, if it must, as it would without the oracle). The tables are loaded by a first
  // statement without the budget (a table an earlier statement loaded is not charged again).
  Session session(testing::tpch_db());
  session.settings().workers = 2;
  StatementResult r = session.run_script(
      "SELECT COUNT(*) FROM lineitem, orders WHERE l_orderkey = o_orderkey; SET memory_limit = '64KB'; "
      "SET cardinality = oracle; SELECT COUNT(*) FROM lineitem, orders WHERE l_orderkey = o_orderkey");
  ASSERT_TRUE(r.oracle) << (r.error ? r.error->format() : "");
  EXPECT_GT(r.oracle->out_of_memory, 0u) << r.oracle->describe();
  EXPECT_NE(r.oracle->describe().find("ran out of memory"), std::string::npos) << r.oracle->describe();
  if (r.error) {
    EXPECT_EQ(r.error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED) << r.error->format();
  }
}

TEST(OracleTest, ItsOwnBudgetCountsWhatTheStatementsBudgetCannotHold) {
  // The same statement as above with oracle_subplan_memory_limit: every count fits its own budget, so the
  // query under 64KB is planned on true counts only (the re-execution benchmark's baseline).
  Session session(testing::tpch_db());
  session.settings().workers = 2;
  StatementResult r = session.run_script(
      "SELECT COUNT(*) FROM lineitem, orders WHERE l_orderkey = o_orderkey; SET memory_limit = '64KB'; "
      "SET oracle_subplan_memory_limit = '1GB'; SET cardinality = oracle; "
      "SELECT COUNT(*) FROM lineitem, orders WHERE l_orderkey = o_orderkey");
  ASSERT_TRUE(r.oracle) << (r.error ? r.error->format() : "");
  EXPECT_GT(r.oracle->subplans, 0u);
  EXPECT_EQ(r.oracle->out_of_memory, 0u) << r.oracle->describe();
  EXPECT_FALSE(r.oracle->capped()) << r.oracle->describe();
}

// A re-plan after a failed attempt (reexec_count_scans) counts the filtered scans that are cheap next to the plan:
// customer's here (1.5k rows, in a plan that reads lineitem's 60k), not lineitem's, and none the scopes know.
const char* kCheapAndDearScans =
    "SELECT COUNT(*) FROM lineitem, orders, customer WHERE l_orderkey = o_orderkey AND o_custkey = c_custkey "
    "AND c_mktsegment = 'BUILDING' AND c_nationkey < 5 AND l_quantity < 10";

TEST(OracleTest, ARePlanCountsTheFilteredScansThatAreCheapNextToThePlan) {
  Settings s;
  s.workers = 2;
  auto cq = testing::compile(kCheapAndDearScans, s);
  QueryLimits limits(s);
  OracleReport report;
  std::vector<CountedScan> counted;
  auto source = count_filtered_scans(testing::tpch_db(), *cq, s, &limits, [](const sig::Signature&) { return false; },
                                     report, counted);
  const auto truth = testing::run("SELECT COUNT(*) FROM customer WHERE c_mktsegment = 'BUILDING' AND c_nationkey < 5");
  ASSERT_TRUE(truth.ok());
  const double customers = static_cast<double>(truth.executed.batches.at(0).columns.at(0).get(0).i);
  ASSERT_EQ(counted.size(), 1u);
  EXPECT_EQ(counted[0].table, "customer");
  EXPECT_EQ(counted[0].rows, customers);
  EXPECT_EQ(counted[0].estimate, testing::scan_of(*cq->physical, "customer")->estimated_rows);
  EXPECT_EQ(report.subplans, 1u);

  // The counts answer as runtime observations: planned with them, the customer scan is estimated exactly.
  auto stmts = sql::parse_sql(kCheapAndDearScans);
  auto again = compile_query(testing::tpch_db(), *stmts.at(0)->as<sql::SelectStatement>().query, kCheapAndDearScans, s,
                             true, [&](const std::vector<stats::TableVersion>&) { return source; });
  const PhysicalOperator* customer = testing::scan_of(*again->physical, "customer");
  ASSERT_TRUE(customer);
  EXPECT_EQ(customer->estimate_source, stats::EstimateSource::Runtime);
  EXPECT_EQ(customer->estimated_rows, std::max(1.0, customers));
  EXPECT_EQ(testing::scan_of(*again->physical, "lineitem")->estimate_source, stats::EstimateSource::Model);

  // What the scopes know exactly is not counted again.
  std::vector<CountedScan> none;
  count_filtered_scans(testing::tpch_db(), *cq, s, &limits, [](const sig::Signature&) { return true; }, report, none);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(report.subplans, 0u);
}

TEST(OracleTest, SubplanMemoryLimitSetting) {
  Settings s;
  EXPECT_EQ(s.oracle_subplan_memory_limit, 0);
  apply_setting(s, "oracle_subplan_memory_limit", "2GB");
  EXPECT_EQ(s.oracle_subplan_memory_limit, int64_t{2} << 30);
  apply_setting(s, "oracle_subplan_memory_limit", "0");
  EXPECT_EQ(s.oracle_subplan_memory_limit, 0);
  EXPECT_THROW(apply_setting(s, "oracle_subplan_memory_limit", "-1MB"), Error);
  EXPECT_THROW(apply_setting(s, "oracle_subplan_memory_limit", "lots"), Error);
  EXPECT_EQ(s.memory_limit, Settings{}.memory_limit);
}

}  // namespace
}  // namespace hindsight
