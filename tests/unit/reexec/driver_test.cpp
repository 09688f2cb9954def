#include "reexec/driver.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "planner/session/explain.hpp"
#include "planner/sql/parser.hpp"
#include "stats_store/memory_repository.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

constexpr const char* kJoin = "SELECT count(*), sum(o_totalprice) FROM orders JOIN customer ON o_custkey = c_custkey";

Settings base_settings() {
  Settings s;
  s.workers = 2;
  s.stats_scope = Settings::StatsScope::Query;
  return s;
}

StatementResult run_reexec(const std::string& sql, const Settings& s, Database& db = testing::tpch_db()) {
  Session session(db);
  session.settings() = s;
  session.set_statement_runner(std::make_shared<reexec::ReExecDriver>());
  return session.run_script(sql);
}

std::string first_cell(const StatementResult& r) {
  return r.executed.batches.at(0).columns.at(0).get(0).to_string() + "|" +
         r.executed.batches.at(0).columns.at(1).get(0).to_string();
}

bool has_warning(const StatementResult& r, const std::string& part) {
  for (auto& w : r.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

TEST(ReExecDriverTest, TransientIsRetriedUnchanged) {
  Settings s = base_settings();
  const std::string expected = first_cell(run_reexec(kJoin, s));
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=100;error=TRANSIENT;times=1");
  auto r = run_reexec(kJoin, s);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.attempts.size(), 2u);
  ASSERT_TRUE(r.attempts[0].error);
  EXPECT_EQ(r.attempts[0].error->code(), ErrorCode::TRANSIENT);
  EXPECT_FALSE(r.attempts[1].error);
  EXPECT_EQ(r.attempts[1].number, 2);
  EXPECT_EQ(r.attempts[0].plan_hash, r.attempts[1].plan_hash);  // the same plan, run again
  EXPECT_TRUE(r.attempts[0].reexec_reason.empty());
  EXPECT_NE(r.attempts[1].reexec_reason.find("retry after TRANSIENT in attempt 1"), std::string::npos)
      << r.attempts[1].reexec_reason;
  EXPECT_EQ(first_cell(r), expected);
  EXPECT_EQ(reexec::describe_attempts(r).size(), 1u);
}

TEST(ReExecDriverTest, TransientTwiceWithOneRetryFailsWithTheOriginalError) {
  Settings s = base_settings();
  s.reexec_max_attempts = 2;
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=100;error=TRANSIENT;times=2");
  auto r = run_reexec(kJoin, s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::TRANSIENT);
  EXPECT_NE(r.error->message().find("injected fault"), std::string::npos) << r.error->message();
  ASSERT_EQ(r.attempts.size(), 2u);
  EXPECT_TRUE(r.attempts[0].error && r.attempts[1].error);
  EXPECT_TRUE(has_warning(r, "reexec_max_attempts = 2"));
  // `times` counts across the attempts: with a third attempt allowed the statement succeeds.
  s.reexec_max_attempts = 3;
  auto third = run_reexec(kJoin, s);
  ASSERT_TRUE(third.ok()) << third.error->format();
  EXPECT_EQ(third.attempts.size(), 3u);
}

TEST(ReExecDriverTest, MaxAttemptsIsRespected) {
  Settings s = base_settings();
  s.fault_injection = parse_fault_spec("operator=TableScan;after_rows=1;error=TRANSIENT;times=50");
  for (int max : {1, 3, 4}) {
    s.reexec_max_attempts = max;
    auto r = run_reexec(kJoin, s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.attempts.size(), static_cast<size_t>(max));
    for (size_t i = 0; i < r.attempts.size(); ++i) EXPECT_EQ(r.attempts[i].number, static_cast<int>(i + 1));
  }
}

TEST(ReExecDriverTest, NoneGivesExactlyOneAttempt) {
  Settings s = base_settings();
  s.reexec_strategies.clear();
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=100;error=TRANSIENT;times=1");
  auto r = run_reexec(kJoin, s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.attempts.size(), 1u);
  // The same result as a Session without the driver.
  auto plain = testing::run(kJoin, s);
  ASSERT_EQ(plain.attempts.size(), 1u);
  EXPECT_EQ(plain.attempts[0].plan_hash, r.attempts[0].plan_hash);
  EXPECT_EQ(plain.error->code(), r.error->code());
  EXPECT_EQ(plain.warnings, r.warnings);
}

TEST(ReExecDriverTest, NonRetryableErrorsAreNeverReexecuted) {
  Settings s = base_settings();
  for (const char* sql : {"SELECT n_nationkey / 0 FROM nation", "SELECT no_such_column FROM nation",
                          "SELECT count(*) FROM no_such_table"}) {
    auto r = run_reexec(sql, s);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.attempts.size(), 1u) << sql;
  }
  EXPECT_EQ(run_reexec("SELECT n_nationkey / 0 FROM nation", s).error->code(), ErrorCode::DATA_ERROR);
  // An injected DATA_ERROR is not re-executed either: the code decides, not where the error came from.
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=1;error=DATA_ERROR;times=1");
  auto r = run_reexec(kJoin, s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.attempts.size(), 1u);
}

TEST(ReExecDriverTest, AnOverlayScopedToMemoryLimitExceededAppliesToItAndNotToTimeout) {
  Settings s = base_settings();
  s.reexec_strategies = {"overlay"};
  s.reexec_overlay_by_code["MEMORY_LIMIT_EXCEEDED"] = "workers=3";
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=100;error=MEMORY_LIMIT_EXCEEDED;times=1");
  auto r = run_reexec(kJoin, s);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.attempts.size(), 2u);
  EXPECT_NE(r.attempts[1].reexec_reason.find("overlay after MEMORY_LIMIT_EXCEEDED"), std::string::npos)
      << r.attempts[1].reexec_reason;
  EXPECT_NE(r.attempts[1].reexec_reason.find("overlay workers=3"), std::string::npos) << r.attempts[1].reexec_reason;
  // The overlay runs the next attempt even if its plan is the same: its settings differ.

  s.fault_injection.error = ErrorCode::TIMEOUT;
  auto t = run_reexec(kJoin, s);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error->code(), ErrorCode::TIMEOUT);
  EXPECT_EQ(t.attempts.size(), 1u);

  // A global overlay applies to every re-executable error.
  s.reexec_overlay = "workers=3";
  auto g = run_reexec(kJoin, s);
  ASSERT_TRUE(g.ok()) << g.error->format();
  EXPECT_EQ(g.attempts.size(), 2u);
}

TEST(ReExecDriverTest, SpillTurnsSpillingOnForTheAttemptsAfterMemoryLimitExceeded) {
  Settings s = base_settings();
  s.reexec_strategies = {"spill"};
  // An injected MEMORY_LIMIT_EXCEEDED: the plan does not change, the settings do, so attempt 2 runs.
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=100;error=MEMORY_LIMIT_EXCEEDED;times=1");
  auto r = run_reexec(kJoin, s);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.attempts.size(), 2u);
  EXPECT_EQ(r.attempts[0].plan_hash, r.attempts[1].plan_hash);
  EXPECT_NE(r.attempts[1].reexec_reason.find("spill after MEMORY_LIMIT_EXCEEDED in attempt 1"), std::string::npos)
      << r.attempts[1].reexec_reason;
  EXPECT_NE(r.attempts[1].reexec_reason.find("spill on"), std::string::npos) << r.attempts[1].reexec_reason;

  // Failing again with spilling on, the same plan is not run a third time: it would spill the same way.
  s.fault_injection.times = 2;
  auto twice = run_reexec(kJoin, s);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
  EXPECT_EQ(twice.attempts.size(), 2u);
  EXPECT_TRUE(has_warning(twice, "the plan did not change")) << ::testing::PrintToString(twice.warnings);

  // A session that spills already gets nothing more from it.
  s.fault_injection.times = 1;
  s.spill = true;
  auto spilling = run_reexec(kJoin, s);
  ASSERT_FALSE(spilling.ok());
  EXPECT_EQ(spilling.attempts.size(), 1u);
}

TEST(ReExecDriverTest, AReplanThatGivesTheSamePlanIsNotRun) {
  Settings s = base_settings();
  s.reexec_strategies = {"reoptimize"};
  // A TIMEOUT in the probe: what the attempt saw does not change the plan, so reoptimize does not re-run it.
  s.fault_injection = parse_fault_spec("operator=HashJoinProbe;after_rows=1;error=TIMEOUT;times=1");
  auto r = run_reexec(kJoin, s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::TIMEOUT);
  EXPECT_EQ(r.attempts.size(), 1u);
  EXPECT_TRUE(has_warning(r, "the plan did not change")) << ::testing::PrintToString(r.warnings);
}

TEST(ReExecDriverTest, TheTimeBudgetStopsFurtherAttempts) {
  Settings s = base_settings();
  s.reexec_time_budget_ms = 5;  // below the retry's first backoff (10 ms)
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=100;error=TRANSIENT;times=1");
  auto r = run_reexec(kJoin, s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.attempts.size(), 1u);
  EXPECT_TRUE(has_warning(r, "time budget"));
}

TEST(ReExecDriverTest, StatementsWithSideEffectsAreNeverReexecuted) {
  Settings s = base_settings();
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=100;error=TRANSIENT;times=1");
  auto stmts = sql::parse_sql(kJoin);
  stats::MemoryStatsRepository query_scope;
  std::vector<std::string> warnings;
  StatementInput in{testing::tpch_db(), *stmts.at(0)->as<sql::SelectStatement>().query, kJoin, s, true, false,
                    {&query_scope}, &warnings};
  StatementResult r;
  reexec::ReExecDriver().run(in, r);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.attempts.size(), 1u);
  in.side_effect_free = true;
  StatementResult again;
  reexec::ReExecDriver().run(in, again);
  EXPECT_TRUE(again.ok());
  EXPECT_EQ(again.attempts.size(), 2u);
  // Both attempts recorded into the query scope: one chain of observations.
  EXPECT_EQ(again.observed.size(), 2u);
}

TEST(ReExecDriverTest, PlainExplainPlansOnce) {
  Settings s = base_settings();
  Session session(testing::tpch_db());
  session.settings() = s;
  session.set_statement_runner(std::make_shared<reexec::ReExecDriver>());
  auto r = session.run_script(std::string("EXPLAIN ") + kJoin);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.attempts.empty());
  ASSERT_TRUE(r.compiled);
}

// The scan of `table` in the plan that ran last (nullptr: none).
const PhysicalOperator* scan_of(const StatementResult& r, const std::string& table) {
  return testing::scan_of(*r.compiled->physical, table);
}

constexpr const char* kBuildingCustomers =
    "SELECT count(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey JOIN customer ON o_custkey = c_custkey "
    "WHERE c_mktsegment = 'BUILDING' AND c_nationkey < 5";

double building_customers() {
  const auto truth = testing::run("SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING' AND c_nationkey < 5");
  EXPECT_TRUE(truth.ok());
  return static_cast<double>(truth.executed.batches.at(0).columns.at(0).get(0).i);
}

// count_scans_first: a statement's first plan counts the cheap filtered scan the model can only estimate (customer's
// two predicates, the scan a small share of the plan's work) and starts from its true size; the attempt says what it
// counted. A scope that observed the scan to its end answers instead: the same statement again in the same process
// counts nothing. Off, the first plan has the model's estimate.
TEST(ReExecDriverTest, TheFirstPlanCountsTheCheapFilteredScansNoScopeKnows) {
  const double customers = building_customers();
  Settings s = base_settings();
  s.stats_scope = Settings::StatsScope::Process;
  EXPECT_FALSE(s.count_scans_first);  // off by default (docs/reexec.md: measured, not a gain yet)
  s.count_scans_first = true;
  Session session(testing::tpch_db());
  session.settings() = s;
  session.set_statement_runner(std::make_shared<reexec::ReExecDriver>());
  auto r = session.run_script(kBuildingCustomers);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.attempts.size(), 1u);
  ASSERT_EQ(r.attempts[0].counted.size(), 1u);
  EXPECT_EQ(r.attempts[0].counted[0].table, "customer");
  EXPECT_EQ(r.attempts[0].counted[0].rows, customers);
  EXPECT_GT(r.attempts[0].counting_ms, 0);
  ASSERT_TRUE(scan_of(r, "customer"));
  EXPECT_EQ(scan_of(r, "customer")->estimate_source, stats::EstimateSource::Runtime);
  EXPECT_EQ(scan_of(r, "customer")->estimated_rows, customers);

  auto again = session.run_script(kBuildingCustomers);
  ASSERT_TRUE(again.ok()) << again.error->format();
  EXPECT_TRUE(again.attempts.at(0).counted.empty());
  ASSERT_TRUE(scan_of(again, "customer"));
  EXPECT_EQ(scan_of(again, "customer")->estimated_rows, customers);  // the scope's count: the first run saw it all

  s.count_scans_first = false;
  auto off = run_reexec(kBuildingCustomers, s);
  ASSERT_TRUE(off.ok()) << off.error->format();
  EXPECT_TRUE(off.attempts.at(0).counted.empty());
  ASSERT_TRUE(scan_of(off, "customer"));
  EXPECT_NE(scan_of(off, "customer")->estimate_source, stats::EstimateSource::Runtime);
}

// reexec_count_scans: a re-plan after MEMORY_LIMIT_EXCEEDED first counts the filtered scan the failed attempt did not
// finish (customer's: the fault stops the first scan to produce a row, the build side's), and plans with its true
// size; with it off, the re-plan has only the model or what the cut-short scan extrapolates.
TEST(ReExecDriverTest, ARePlanCountsTheFilteredScansTheFailedAttemptDidNotFinish) {
  const std::string sql = kBuildingCustomers;
  const double customers = building_customers();
  Settings s = base_settings();
  s.reexec_strategies = {"reoptimize", "spill"};
  s.fault_injection = parse_fault_spec("operator=TableScan;after_rows=1;error=MEMORY_LIMIT_EXCEEDED;times=1");
  auto r = run_reexec(sql, s);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.attempts.size(), 2u);
  const std::string& why = r.attempts[1].reexec_reason;
  EXPECT_NE(why.find("; counted 1 filtered scan first ("), std::string::npos) << why;
  ASSERT_TRUE(scan_of(r, "customer"));
  EXPECT_EQ(scan_of(r, "customer")->estimate_source, stats::EstimateSource::Runtime);
  EXPECT_EQ(scan_of(r, "customer")->estimated_rows, customers);

  s.reexec_count_scans = false;
  auto off = run_reexec(sql, s);
  ASSERT_TRUE(off.ok()) << off.error->format();
  ASSERT_EQ(off.attempts.size(), 2u);
  EXPECT_EQ(off.attempts[1].reexec_reason.find("counted"), std::string::npos) << off.attempts[1].reexec_reason;
}

// The map-join case: under a memory limit the first plan broadcasts an underestimated build side
// (lineitem behind filters the model cannot estimate with filter_sample off: 1.6k rows estimated, 58k actual) and fails
// with MEMORY_LIMIT_EXCEEDED; the re-plan sees the observed build side and partitions the join. The select list
// reads b's filter columns too, so that they are outputs of its scan (a column only the scan's filter reads is not)
// and the broadcast build side is as wide as the memory limit below assumes.
TEST(ReExecDriverTest, TheMapJoinCaseIsRescuedByReoptimize) {
  const std::string sql =
      "SELECT count(*), sum(b.l_quantity), max(b.l_extendedprice + b.l_tax + b.l_discount) FROM lineitem a JOIN "
      "lineitem b ON a.l_partkey = b.l_partkey "
      "WHERE b.l_quantity + b.l_tax > 2 AND b.l_extendedprice / b.l_quantity > 900 AND b.l_tax + b.l_discount >= 0";
  Settings s = base_settings();
  s.workers = 4;
  s.filter_sample = false;
  Settings unconstrained = s;
  unconstrained.reexec_strategies.clear();
  Database fresh_unconstrained(testing::tpch_dir());
  const auto expected = run_reexec(sql, unconstrained, fresh_unconstrained);
  ASSERT_TRUE(expected.ok()) << expected.error->format();

  // The broadcast plan peaks near 17 MB, the partitioned one near 6 MB (the five lineitem columns the statement
  // reads included: only the columns it loads are charged).
  s.memory_limit = 12LL << 20;
  // A Database of its own: the table columns this statement loads are charged to its budget.
  Database db(testing::tpch_dir());
  auto r = run_reexec(sql, s, db);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.attempts.size(), 2u);
  ASSERT_TRUE(r.attempts[0].error);
  EXPECT_EQ(r.attempts[0].error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
  EXPECT_NE(r.attempts[0].plan_hash, r.attempts[1].plan_hash);
  const std::string& why = r.attempts[1].reexec_reason;
  EXPECT_NE(why.find("reoptimize+spill after MEMORY_LIMIT_EXCEEDED in attempt 1; spill on; plan changed"), std::string::npos) << why;
  EXPECT_NE(why.find("broadcast -> partitioned"), std::string::npos) << why;
  EXPECT_NE(why.find("build estimate 1.6k -> observed 58k rows"), std::string::npos) << why;
  EXPECT_EQ(first_cell(r), first_cell(expected));
  // The re-plan saw what the failed attempt observed: the join's build side is estimated from runtime.
  const PhysicalOperator* join = r.compiled->physical.get();
  while (join && join->kind != PhysicalOpKind::HashJoin) join = join->children.empty() ? nullptr : join->children[0].get();
  ASSERT_TRUE(join);
  EXPECT_NE(join->as<PhysicalHashJoin>().join_distribution, JoinDistribution::Broadcast);
  const PhysicalOperator* build = join->children[1].get();
  while (build->kind == PhysicalOpKind::Exchange) build = build->children[0].get();
  EXPECT_EQ(build->estimate_source, stats::EstimateSource::Runtime);
  EXPECT_EQ(build->estimated_rows, 58004);
  // Without re-execution the same statement fails.
  Database db2(testing::tpch_dir());
  Settings none = s;
  none.reexec_strategies.clear();
  auto failed = run_reexec(sql, none, db2);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
}

}  // namespace
}  // namespace hindsight
