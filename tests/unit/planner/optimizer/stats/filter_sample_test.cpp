// A scan's whole filter judged on the table's stored row sample (planner/optimizer/stats/filter_sample.hpp), through
// the planner on TPC-H SF 0.01: what the sample sees that conjuncts multiplied as independent do not, and when it
// steps aside.
#include "planner/optimizer/stats/filter_sample.hpp"

#include <gtest/gtest.h>

#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

/// The estimated rows of `table`'s scan in the plan of `sql`, with the filter sample on or off.
double scan_estimate(const std::string& sql, const std::string& table, bool filter_sample) {
  Settings s;
  s.stats_scope = Settings::StatsScope::Off;
  s.filter_sample = filter_sample;
  auto cq = testing::compile(sql, s);
  const PhysicalOperator* scan = testing::scan_of(*cq->physical, table);
  EXPECT_TRUE(scan) << sql;
  return scan ? scan->estimated_rows : -1;
}

double count(const std::string& sql) {
  auto r = testing::run(sql);
  EXPECT_TRUE(r.ok()) << sql;
  return static_cast<double>(r.executed.batches.at(0).columns.at(0).get(0).i);
}

TEST(FilterSampleTest, ConjunctsThatAllKeepTheSameRowsAreNotMultiplied) {
  // Every order passes all four; judged one by one (1/3 each, no statistics for an expression) they multiply to 1/81.
  const std::string sql =
      "SELECT count(*) FROM orders WHERE o_totalprice * 2 > 100 AND o_totalprice * 3 > 100 AND "
      "o_totalprice * 4 > 100 AND o_totalprice * 5 > 100";
  const double truth = count(sql);
  EXPECT_EQ(truth, 15000);
  EXPECT_LT(scan_estimate(sql, "orders", false), truth / 50);
  EXPECT_NEAR(scan_estimate(sql, "orders", true), truth, truth * 0.02);
}

TEST(FilterSampleTest, AComparisonOfTwoColumnsIsJudgedByTheRowsThatPass) {
  const std::string sql = "SELECT count(*) FROM lineitem WHERE l_commitdate < l_receiptdate AND l_shipmode = 'RAIL'";
  const double truth = count(sql);
  const double off = scan_estimate(sql, "lineitem", false);
  const double on = scan_estimate(sql, "lineitem", true);
  EXPECT_GT(std::max(off / truth, truth / off), 1.5) << off << " for " << truth;  // the default share for a.x < a.y
  EXPECT_LT(std::max(on / truth, truth / on), 1.25) << on << " for " << truth;
}

TEST(FilterSampleTest, AFilterOnOneColumnIsLeftToThatColumnsStatistics) {
  // Its histogram and most common values know these shares better than 1,024 sampled rows: the estimates do not move.
  for (const char* sql : {"SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING'",
                          "SELECT count(*) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND "
                          "l_shipdate < DATE '1995-01-01'",
                          "SELECT count(*) FROM part WHERE p_type LIKE '%BRASS' OR p_type IS NULL"}) {
    const std::string table = std::string(sql).find("customer") != std::string::npos ? "customer"
                              : std::string(sql).find("lineitem") != std::string::npos ? "lineitem"
                                                                                          : "part";
    EXPECT_EQ(scan_estimate(sql, table, true), scan_estimate(sql, table, false)) << sql;
  }
  // Two columns: the sample judges them together.
  const std::string two = "SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING' AND c_nationkey < 5";
  EXPECT_NE(scan_estimate(two, "customer", true), scan_estimate(two, "customer", false));
}

TEST(FilterSampleTest, TooFewSampledRowsLeaveTheEstimateToTheColumnStatistics) {
  // One order in 15,000: no row of the sample (1,024 rows) or too few to judge by.
  const std::string one = "SELECT count(*) FROM orders WHERE o_orderkey = 7 AND o_custkey > 0";
  EXPECT_EQ(scan_estimate(one, "orders", true), scan_estimate(one, "orders", false));
  EXPECT_NEAR(scan_estimate(one, "orders", true), 1, 0.5);
}

TEST(FilterSampleTest, AFilterThatFailsOnASampledRowLeavesTheEstimateToTheColumnStatistics) {
  // Division by zero on every row: planning must not fail (the run does), and the estimate is the model's.
  const std::string sql = "SELECT count(*) FROM orders WHERE 1 / (o_orderkey - o_orderkey) > 0";
  EXPECT_EQ(scan_estimate(sql, "orders", true), scan_estimate(sql, "orders", false));
  auto r = testing::run(sql);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::DATA_ERROR) << r.error->format();
}

TEST(FilterSampleTest, ATableSmallerThanTheSampleIsJudgedExactly) {
  // nation (25 rows) is sampled whole: its correlated filter is counted, not estimated.
  const std::string sql = "SELECT count(*) FROM nation WHERE n_regionkey = 1 AND n_nationkey IN (1, 2, 3, 17, 24)";
  EXPECT_EQ(count(sql), 5);  // the five nations of AMERICA
  // Fewer than 10 rows pass: the sample steps aside even for a small table.
  EXPECT_EQ(scan_estimate(sql, "nation", true), scan_estimate(sql, "nation", false));
  const std::string wide = "SELECT count(*) FROM nation WHERE n_regionkey < 3 AND n_nationkey < 20";
  EXPECT_EQ(scan_estimate(wide, "nation", true), count(wide));
}

}  // namespace
}  // namespace hindsight
