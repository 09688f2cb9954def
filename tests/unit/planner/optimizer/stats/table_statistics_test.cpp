#include "planner/optimizer/stats/table_statistics.hpp"

#include <gtest/gtest.h>

#include <set>

#include "planner/common/date.hpp"
#include "planner/optimizer/stats/selectivity.hpp"
#include "planner/storage/database.hpp"
#include "stats_test_util.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using stats_test::expect_same;
using stats_test::expect_within;
using stats_test::int_column;
using stats_test::make_table;
using stats_test::string_column;
using stats_test::uniform_ints;
using stats_test::zipf_ints;

Table sample_table(uint64_t version = 1) {
  std::vector<std::string> names;
  for (int64_t x : uniform_ints(20'000, 300, 2)) names.push_back("name" + std::to_string(x));
  return make_table("Orders",
                    {{"o_key", int_column(DataType::bigint(), uniform_ints(20'000, 1'000'000, 1))},
                     {"o_name", string_column(names)},
                     {"o_cust", int_column(DataType::integer(), zipf_ints(20'000, 1'000, 1.0, 3))}},
                    5, version);
}

TEST(TableStatisticsTest, AnalyzesEveryColumnInOrder) {
  Table t = sample_table(77);
  TableStatistics stats = analyze_table(t);
  EXPECT_EQ(stats.table, "Orders");
  EXPECT_EQ(stats.row_count, 20'000u);
  EXPECT_EQ(stats.data_version, 77u);
  ASSERT_EQ(stats.columns.size(), 3u);
  EXPECT_EQ(stats.columns[1].name, "o_name");
  EXPECT_TRUE(stats.columns[1].type == DataType::varchar());
  EXPECT_EQ(stats.columns[1].distinct, 300.0);
  EXPECT_EQ(stats.column("O_CUST"), &stats.columns[2]);
  EXPECT_EQ(stats.column("missing"), nullptr);
  for (const auto& c : stats.columns) EXPECT_EQ(c.rows, 20'000u);
}

TEST(TableStatisticsTest, TheFilterSampleKeepsWholeRowsUnlessTheirTextIsLong) {
  std::vector<std::string> words, documents;
  for (int r = 0; r < 2000; ++r) {
    words.push_back("w" + std::to_string(r % 7));
    documents.push_back(std::string(5000, static_cast<char>('a' + r % 26)));
  }
  TableStatistics short_text = analyze_table(make_table("words", {{"w", string_column(words)}}, 2));
  EXPECT_NEAR(static_cast<double>(short_text.filter_sample_rows()), 1024, 150);  // of 2000 rows
  ASSERT_EQ(short_text.filter_sample.size(), 1u);
  EXPECT_EQ(short_text.filter_sample[0].size(), short_text.filter_sample_rows());
  // About 1,024 rows of 5,000 bytes each: beyond kFilterSampleBytes, so none are kept.
  TableStatistics long_text = analyze_table(make_table("documents", {{"body", string_column(documents)}}, 2));
  EXPECT_EQ(long_text.filter_sample_rows(), 0u);
  EXPECT_TRUE(long_text.filter_sample.empty());
}

TEST(TableStatisticsTest, SameTableGivesIdenticalStatistics) {
  Table t = sample_table();
  expect_same(analyze_table(t), analyze_table(t));
  // Large enough to be sampled and analyzed on several threads.
  Table big = make_table("big",
                         {{"a", int_column(DataType::bigint(), zipf_ints(1'200'000, 100'000, 0.8, 9))},
                          {"b", int_column(DataType::integer(), uniform_ints(1'200'000, 5'000, 10))}},
                         3);
  TableStatistics first = analyze_table(big);
  EXPECT_TRUE(first.columns[0].sampled);
  expect_same(first, analyze_table(big));
}

TEST(TableStatisticsTest, StaleWhenTheDataVersionChanges) {
  Table t = sample_table(1);
  TableStatistics stats = analyze_table(t);
  EXPECT_FALSE(is_stale(stats, t));
  t.data_version = 2;
  EXPECT_TRUE(is_stale(stats, t));
  t.data_version = 1;
  t.row_count += 1;
  EXPECT_TRUE(is_stale(stats, t));
}

TEST(TableStatisticsTest, EmptyTable) {
  Table t = make_table("empty", {{"a", ColumnVector(DataType::integer())}}, 2);
  TableStatistics stats = analyze_table(t);
  ASSERT_EQ(stats.columns.size(), 1u);
  EXPECT_EQ(stats.columns[0].rows, 0u);
  EXPECT_EQ(stats.columns[0].distinct, 0.0);
  EXPECT_FALSE(stats.columns[0].min.has_value());
}

TEST(TableStatisticsTest, TpchLineitem) {
  TablePtr lineitem = testing::tpch_db().table("lineitem");
  TableStatistics stats = analyze_table(*lineitem);
  EXPECT_EQ(stats.row_count, lineitem->row_count);
  ASSERT_EQ(stats.columns.size(), lineitem->def.columns.size());

  const ColumnStatistics* flag = stats.column("l_returnflag");
  ASSERT_NE(flag, nullptr);
  EXPECT_EQ(flag->distinct, 3.0);
  EXPECT_EQ(flag->null_count, 0u);

  const ColumnStatistics* qty = stats.column("l_quantity");
  ASSERT_NE(qty, nullptr);
  EXPECT_EQ(qty->min->to_string(), "1.00");
  EXPECT_EQ(qty->max->to_string(), "50.00");
  EXPECT_EQ(qty->distinct, 50.0);

  const ColumnStatistics* ship = stats.column("l_shipdate");
  ASSERT_NE(ship, nullptr);
  int64_t cut = 0;
  ASSERT_TRUE(parse_date("1995-01-01", cut));
  const int c = lineitem->def.column_index("l_shipdate");
  double exact = 0;
  for (const auto& bucket : lineitem->buckets) {
    for (int64_t d : bucket[static_cast<size_t>(c)].ints) exact += d < cut ? 1 : 0;
  }
  const double rows = static_cast<double>(lineitem->row_count);
  expect_within(range_selectivity(*ship, std::nullopt, false, Value::date(cut), false) * rows, exact, 1.5,
                "l_shipdate < DATE '1995-01-01'");

  // l_orderkey: about 4 lines per order; the join with orders is estimated by containment.
  TablePtr orders = testing::tpch_db().table("orders");
  TableStatistics order_stats = analyze_table(*orders);
  const ColumnStatistics* o_key = order_stats.column("o_orderkey");
  const ColumnStatistics* l_key = stats.column("l_orderkey");
  EXPECT_EQ(o_key->distinct, static_cast<double>(orders->row_count));
  EXPECT_EQ(l_key->distinct, static_cast<double>(orders->row_count));
  expect_within(join_selectivity(*o_key, *l_key) * rows * static_cast<double>(orders->row_count), rows, 1.01,
                "orders join lineitem");
  expect_within(group_count({flag, stats.column("l_linestatus")}, rows), 4.0, 1.5, "groups of Q1");
  expect_within(eq_selectivity(*stats.column("l_shipmode"), Value::varchar("MAIL")) * rows, rows / 7, 1.5,
                "l_shipmode = 'MAIL'");
}

}  // namespace
}  // namespace hindsight
