#include "planner/exec/fault_injection.hpp"

#include <gtest/gtest.h>

#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::expect_error;

TEST(FaultSpecTest, ParsesEveryKeyAndRefusesTheRest) {
  FaultSpec s = parse_fault_spec("operator=HashJoinBuild; after_rows=1000; error=memory_limit_exceeded; times=2");
  EXPECT_EQ(s.op, "HashJoinBuild");
  EXPECT_EQ(s.after_rows, 1000u);
  EXPECT_EQ(s.error, ErrorCode::MEMORY_LIMIT_EXCEEDED);
  EXPECT_EQ(s.times, 2);
  EXPECT_TRUE(s.active());
  EXPECT_EQ(describe_fault_spec(s), "operator=HashJoinBuild;after_rows=1000;error=MEMORY_LIMIT_EXCEEDED;times=2");
  FaultSpec d = parse_fault_spec("operator=TableScan");
  EXPECT_EQ(d.error, ErrorCode::TRANSIENT);
  EXPECT_EQ(d.times, 1);
  EXPECT_EQ(d.after_rows, 0u);
  EXPECT_FALSE(parse_fault_spec("none").active());
  EXPECT_FALSE(parse_fault_spec("").active());
  EXPECT_FALSE(parse_fault_spec("operator=TableScan;times=0").active());
  expect_error([] { parse_fault_spec("after_rows=5"); }, ErrorCode::TYPE_ERROR);  // no operator
  expect_error([] { parse_fault_spec("operator=TableScan;error=OOPS"); }, ErrorCode::TYPE_ERROR);
  expect_error([] { parse_fault_spec("operator=TableScan;after_rows=-1"); }, ErrorCode::TYPE_ERROR);
  expect_error([] { parse_fault_spec("operator=TableScan;colour=red"); }, ErrorCode::TYPE_ERROR);
  expect_error([] { parse_fault_spec("operator"); }, ErrorCode::TYPE_ERROR);
}

TEST(FaultInjectionTest, FiresOnceWhenTheNamedOperatorReachesTheRowCount) {
  FaultSpec spec = parse_fault_spec("operator=HashJoinBuild;after_rows=100;error=TRANSIENT");
  FaultInjection f(spec);
  f.observe("TableScan", 1000, "TableScan#1 (worker 0)");  // another operator: not counted
  f.observe("HashJoinBuild", 60, "HashJoinBuild#2 (worker 0)");
  EXPECT_FALSE(f.fired());
  try {
    f.observe("HashJoinBuild", 60, "HashJoinBuild#2 (worker 1)");  // 120 rows over the workers
    ADD_FAILURE() << "no fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::TRANSIENT);
    EXPECT_NE(e.message().find("HashJoinBuild#2 (worker 1)"), std::string::npos) << e.message();
  }
  EXPECT_TRUE(f.fired());
  f.observe("HashJoinBuild", 500, "HashJoinBuild#2 (worker 0)");  // once per attempt
}

TEST(FaultInjectionTest, TheExecutorRaisesItTypedAndNamingTheOperator) {
  Settings s;
  s.workers = 2;
  s.stats_scope = Settings::StatsScope::Off;
  s.fault_injection = parse_fault_spec("operator=HashJoinBuild;after_rows=10;error=DATA_ERROR");
  auto r = testing::run("SELECT count(*) FROM orders JOIN customer ON o_custkey = c_custkey", s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::DATA_ERROR);
  EXPECT_NE(r.error->message().find("HashJoinBuild#"), std::string::npos) << r.error->message();
  EXPECT_TRUE(r.executed.fault_fired);
  // More rows than the operator ever sees: no fault.
  s.fault_injection.after_rows = 1u << 30;
  auto ok = testing::run("SELECT count(*) FROM orders JOIN customer ON o_custkey = c_custkey", s);
  ASSERT_TRUE(ok.ok()) << ok.error->format();
  EXPECT_FALSE(ok.executed.fault_fired);
}

TEST(FaultInjectionTest, ADelayFaultSlowsTheAttemptDownWithoutFailingIt) {
  FaultSpec spec = parse_fault_spec("operator=HashJoinBuild;after_rows=10;delay_ms=150;times=2");
  EXPECT_EQ(spec.delay_ms, 150);
  EXPECT_EQ(describe_fault_spec(spec), "operator=HashJoinBuild;after_rows=10;delay_ms=150;times=2");
  expect_error([] { parse_fault_spec("operator=TableScan;delay_ms=5;error=TRANSIENT"); }, ErrorCode::TYPE_ERROR);
  expect_error([] { parse_fault_spec("operator=TableScan;delay_ms=0"); }, ErrorCode::TYPE_ERROR);
  Settings s;
  s.workers = 2;
  s.stats_scope = Settings::StatsScope::Off;
  s.fault_injection = spec;
  const char* sql = "SELECT count(*) FROM orders JOIN customer ON o_custkey = c_custkey";
  auto r = testing::run(sql, s);
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_TRUE(r.executed.fault_fired);
  EXPECT_GE(r.executed.elapsed_ms, 150.0);
  s.fault_injection = {};
  auto plain = testing::run(sql, s);
  EXPECT_EQ(plain.executed.batches.at(0).columns.at(0).get(0).to_string(),
            r.executed.batches.at(0).columns.at(0).get(0).to_string());
}

}  // namespace
}  // namespace hindsight
