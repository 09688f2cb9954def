// The regression guard through a session (planner/session/regression_guard.hpp, docs/reexec.md): a plan
// made slower by a delay fault is demoted, and the next run plans the best known plan again.
#include <gtest/gtest.h>

#include "planner/session/explain.hpp"
#include "reexec/driver.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

// Misestimated (reexec/misestimate_test.cpp): its first plan (A) is replaced by a learned plan (B) on the
// second run. B is then made slow by a delay fault, so A is the best known plan of the template.
constexpr const char* kQuery =
    "SELECT count(*) FROM customer JOIN orders ON c_custkey = o_custkey WHERE o_totalprice * 2 > 100 AND "
    "o_totalprice * 3 > 100 AND o_totalprice * 4 > 100 AND o_totalprice * 5 > 100";

bool has_warning(const StatementResult& r, const std::string& part) {
  for (auto& w : r.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

struct Runs {
  std::string a, b;
};

/// Runs A, then B slowed down by 300 ms; returns the two plans.
Runs slow_down_the_learned_plan(Session& session) {
  auto first = session.run_script(kQuery);
  EXPECT_TRUE(first.ok());
  auto slowed = session.run_script(std::string("SET fault_injection = 'operator=TableScan;delay_ms=300';") + kQuery);
  EXPECT_TRUE(slowed.ok());
  EXPECT_GE(slowed.executed.elapsed_ms, 300);
  EXPECT_FALSE(slowed.regression_guard);  // B never ran before: it gets its chance
  session.settings().fault_injection = {};
  return {first.attempts.at(0).plan_hash, slowed.attempts.at(0).plan_hash};
}

std::unique_ptr<Session> session_for_test() {
  auto session = std::make_unique<Session>(testing::tpch_db());
  session->settings().workers = 4;
  session->settings().stats_scope = Settings::StatsScope::Process;
  session->settings().filter_sample = false;  // kQuery's misestimate (misestimate_test.cpp)
  session->set_statement_runner(std::make_shared<reexec::ReExecDriver>());
  return session;
}

TEST(RegressionGuardTest, ASlowerPlanIsDemotedAndTheBestKnownPlanRunsNext) {
  auto session = session_for_test();
  const Runs plans = slow_down_the_learned_plan(*session);
  ASSERT_NE(plans.a, plans.b);  // the second run planned with what the first observed

  auto guarded = session->run_script(kQuery);
  ASSERT_TRUE(guarded.ok()) << guarded.error->format();
  ASSERT_EQ(guarded.attempts.size(), 1u);
  EXPECT_EQ(guarded.attempts[0].plan_hash, plans.a);
  ASSERT_TRUE(guarded.regression_guard);
  EXPECT_TRUE(guarded.regression_guard->applied);
  EXPECT_EQ(guarded.regression_guard->demoted_plan, plans.b);
  EXPECT_EQ(guarded.regression_guard->best_plan, plans.a);
  EXPECT_GE(guarded.regression_guard->demoted_ms, 300);
  EXPECT_TRUE(has_warning(guarded, "regression guard: plan " + plans.b));
  // misestimate still finds A misestimated, but does not undo the guard by learning B again.
  EXPECT_NE(guarded.attempts[0].reexec_decision.find("the regression guard demoted that plan"), std::string::npos)
      << guarded.attempts[0].reexec_decision;
  EXPECT_EQ(guarded.executed.batches.at(0).columns.at(0).get(0).to_string(), "15000");
  // And again: A stays the plan while B is remembered slower.
  auto again = session->run_script(kQuery);
  EXPECT_EQ(again.attempts.at(0).plan_hash, plans.a);
}

TEST(RegressionGuardTest, OffTheOptimizersPlanRuns) {
  auto session = session_for_test();
  const Runs plans = slow_down_the_learned_plan(*session);
  session->settings().regression_guard = false;
  auto r = session->run_script(kQuery);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.attempts.at(0).plan_hash, plans.b);
  EXPECT_FALSE(r.regression_guard);
}

}  // namespace
}  // namespace hindsight
