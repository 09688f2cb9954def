#include "planner/optimizer/stats/statistics_cache.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "stats_test_util.hpp"

namespace hindsight {
namespace {

using stats_test::int_column;
using stats_test::make_table;
using stats_test::uniform_ints;

Table small_table(const std::string& name, uint64_t version) {
  return make_table(name, {{"a", int_column(DataType::integer(), uniform_ints(5'000, 100, 1))}}, 2, version);
}

TEST(StatisticsCacheTest, ComputesOnceAndRecomputesWhenTheDataChanges) {
  StatisticsCache cache;
  Table t = small_table("T", 1);
  EXPECT_EQ(cache.find("t"), nullptr);
  auto first = cache.get(t);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->columns.at(0).distinct, 100.0);
  EXPECT_EQ(cache.get(t), first);
  EXPECT_EQ(cache.find("t"), first);  // names are case-insensitive
  EXPECT_EQ(cache.analyses(), 1u);

  t.data_version = 2;
  auto second = cache.get(t);
  EXPECT_NE(second, first);
  EXPECT_EQ(second->data_version, 2u);
  EXPECT_EQ(first->data_version, 1u);  // handed-out statistics stay valid and unchanged
  EXPECT_EQ(cache.analyses(), 2u);
}

TEST(StatisticsCacheTest, InvalidateForcesRecomputation) {
  StatisticsCache cache;
  Table a = small_table("a", 1);
  Table b = small_table("b", 1);
  auto sa = cache.get(a);
  auto sb = cache.get(b);
  cache.invalidate("A");
  EXPECT_EQ(cache.find("a"), nullptr);
  EXPECT_EQ(cache.find("b"), sb);
  EXPECT_NE(cache.get(a), sa);
  EXPECT_EQ(cache.analyses(), 3u);
  cache.clear();
  EXPECT_EQ(cache.find("b"), nullptr);
}

TEST(StatisticsCacheTest, ConcurrentCallersShareOneAnalysis) {
  StatisticsCache cache;
  Table t = make_table("shared", {{"a", int_column(DataType::bigint(), uniform_ints(200'000, 1'000'000, 4))}}, 4, 9);
  Table other = small_table("other", 1);
  std::vector<std::shared_ptr<const TableStatistics>> got(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = i % 2 ? cache.get(t) : cache.get(other); });
  }
  for (auto& th : threads) th.join();
  for (size_t i = 2; i < got.size(); ++i) EXPECT_EQ(got[i], got[i % 2]);
  EXPECT_EQ(cache.analyses(), 2u);
}

}  // namespace
}  // namespace hindsight
