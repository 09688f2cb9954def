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
  // Every listed unit works down to one byte (1B was refused: "at least 1KB"); the maximum is named.
  apply_setting(s, "memory_limit", "1B");
  EXPECT_EQ(s.memory_limit, 1);
  apply_setting(s, "memory_limit", "512");
  EXPECT_EQ(s.memory_limit, 512);
  expect_error([&] { apply_setting(s, "memory_limit", "0B"); }, ErrorCode::TYPE_ERROR);
  try {
    apply_setting(s, "memory_limit", "9000000TB");
    ADD_FAILURE() << "9000000TB accepted";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("from 1B to 8000000TB"), std::string::npos) << e.message();
  }
  apply_setting(s, "memory_limit", "8000000TB");
  EXPECT_EQ(s.memory_limit, int64_t{8000000} << 40);
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

TEST(SessionTest, AnAttemptReportsTheCpuTimeOfItsExecution) {
  // The CPU time of every worker thread while the plan ran: what the re-execution benchmark compares on a shared
  // machine, where elapsed times are mostly waiting for a core. A join that does work uses some; it cannot be more
  // than the threads could use in the elapsed time (2 workers, plus the thread that waits for them).
  Settings s;
  s.workers = 2;
  auto r = run("SELECT count(*) FROM lineitem, orders WHERE l_orderkey = o_orderkey", s);
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.attempts.size(), 1u);
  EXPECT_GT(r.executed.cpu_ms, 0);
  EXPECT_EQ(r.attempts[0].cpu_ms, r.executed.cpu_ms);
  EXPECT_LE(r.executed.cpu_ms, 3 * r.executed.elapsed_ms + 1);
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

TEST(SessionTest, RuntimeErrorsCarryThePositionOfTheExpression) {
  // Division by zero at run time (a column expression: nothing to fold at compile time).
  auto r = run("SELECT n_name,\n  10 / (n_nationkey - n_nationkey) FROM nation");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::DATA_ERROR);
  EXPECT_EQ(r.error->pos().line, 2);
  EXPECT_EQ(r.error->pos().col, 3);
  EXPECT_EQ(r.error->detail(), "    10 / (n_nationkey - n_nationkey) FROM nation\n    ^");
  ASSERT_FALSE(r.attempts.empty());
  ASSERT_TRUE(r.attempts.back().error.has_value());
  EXPECT_EQ(r.attempts.back().error->pos().line, 2);
  // The innermost written expression that failed: the cast, not the sum around it.
  auto cast = run("SELECT 1 + CAST(n_name AS INTEGER) FROM nation");
  ASSERT_FALSE(cast.ok());
  EXPECT_EQ(cast.error->code(), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast.error->pos().col, 12);
  // Overflow deep inside a chain evaluated bottom-up: the operator that overflowed (its left operand starts the
  // chain, so the position is that of the chain up to it).
  auto overflow = run("SELECT count(*) FROM nation WHERE n_nationkey * 9223372036854775807 * 2 > 0");
  ASSERT_FALSE(overflow.ok());
  EXPECT_EQ(overflow.error->code(), ErrorCode::DATA_ERROR);
  EXPECT_EQ(overflow.error->pos().col, 35);
  EXPECT_NE(overflow.error->detail().find('^'), std::string::npos);
  // An error in a later statement of a script points into the script.
  auto script = run("SET workers = 2;\nSELECT n_nationkey % 0 FROM nation");
  ASSERT_FALSE(script.ok());
  EXPECT_EQ(script.error->pos().line, 2);
  EXPECT_EQ(script.error->pos().col, 8);
}

std::string chain(const std::string& term, const std::string& op, int terms) {
  std::string out = term;
  for (int i = 1; i < terms; ++i) out += op + term;
  return out;
}

#if defined(__SANITIZE_ADDRESS__)
// Sanitizer builds have stack frames several times larger; some passes still recurse once per level of a + chain
// (clone, column collection, destructors), so they run a shorter chain. Release builds run the parser's limit.
constexpr int kLongChain = 2000;
#else
constexpr int kLongChain = 10000;
#endif

TEST(SessionTest, LongChainsCompileAndRun) {
  // A 9,999-term sum was refused by the parser; each stage after it binds, folds, signs and evaluates these chains
  // without recursing once per term where its frames are large.
  auto sum = run("SELECT " + chain("1", "+", kLongChain - 1));
  ASSERT_TRUE(sum.ok()) << sum.error->format();
  EXPECT_EQ(sum.executed.batches.at(0).columns.at(0).ints.at(0), kLongChain - 1);
  auto column_sum = run("SELECT sum(" + chain("n_nationkey", " + ", kLongChain) + ") FROM nation");
  ASSERT_TRUE(column_sum.ok()) << column_sum.error->format();
  EXPECT_EQ(column_sum.executed.batches.at(0).columns.at(0).ints.at(0), 300 * kLongChain);
  std::string terms;
  for (int i = 0; i < 10000; ++i) terms += (i ? " OR n_nationkey = " : "n_nationkey = ") + std::to_string(i);
  auto any = run("SELECT count(*) FROM nation WHERE " + terms);
  ASSERT_TRUE(any.ok()) << any.error->format();
  EXPECT_EQ(any.executed.batches.at(0).columns.at(0).ints.at(0), 25);
  std::string list;
  for (int i = 0; i < 100000; ++i) list += (i ? "," : "") + std::to_string(i * 2);
  auto in = run("SELECT count(*) FROM nation WHERE n_nationkey IN (" + list + ")");
  ASSERT_TRUE(in.ok()) << in.error->format();
  EXPECT_EQ(in.executed.batches.at(0).columns.at(0).ints.at(0), 13);
  // Too long: a typed error naming the limit.
  auto too_long = run("SELECT " + chain("1", "+", 100000));
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.error->code(), ErrorCode::PARSE_ERROR);
  EXPECT_NE(too_long.error->message().find("more than 10000 chained operators"), std::string::npos);
}

TEST(SessionTest, AJoinTooWideForTheJoinOrderIsATypedError) {
  // 65 inputs ended in std::terminate (std::invalid_argument from the query graph).
  std::string from = "nation n0";
  for (int i = 1; i < 65; ++i)
    from += " JOIN nation n" + std::to_string(i) + " ON n" + std::to_string(i) + ".n_nationkey = n0.n_nationkey";
  auto r = run("SELECT count(*) FROM " + from);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::NOT_SUPPORTED) << r.error->format();
  EXPECT_NE(r.error->message().find("at most 64"), std::string::npos) << r.error->message();
  Settings written_order;
  written_order.disabled_rules = {"cost_based_join_order"};
  auto ok = run("SELECT count(*) FROM " + from, written_order);
  ASSERT_TRUE(ok.ok()) << ok.error->format();
  EXPECT_EQ(ok.executed.batches.at(0).columns.at(0).ints.at(0), 25);
}

TEST(SessionTest, NegatedBigintMinimumIsABigint) {
  auto r = run("SELECT -9223372036854775808 + 1, -9223372036854775808");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(r.executed.types.at(0), DataType::bigint());
  EXPECT_EQ(r.executed.batches.at(0).columns.at(0).ints.at(0), INT64_MIN + 1);
  EXPECT_EQ(r.executed.batches.at(0).columns.at(1).ints.at(0), INT64_MIN);
  // Overflow stays an error.
  auto below = run("SELECT -9223372036854775808 - 1");
  ASSERT_FALSE(below.ok());
  EXPECT_EQ(below.error->code(), ErrorCode::DATA_ERROR);
  auto negated = run("SELECT -(-9223372036854775808)");
  ASSERT_FALSE(negated.ok());
  EXPECT_EQ(negated.error->code(), ErrorCode::DATA_ERROR);
  EXPECT_EQ(negated.error->pos().col, 8);
  // -(-2147483648) leaves INTEGER's range: a BIGINT, not a wrapped INTEGER.
  auto widened = run("SELECT -(-2147483648), -(-2147483647)");
  ASSERT_TRUE(widened.ok()) << widened.error->format();
  EXPECT_EQ(widened.executed.batches.at(0).columns.at(0).ints.at(0), 2147483648);
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
