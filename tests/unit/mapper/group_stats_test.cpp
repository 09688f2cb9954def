#include "mapper/plan_mapper.hpp"

#include <gtest/gtest.h>

namespace hindsight::mapper {
namespace {

TEST(MapperStatsTest, NoStatsIsNullopt) {
  PlanMapper m;
  EntityId a = m.add(EntityKind::Logical, "a");
  EXPECT_EQ(m.group_stats(m.group_of(a)), std::nullopt);
}

TEST(MapperStatsTest, StatsAreVisibleFromEveryMemberThroughTheGroup) {
  PlanMapper m;
  EntityId logical = m.add(EntityKind::Logical, "Join");
  EntityId exec = m.add(EntityKind::Exec, "HashProbe");
  m.link(logical, exec, m.stage_id("exec"));
  EntityId s = m.attach_stats(exec, {1234, true, "attempt 1"});
  EXPECT_EQ(m.kind(s), EntityKind::Stats);
  EXPECT_TRUE(m.same_group(s, logical));
  EXPECT_EQ(m.stages_of(m.group_of(logical)), (std::vector<std::string>{"exec", "stats"}));
  auto best = m.group_stats(m.group_of(logical));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->rows, 1234);
  EXPECT_TRUE(best->complete);
  EXPECT_EQ(best->source, "attempt 1");
  EXPECT_EQ(m.stats_record(s)->rows, 1234);
  EXPECT_EQ(m.stats_record(logical), std::nullopt);
  EXPECT_THROW(m.attach_stats(exec, {-1, true, "bad"}), std::invalid_argument);
}

TEST(MapperStatsTest, CompleteBeatsIncompleteInEitherOrder) {
  for (bool complete_first : {true, false}) {
    PlanMapper m;
    EntityId op = m.add(EntityKind::Physical, "Scan");
    if (complete_first) m.attach_stats(op, {100, true, "exact"});
    m.attach_stats(op, {5000, false, "limit early exit"});
    if (!complete_first) m.attach_stats(op, {100, true, "exact"});
    m.attach_stats(op, {7000, false, "failed attempt"});
    auto best = m.group_stats(m.group_of(op));
    ASSERT_TRUE(best.has_value());
    EXPECT_TRUE(best->complete) << "complete_first=" << complete_first;
    EXPECT_EQ(best->rows, 100);
    EXPECT_EQ(best->source, "exact");
  }
}

TEST(MapperStatsTest, MaxOfLowerBounds) {
  PlanMapper m;
  EntityId op = m.add(EntityKind::Exec, "Filter");
  m.attach_stats(op, {300, false, "a"});
  m.attach_stats(op, {900, false, "b"});
  m.attach_stats(op, {500, false, "c"});
  auto best = m.group_stats(m.group_of(op));
  ASSERT_TRUE(best.has_value());
  EXPECT_FALSE(best->complete);
  EXPECT_EQ(best->rows, 900);
  EXPECT_EQ(best->source, "b");
}

TEST(MapperStatsTest, IncompleteNeverHidesCompleteAcrossUnion) {
  // A complete record on one side and a larger lower bound on the other: after the groups merge (through a shared
  // signature) the complete record is still the answer.
  PlanMapper m;
  EntityId cte1 = m.add(EntityKind::Logical, "cte body 1");
  EntityId cte2 = m.add(EntityKind::Logical, "cte body 2");
  m.attach_stats(cte1, {42, true, "run 1"});
  m.attach_stats(cte2, {1e6, false, "cut short"});
  EXPECT_FALSE(m.group_stats(m.group_of(cte2))->complete);
  EntityId sig = m.signature(~uint64_t{0}, ~uint64_t{0});
  m.link(cte2, sig, m.stage_id("signature"));
  m.link(cte1, sig, m.stage_id("signature"));
  auto best = m.group_stats(m.group_of(cte2));
  ASSERT_TRUE(best.has_value());
  EXPECT_TRUE(best->complete);
  EXPECT_EQ(best->rows, 42);
}

TEST(MapperStatsTest, LaterCompleteRecordWins) {
  PlanMapper m;
  EntityId op = m.add(EntityKind::Exec, "Agg");
  m.attach_stats(op, {10, true, "old"});
  m.attach_stats(op, {12, true, "new"});
  EXPECT_EQ(m.group_stats(m.group_of(op))->source, "new");
  EXPECT_TRUE(supersedes({1, true, ""}, {9, false, ""}));
  EXPECT_FALSE(supersedes({99, false, ""}, {1, true, ""}));
}

}  // namespace
}  // namespace hindsight::mapper
