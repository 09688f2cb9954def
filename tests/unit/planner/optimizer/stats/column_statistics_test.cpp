#include "planner/optimizer/stats/column_statistics.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "planner/common/date.hpp"
#include "planner/optimizer/stats/selectivity.hpp"
#include "stats_test_util.hpp"

namespace hindsight {
namespace {

using stats_test::column_stats;
using stats_test::double_column;
using stats_test::expect_same_values;
using stats_test::int_column;
using stats_test::make_table;
using stats_test::string_column;
using stats_test::uniform_ints;
using stats_test::with_nulls;
using stats_test::zipf_ints;

TEST(ColumnStatisticsTest, CountsNullsDistinctMinMax) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 1000; ++i) values.push_back(i % 100 - 20);
  ColumnStatistics cs = column_stats(with_nulls(int_column(DataType::integer(), values), 10));
  EXPECT_EQ(cs.rows, 1000u);
  EXPECT_EQ(cs.null_count, 100u);  // rows 0, 10, 20, ... i.e. the values -20, -10, ..., 70
  EXPECT_DOUBLE_EQ(cs.null_fraction(), 0.1);
  EXPECT_EQ(cs.distinct, 90.0);  // the 10 values only seen at multiples of 10 are gone
  EXPECT_TRUE(cs.distinct_exact);
  EXPECT_FALSE(cs.sampled);
  ASSERT_TRUE(cs.min && cs.max);
  expect_same_values(*cs.min, Value::integer(-19));
  expect_same_values(*cs.max, Value::integer(79));
  EXPECT_DOUBLE_EQ(cs.histogram.total(), 900.0);
}

TEST(ColumnStatisticsTest, KeepsTheColumnTypeForIntBackedValues) {
  int64_t d0 = 0;
  ASSERT_TRUE(parse_date("1995-01-01", d0));
  ColumnStatistics dates = column_stats(int_column(DataType::date(), {d0 + 3, d0, d0 + 400}));
  EXPECT_TRUE(dates.type == DataType::date());
  EXPECT_EQ(dates.min->to_sql(), "DATE '1995-01-01'");
  EXPECT_EQ(dates.max->i, d0 + 400);
  ColumnStatistics money = column_stats(int_column(DataType::decimal(15, 2), {150, 99, 12345}));
  EXPECT_TRUE(money.min->type == DataType::decimal(15, 2));
  EXPECT_EQ(money.min->i, 99);
  EXPECT_EQ(money.max->to_string(), "123.45");
}

TEST(ColumnStatisticsTest, MostCommonValuesAreExactOnSmallTables) {
  const auto values = zipf_ints(50'000, 1'000, 1.2, 11);
  std::map<int64_t, uint64_t> exact;
  for (int64_t v : values) ++exact[v];
  ColumnStatistics cs = column_stats(int_column(DataType::bigint(), values));
  ASSERT_EQ(cs.most_common.size(), ColumnStatistics::kMostCommonValues);
  EXPECT_EQ(cs.distinct, static_cast<double>(exact.size()));
  for (size_t i = 0; i < cs.most_common.size(); ++i) {
    EXPECT_EQ(cs.most_common[i].second, exact[cs.most_common[i].first.i]);
    if (i > 0) {
      EXPECT_GE(cs.most_common[i - 1].second, cs.most_common[i].second);
    }
  }
  // The heavy hitters of Zipf are the smallest ranks.
  std::set<int64_t> top;
  for (const auto& [v, count] : cs.most_common) top.insert(v.i);
  for (int64_t k = 1; k <= 5; ++k) EXPECT_TRUE(top.count(k)) << k;
}

TEST(ColumnStatisticsTest, UniqueValuesHaveNoMostCommonValues) {
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < 5000; ++i) keys.push_back(i * 3);
  ColumnStatistics cs = column_stats(int_column(DataType::bigint(), keys));
  EXPECT_TRUE(cs.most_common.empty());
  EXPECT_EQ(cs.distinct, 5000.0);
}

TEST(ColumnStatisticsTest, DoublesAndStrings) {
  ColumnStatistics d = column_stats(double_column({2.5, -1.0, 2.5, 1e9}));
  EXPECT_EQ(d.min->d, -1.0);
  EXPECT_EQ(d.max->d, 1e9);
  EXPECT_EQ(d.distinct, 3.0);
  ASSERT_EQ(d.most_common.size(), 1u);
  EXPECT_EQ(d.most_common[0].first.d, 2.5);
  EXPECT_EQ(d.most_common[0].second, 2u);

  ColumnStatistics s = column_stats(string_column({"b", "B", "a", "\xC3\xA4", "a"}));
  EXPECT_EQ(s.min->s, "B");         // bytewise: uppercase before lowercase
  EXPECT_EQ(s.max->s, "\xC3\xA4");  // and UTF-8 multibyte after ASCII
  EXPECT_EQ(s.distinct, 4.0);
}

TEST(ColumnStatisticsTest, AllNullColumn) {
  ColumnVector c(DataType::integer());
  for (int i = 0; i < 10; ++i) c.append_null();
  ColumnStatistics cs = column_stats(c);
  EXPECT_EQ(cs.rows, 10u);
  EXPECT_EQ(cs.null_count, 10u);
  EXPECT_EQ(cs.distinct, 0.0);
  EXPECT_FALSE(cs.min.has_value());
  EXPECT_TRUE(cs.histogram.empty());
  EXPECT_TRUE(cs.most_common.empty());
}

TEST(ColumnStatisticsTest, BooleansHaveMostCommonValuesButNoHistogram) {
  ColumnStatistics cs = column_stats(int_column(DataType::boolean(), {1, 0, 1, 1}));
  EXPECT_TRUE(cs.histogram.empty());
  ASSERT_EQ(cs.most_common.size(), 1u);  // false occurs once: not a common value
  EXPECT_EQ(cs.most_common[0].first.i, 1);
  EXPECT_EQ(cs.most_common[0].second, 3u);
  EXPECT_EQ(cs.distinct, 2.0);
}

TEST(ColumnStatisticsTest, LargeTablesAreSampledWithScaledCounts) {
  constexpr size_t kRows = 1'500'000;
  auto values = zipf_ints(kRows, 300'000, 1.1, 5);
  std::map<int64_t, uint64_t> exact;
  for (int64_t v : values) ++exact[v];
  Table t = make_table("big", {{"k", stats_test::with_nulls(int_column(DataType::bigint(), values), 50)}}, 8);
  // Recount without the NULLed rows.
  exact.clear();
  for (size_t r = 0; r < kRows; ++r) {
    if (r % 50 != 0) ++exact[values[r]];
  }
  ColumnStatistics cs = analyze_table(t).columns.at(0);
  EXPECT_TRUE(cs.sampled);
  EXPECT_FALSE(cs.distinct_exact);
  EXPECT_EQ(cs.null_count, kRows / 50);
  EXPECT_NEAR(cs.distinct, static_cast<double>(exact.size()), 0.05 * static_cast<double>(exact.size()));
  EXPECT_EQ(cs.min->i, exact.begin()->first);
  EXPECT_EQ(cs.max->i, exact.rbegin()->first);
  EXPECT_NEAR(cs.histogram.total(), static_cast<double>(kRows - kRows / 50), 1.0);
  expect_same_values(cs.histogram.buckets.front().lower, *cs.min);
  expect_same_values(cs.histogram.buckets.back().upper, *cs.max);
  const double rows = static_cast<double>(kRows);
  stats_test::expect_within(eq_selectivity(cs, Value::bigint(1)) * rows, static_cast<double>(exact[1]), 1.5, "eq 1");
  double above = 0;
  for (const auto& [v, count] : exact) above += v > 1000 ? static_cast<double>(count) : 0;
  stats_test::expect_within(range_selectivity(cs, Value::bigint(1000), false, std::nullopt, false) * rows, above, 1.5,
                            "range > 1000");
  ASSERT_GE(cs.most_common.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    const double truth = static_cast<double>(exact[cs.most_common[i].first.i]);
    EXPECT_EQ(cs.most_common[i].first.i, static_cast<int64_t>(i + 1));
    EXPECT_NEAR(static_cast<double>(cs.most_common[i].second), truth, 0.1 * truth);
  }
}

}  // namespace
}  // namespace hindsight
