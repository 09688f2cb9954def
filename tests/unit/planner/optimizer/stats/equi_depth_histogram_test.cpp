#include "planner/optimizer/stats/equi_depth_histogram.hpp"

#include <gtest/gtest.h>

#include "stats_test_util.hpp"

namespace hindsight {
namespace {

using stats_test::column_stats;
using stats_test::expect_same_values;
using stats_test::int_column;
using stats_test::string_column;
using stats_test::uniform_ints;

// Cuts cover every run exactly once, in order.
void expect_partition(const std::vector<HistogramCut>& cuts, size_t runs) {
  ASSERT_FALSE(cuts.empty());
  EXPECT_EQ(cuts.front().first_run, 0u);
  EXPECT_EQ(cuts.back().last_run, runs - 1);
  for (size_t i = 0; i < cuts.size(); ++i) {
    EXPECT_LE(cuts[i].first_run, cuts[i].last_run);
    if (i > 0) {
      EXPECT_EQ(cuts[i].first_run, cuts[i - 1].last_run + 1);
    }
  }
}

TEST(EquiDepthHistogramTest, CutsUniformRunsIntoEqualBuckets) {
  std::vector<uint64_t> runs(6400, 1);
  auto cuts = equi_depth_cuts(runs, 64);
  ASSERT_EQ(cuts.size(), 64u);
  expect_partition(cuts, runs.size());
  for (const auto& c : cuts) EXPECT_EQ(c.last_run - c.first_run + 1, 100u);
}

TEST(EquiDepthHistogramTest, FewRunsGiveOneBucketEach) {
  std::vector<uint64_t> runs = {5, 1, 7};
  auto cuts = equi_depth_cuts(runs, 64);
  ASSERT_EQ(cuts.size(), 3u);
  expect_partition(cuts, runs.size());
  EXPECT_TRUE(equi_depth_cuts({}, 64).empty());
}

TEST(EquiDepthHistogramTest, HeavyRunIsNeverSplitAndTheRestStaysBalanced) {
  std::vector<uint64_t> runs(1000, 10);
  runs[500] = 5000;  // a third of all rows
  auto cuts = equi_depth_cuts(runs, 16);
  EXPECT_LE(cuts.size(), 16u);
  expect_partition(cuts, runs.size());
  size_t heavy_bucket_runs = 0;
  for (const auto& c : cuts) {
    uint64_t count = 0;
    for (size_t r = c.first_run; r <= c.last_run; ++r) count += runs[r];
    if (c.first_run <= 500 && 500 <= c.last_run) {
      heavy_bucket_runs = c.last_run - c.first_run + 1;
    } else {
      EXPECT_LE(count, 2000u);  // the other buckets share the remaining 10,000 rows
    }
  }
  EXPECT_GE(heavy_bucket_runs, 1u);
  EXPECT_LT(heavy_bucket_runs, 200u);
}

TEST(EquiDepthHistogramTest, ColumnHistogramHoldsAboutEqualCounts) {
  const auto values = uniform_ints(100'000, 1'000'000, 7);
  ColumnStatistics cs = column_stats(int_column(DataType::bigint(), values));
  const auto& h = cs.histogram;
  ASSERT_EQ(h.buckets.size(), EquiDepthHistogram::kMaxBuckets);
  EXPECT_DOUBLE_EQ(h.total(), 100'000.0);
  const double depth = 100'000.0 / EquiDepthHistogram::kMaxBuckets;
  for (size_t i = 0; i < h.buckets.size(); ++i) {
    EXPECT_NEAR(h.buckets[i].count, depth, 0.05 * depth) << i;
    EXPECT_LE(h.buckets[i].lower.i, h.buckets[i].upper.i);
    if (i > 0) {
      EXPECT_LT(h.buckets[i - 1].upper.i, h.buckets[i].lower.i);
    }
  }
  expect_same_values(h.buckets.front().lower, *cs.min);
  expect_same_values(h.buckets.back().upper, *cs.max);
}

TEST(EquiDepthHistogramTest, StringHistogramUsesByteOrder) {
  std::vector<std::string> values;
  for (int i = 0; i < 1000; ++i) values.push_back((i % 2 ? "b" : "B") + std::to_string(i));
  values.push_back("\xC3\xA4");  // UTF-8 a-umlaut sorts after ASCII bytewise
  ColumnStatistics cs = column_stats(string_column(values));
  ASSERT_FALSE(cs.histogram.empty());
  EXPECT_EQ(cs.histogram.buckets.front().lower.s, "B0");
  EXPECT_EQ(cs.histogram.buckets.back().upper.s, "\xC3\xA4");
  for (size_t i = 1; i < cs.histogram.buckets.size(); ++i) {
    EXPECT_LT(cs.histogram.buckets[i - 1].upper.s, cs.histogram.buckets[i].lower.s);
  }
  EXPECT_DOUBLE_EQ(cs.histogram.total(), 1001.0);
}

}  // namespace
}  // namespace hindsight
