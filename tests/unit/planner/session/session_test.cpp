#include "planner/session/session.hpp"

#include <gtest/gtest.h>

#include "planner/session/explain.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::expect_error;
using testing::run;

TEST(SettingsTest, ValidatesNamesAndValues) {
  Settings s;
  apply_setting(s, "workers", "8");
  EXPECT_EQ(s.workers, 8);
  apply_setting(s, "memory_limit", "256MB");
  EXPECT_EQ(s.memory_limit, 256LL << 20);
  apply_setting(s, "disabled_rules", "push_down_filters, prune_columns");
  EXPECT_EQ(s.disabled_rules.size(), 2u);
  apply_setting(s, "timeout", "1.5s");
  EXPECT_EQ(s.timeout_ms, 1500);
  expect_error([&] { apply_setting(s, "workers", "0"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "memory_limit", "lots"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "disabled_rules", "no_such_rule"); }, ErrorCode::TYPE_ERROR);
  expect_error([&] { apply_setting(s, "colour", "blue"); }, ErrorCode::BIND_ERROR);
  apply_setting(s, "cte_materialization", "always");
  EXPECT_EQ(s.cte_materialization, "always");
  expect_error([&] { apply_setting(s, "cte_materialization", "sometimes"); }, ErrorCode::TYPE_ERROR);
}

TEST(SessionTest, SetStatementsApplyToTheRestOfTheScript) {
  auto r = run("SET workers = 3; SELECT count(*) FROM nation");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(r.executed.row_count(), 1u);
  EXPECT_EQ(r.executed.batches.at(0).columns.at(0).ints.at(0), 25);
  auto bad = run("SET workers = 'many'; SELECT 1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error->code(), ErrorCode::TYPE_ERROR);
  EXPECT_EQ(bad.error->pos().line, 1);
}

TEST(SessionTest, ParseErrorsAreResultsWithAnAttempt) {
  auto r = run("SELEC 1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::PARSE_ERROR);
  ASSERT_EQ(r.attempts.size(), 1u);
  EXPECT_TRUE(r.attempts[0].error.has_value());
}

TEST(SessionTest, MemoryLimitNamesTheOperatorAndKeepsPartialStats) {
  Settings s;
  s.memory_limit = 256 << 10;
  s.workers = 2;
  // Loaded before the limit applies (a table an earlier statement loaded is not charged again): the
  // budget is the join's, and the join is what must fail.
  testing::tpch_db().table("lineitem");
  auto r = run("SELECT count(*) FROM lineitem l1, lineitem l2 WHERE l1.l_orderkey = l2.l_orderkey", s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED) << r.error->format();
  EXPECT_NE(r.error->message().find('#'), std::string::npos) << r.error->message();
  // What ran is reported, and nothing that was cut short claims to be complete.
  ASSERT_FALSE(r.executed.stats.empty());
  bool some_incomplete = false;
  for (auto& [id, st] : r.executed.stats) some_incomplete |= !st.complete;
  EXPECT_TRUE(some_incomplete);
}

TEST(SessionTest, ExplainAnalyzeShowsActualRowsPerOperator) {
  auto r = run("EXPLAIN ANALYZE SELECT n_name FROM nation, region WHERE n_regionkey = r_regionkey AND r_name = 'ASIA'");
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_TRUE(r.is_explain);
  std::string text = explain_text(*r.compiled, &r.executed);
  EXPECT_NE(text.find("actual 5 rows"), std::string::npos) << text;
  auto json = explain_json(*r.compiled, &r.executed);
  EXPECT_EQ(json["physical"]["actual_rows"], 5) << json.dump(2);
  EXPECT_EQ(json["physical"]["estimate_source"], "model");
}

TEST(SessionTest, ConstantRowsJoinAlikeOnAnyNumberOfWorkers) {
  const char* sql = "SELECT count(*) FROM lineitem JOIN (SELECT 1 AS x) v ON l_linenumber = v.x";
  std::vector<int64_t> counts;
  for (int w : {1, 2, 4}) {
    Settings s;
    s.workers = w;
    auto r = run(sql, s);
    ASSERT_TRUE(r.ok()) << r.error->format();
    counts.push_back(r.executed.batches.at(0).columns.at(0).ints.at(0));
  }
  EXPECT_EQ(counts[0], counts[1]);
  EXPECT_EQ(counts[0], counts[2]);
  EXPECT_GT(counts[0], 0);
}

void find_scans(const nlohmann::json& node, const std::string& table, std::vector<nlohmann::json>& out) {
  if (node["operator"] == "TableScan" && node["details"]["table"] == table) out.push_back(node);
  for (auto& c : node["children"]) find_scans(c, table, out);
}

TEST(SessionTest, ReplicatedScanReportsOneCopyOfItsRows) {
  // Every worker reads the whole nation table; the actual rows are the table's, not W times them.
  for (int w : {1, 3}) {
    Settings s;
    s.workers = w;
    auto r = run("SELECT count(*) FROM customer, nation WHERE c_nationkey = n_nationkey AND n_name = 'CHINA'", s);
    ASSERT_TRUE(r.ok());
    auto j = explain_json(*r.compiled, &r.executed);
    std::vector<nlohmann::json> scans;
    find_scans(j["physical"], "nation", scans);
    ASSERT_EQ(scans.size(), 1u);
    EXPECT_EQ(scans[0]["actual_rows"], 1) << w << " workers";
  }
}

TEST(SessionTest, ExplainJsonCarriesCostDistributionAndSource) {
  Settings s;
  s.workers = 4;
  auto r = run("SELECT count(*) FROM orders, lineitem WHERE o_orderkey = l_orderkey", s);
  ASSERT_TRUE(r.ok());
  auto j = explain_json(*r.compiled, &r.executed);
  const auto& root = j["physical"];
  EXPECT_EQ(root["estimate_source"], "model");
  ASSERT_TRUE(root["cost"].is_object());
  EXPECT_GT(root["cost"]["subtree"].get<double>(), root["cost"]["total"].get<double>());
  EXPECT_EQ(root["details"]["delivers"], "single");
  std::vector<nlohmann::json> scans;
  find_scans(root, "lineitem", scans);
  ASSERT_EQ(scans.size(), 1u);
  EXPECT_EQ(scans[0]["details"]["delivers"], "hashed(l_orderkey; 8 buckets)");
}

TEST(SessionTest, TimeoutIsATypedError) {
  Settings s;
  s.timeout_ms = 1;
  auto r = run("SELECT count(*) FROM lineitem l1, lineitem l2 WHERE l1.l_suppkey = l2.l_suppkey", s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::TIMEOUT) << r.error->format();
}

}  // namespace
}  // namespace hindsight
