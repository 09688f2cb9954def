#include "reexec/plan_diff.hpp"

#include <gtest/gtest.h>

#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

constexpr const char* kMapJoin =
    "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_partkey = b.l_partkey "
    "WHERE b.l_quantity + b.l_tax > 2 AND b.l_extendedprice / b.l_quantity > 900";

TEST(PlanDiffTest, NamesTheJoinWhoseDistributionChanged) {
  Settings s;
  s.workers = 4;
  s.stats_scope = Settings::StatsScope::Off;
  s.filter_sample = false;  // b's filter is then estimated far under what it keeps: the plan broadcasts b
  auto broadcast = testing::compile(kMapJoin, s);
  // A budget the partitioned join is estimated to fit and the broadcast copies exceed (beyond 1/8 of it, and its
  // estimate over half of it): the planner partitions the join. (Under a budget nothing fits, 64 KB, the way with
  // the lowest estimated peak is taken: the broadcast.)
  s.memory_limit = 2 << 20;
  auto partitioned = testing::compile(kMapJoin, s);
  EXPECT_EQ(reexec::describe_plan_change(*broadcast, nullptr, *partitioned),
            "join lineitem⋈lineitem: broadcast -> partitioned");
  EXPECT_EQ(reexec::describe_plan_change(*broadcast, nullptr, *broadcast), "");
}

TEST(PlanDiffTest, JoinsOfASelfJoinAreMatchedWithTheirMultiplicity) {
  // lineitem⋈(lineitem⋈orders) and lineitem⋈orders read the same set of tables: only the number
  // of lineitem scans tells the two joins apart.
  const char* sql =
      "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_partkey = b.l_partkey JOIN orders o ON "
      "o.o_orderkey = b.l_orderkey WHERE b.l_quantity + b.l_tax > 2 AND b.l_extendedprice / b.l_quantity > 900";
  Settings s;
  s.workers = 4;
  s.stats_scope = Settings::StatsScope::Off;
  s.filter_sample = false;  // as above
  auto broadcast = testing::compile(sql, s);
  s.memory_limit = 2 << 20;  // as above: the partitioned join fits it, the broadcast does not
  auto partitioned = testing::compile(sql, s);
  const std::string diff = reexec::describe_plan_change(*broadcast, nullptr, *partitioned);
  EXPECT_NE(diff.find("join lineitem⋈(lineitem⋈orders): broadcast -> partitioned"), std::string::npos) << diff;
  EXPECT_EQ(diff.find("colocated -> partitioned"), std::string::npos) << diff;
}

TEST(PlanDiffTest, AnotherJoinOrderShowsAsNewAndDroppedJoins) {
  Settings s;
  s.workers = 2;
  s.stats_scope = Settings::StatsScope::Off;
  auto a = testing::compile("SELECT count(*) FROM orders, customer WHERE o_custkey = c_custkey", s);
  auto b = testing::compile("SELECT count(*) FROM orders, lineitem WHERE o_orderkey = l_orderkey", s);
  const std::string diff = reexec::describe_plan_change(*a, nullptr, *b);
  EXPECT_NE(diff.find("new join"), std::string::npos) << diff;
  EXPECT_NE(diff.find("dropped"), std::string::npos) << diff;
}

TEST(PlanDiffTest, BuildEstimateNoteOnlyWhenTheObservationSaysSomething) {
  EXPECT_EQ(reexec::build_estimate_note(12000, 4100000, false), "; build estimate 12k -> observed >= 4.1M rows");
  EXPECT_EQ(reexec::build_estimate_note(12000, 4100000, true), "; build estimate 12k -> observed 4.1M rows");
  EXPECT_EQ(reexec::build_estimate_note(5e6, 300, true), "; build estimate 5.0M -> observed 300 rows");
  // An equal count, or a lower bound below the estimate (a build never reached: >= 0), explains nothing.
  EXPECT_EQ(reexec::build_estimate_note(304, 304, true), "");
  EXPECT_EQ(reexec::build_estimate_note(304, 0, false), "");
  EXPECT_EQ(reexec::build_estimate_note(12000, 9000, false), "");
  EXPECT_EQ(reexec::build_estimate_note(12000, 12100, false), "");
}

TEST(PlanDiffTest, ShortCounts) {
  EXPECT_EQ(reexec::short_count(12), "12");
  EXPECT_EQ(reexec::short_count(1601), "1.6k");
  EXPECT_EQ(reexec::short_count(12000), "12k");
  EXPECT_EQ(reexec::short_count(4.1e6), "4.1M");
}

}  // namespace
}  // namespace hindsight
