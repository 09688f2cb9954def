// The replay report's arithmetic (reexec/workload/replay_report.hpp) on a fixed synthetic report, the promotion
// rule, and the captured plan's joins compared by the plan diff's one definition.
#include "reexec/workload/replay_report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "reexec/workload/replay.hpp"

namespace hindsight::workload {
namespace {

QueryReplay query(const std::string& name, bool captured_ok, bool ok, double captured_ms, double replayed_ms,
                  double work_before, double work_after) {
  QueryReplay q;
  q.name = name;
  q.captured_ok = captured_ok;
  q.ok = ok;
  q.captured_ms = captured_ms;
  q.replayed_ms = replayed_ms;
  q.work_before = work_before;
  q.work_after = work_after;
  if (captured_ok && ok) q.results_match = true;
  return q;
}

/// a: 4x faster, half the work; b: 2x slower, twice the work; c: 5 % faster (within the band), same work;
/// d: failed when captured, ok now (fixed); e: ok when captured, failed now (introduced);
/// f: 1x, result differs on the same data; g: result differs on changed data.
std::vector<QueryReplay> synthetic() {
  std::vector<QueryReplay> qs = {query("a", true, true, 400, 100, 1000, 500),
                                 query("b", true, true, 100, 200, 1000, 2000),
                                 query("c", true, true, 105, 100, 1000, 1000),
                                 query("d", false, true, 50, 60, 0, 700),
                                 query("e", true, false, 80, 90, 900, 0),
                                 query("f", true, true, 100, 100, 1000, 1000),
                                 query("g", true, true, 100, 100, 1000, 1000)};
  qs[5].results_match = false;
  qs[6].results_match = false;
  qs[6].data_changed = true;
  qs[0].plan_changed = true;
  qs[1].plan_changed = true;
  return qs;
}

TEST(ReplayReport, SpeedupsAndWorkRatios) {
  auto qs = synthetic();
  EXPECT_DOUBLE_EQ(qs[0].speedup(), 4.0);
  EXPECT_DOUBLE_EQ(qs[1].speedup(), 0.5);
  EXPECT_DOUBLE_EQ(qs[0].work_ratio(), 2.0);
  EXPECT_DOUBLE_EQ(qs[1].work_ratio(), 0.5);
  EXPECT_EQ(qs[3].speedup(), 0) << "not compared: failed when captured";
  EXPECT_EQ(qs[4].work_ratio(), 0) << "not compared: failed now";
  // A time near zero is taken as kMinMs, never a division by zero.
  EXPECT_DOUBLE_EQ(query("z", true, true, 1, 0, 1, 1).speedup(), 1 / kMinMs);
}

TEST(ReplayReport, Summary) {
  const ReplaySummary s = summarize(synthetic());
  EXPECT_EQ(s.queries, 7u);
  EXPECT_EQ(s.compared, 5u);  // a, b, c, f, g
  // Speedups 4, 0.5, 1.05, 1, 1: geometric mean (4 * 0.5 * 1.05)^(1/5).
  EXPECT_NEAR(s.geomean_speedup, std::pow(4 * 0.5 * 1.05, 1.0 / 5), 1e-12);
  // Work ratios 2, 0.5, 1, 1, 1: geometric mean 1.
  EXPECT_NEAR(s.geomean_work_ratio, 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(s.improved_share, 1.0 / 5);   // a (c's 5 % is within the band)
  EXPECT_DOUBLE_EQ(s.regressed_share, 1.0 / 5);  // b
  EXPECT_DOUBLE_EQ(s.improved_work_share, 1.0 / 5);
  EXPECT_DOUBLE_EQ(s.regressed_work_share, 1.0 / 5);
  EXPECT_EQ(s.failures_fixed, 1u);
  EXPECT_EQ(s.failures_introduced, 1u);
  EXPECT_EQ(s.results_differ, 1u);             // f
  EXPECT_EQ(s.results_differ_other_data, 1u);  // g
  EXPECT_EQ(s.plans_changed, 2u);
  EXPECT_EQ(summarize({}).geomean_speedup, 0) << "nothing compared";
}

TEST(ReplayReport, OracleComparison) {
  // The oracle replay: a 100 ms (work 500), b 150 ms (work 1000), c 100 ms, e failed.
  const std::vector<Measured> oracle = {{"a", true, 100, 500}, {"b", true, 150, 1000}, {"c", true, 100, 1000},
                                        {"e", false, 10, 0}};
  const auto qs = synthetic();
  const OracleComparison c = compare_with_oracle(replayed(qs), oracle);
  // Compared: a (1.0, work 1.0), b (200/150, work 2.0), c (1.0, work 1.0); d, f, g have no oracle run, e failed.
  EXPECT_EQ(c.compared, 3u);
  EXPECT_DOUBLE_EQ(c.within_share, 2.0 / 3);
  EXPECT_DOUBLE_EQ(c.within_work_share, 2.0 / 3);
  EXPECT_NEAR(c.geomean_ratio, std::cbrt(200.0 / 150), 1e-12);
  EXPECT_NEAR(c.geomean_work_ratio, std::cbrt(2.0), 1e-12);
  // The capture against the same oracle: a 400/100, b 100/150, c 105/100.
  const OracleComparison before = compare_with_oracle(captured(qs), oracle);
  EXPECT_EQ(before.compared, 3u);
  EXPECT_DOUBLE_EQ(before.within_share, 2.0 / 3);
  EXPECT_NEAR(before.geomean_ratio, std::cbrt(4.0 * (100.0 / 150) * 1.05), 1e-12);
  EXPECT_DOUBLE_EQ(geomean({2, 8}), 4);
  EXPECT_EQ(geomean({}), 0);
}

/// The row of `run` in a summary table, split at whitespace.
std::vector<std::string> table_row(const std::string& text, const std::string& run) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> cells;
    for (std::string w; words >> w;) cells.push_back(w);
    if (!cells.empty() && cells[0] == run) return cells;
  }
  return {};
}

TEST(ReplayReport, SummaryTable) {
  const auto qs = synthetic();
  const ReplaySummary s = summarize(qs);
  OracleComparison vs;
  vs.within_share = 2.0 / 3;
  vs.within_work_share = 1.0 / 3;
  const std::string text = summary_table_text({{"captured", nullptr, nullptr, vs}, {"on", &s, &qs, vs}});
  // run, plans changed, geomean speedup, work, <=1.2x oracle work, time, regressed time, work, failures fixed, new,
  // results differ (the % signs are cells of their own).
  const std::vector<std::string> on = {"on", "2/7", fmt::format("{:.2f}x", s.geomean_speedup), "1.00x", "33", "%",
                                       "67", "%", "20", "%", "20", "%", "1", "1", "1"};
  EXPECT_EQ(table_row(text, "on"), on) << text;
  EXPECT_EQ(table_row(text, "captured"),
            (std::vector<std::string>{"captured", "-", "-", "-", "33", "%", "67", "%", "-", "-", "-", "-", "-"}))
      << text;
  // The queries that need a look: e failed, f differs, g differs on changed data, b did twice the work.
  EXPECT_NE(text.find("on e: failed"), std::string::npos) << text;
  EXPECT_NE(text.find("on f: RESULT DIFFERS"), std::string::npos) << text;
  EXPECT_NE(text.find("on g: result differs (its tables changed)"), std::string::npos) << text;
  EXPECT_NE(text.find("on b: work regressed 0.50x (1000 -> 2000)"), std::string::npos) << text;
  EXPECT_EQ(text.find("on a:"), std::string::npos) << "a improved: not listed\n" << text;
  // Without an oracle replay the oracle columns are empty.
  const std::string alone = summary_table_text({{"off", &s, &qs, std::nullopt}});
  EXPECT_EQ(alone.find("oracle"), std::string::npos) << alone;
  EXPECT_EQ(table_row(alone, "off").size(), 11u) << alone;
}

TEST(ReplayReport, PromotionRule) {
  QueryReplay q = query("a", true, true, 100, 110, 1, 1);
  EXPECT_TRUE(promotion_allowed(q)) << "10 % slower is noise";
  q.replayed_ms = 111;
  EXPECT_FALSE(promotion_allowed(q)) << "beyond 10 % slower";
  q = query("tiny", true, true, 1, 5.5, 1, 1);
  EXPECT_TRUE(promotion_allowed(q)) << "a few ms on a tiny query is noise";
  q.replayed_ms = 6.5;
  EXPECT_FALSE(promotion_allowed(q));
  q = query("a", true, true, 100, 50, 1, 1);
  q.results_match = false;
  EXPECT_FALSE(promotion_allowed(q)) << "faster but another result";
  q = query("a", true, false, 100, 50, 1, 1);
  EXPECT_FALSE(promotion_allowed(q)) << "failed";
}

PlanNode scan(const std::string& table, double est, double actual) {
  PlanNode n;
  n.set_operator_("TableScan");
  (*n.mutable_details())["table"] = table;
  n.set_estimated_rows(est);
  n.set_actual_rows(actual);
  n.set_actual_complete(true);
  return n;
}

PlanNode join(PlanNode probe, PlanNode build, const std::string& distribution) {
  PlanNode n;
  n.set_operator_("HashJoin");
  (*n.mutable_details())["distribution"] = distribution;
  *n.add_children() = std::move(probe);
  *n.add_children() = std::move(build);
  return n;
}

TEST(ReplayReport, CapturedPlanJoinsCompareAsPhysicalPlans) {
  // (lineitem ⋈ orders) ⋈ customer, customer broadcast and estimated at 10 rows but 50k seen.
  const PlanNode before =
      join(join(scan("lineitem", 6e4, 6e4), scan("orders", 1.5e4, 1.5e4), "partitioned"), scan("customer", 10, 5e4),
           "broadcast");
  const auto old_joins = captured_joins(before);
  ASSERT_EQ(old_joins.size(), 2u);
  EXPECT_EQ(old_joins[0].key, "customer⋈lineitem⋈orders");
  EXPECT_EQ(old_joins[0].build, "customer");
  ASSERT_TRUE(old_joins[0].build_observed);
  EXPECT_EQ(old_joins[0].build_observed->rows, 50000u);
  EXPECT_EQ(reexec::describe_join_changes(old_joins, old_joins), "") << "the same joins";
  // The same join order, the top join now partitioned.
  const PlanNode after =
      join(join(scan("lineitem", 6e4, 6e4), scan("orders", 1.5e4, 1.5e4), "partitioned"), scan("customer", 10, 5e4),
           "partitioned");
  EXPECT_EQ(reexec::describe_join_changes(old_joins, captured_joins(after)),
            "join (lineitem⋈orders)⋈customer: broadcast -> partitioned; build estimate 10 -> observed 50k rows");
  // Another join order: customer joined to orders first.
  const PlanNode other =
      join(scan("lineitem", 6e4, 6e4), join(scan("orders", 1.5e4, 1.5e4), scan("customer", 10, 5e4), "broadcast"),
           "partitioned");
  const std::string diff = reexec::describe_join_changes(old_joins, captured_joins(other));
  EXPECT_NE(diff.find("build customer -> build customer⋈orders"), std::string::npos) << diff;
  EXPECT_NE(diff.find("new join orders⋈customer (broadcast)"), std::string::npos) << diff;
  EXPECT_NE(diff.find("join lineitem⋈orders dropped"), std::string::npos) << diff;
}

}  // namespace
}  // namespace hindsight::workload
