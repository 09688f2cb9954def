// join_way_options: an inner equi-join's output hashed on one side's key columns is hashed on the other side's too
// (mapping kEqualKeys), at more than one worker only, and never for outer or semi joins.
#include "planner/physical/join_ways.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace hindsight {
namespace {

bool has_equal_keys(const Distribution& d, const std::vector<ColumnId>& cols) {
  return std::any_of(d.mapped.begin(), d.mapped.end(),
                     [&](const MappedKey& m) { return m.mapping == kEqualKeys && m.columns == cols; });
}

struct Sides {
  Distribution probe, build;
  std::vector<ColumnId> pkeys{1}, bkeys{2};
  JoinSides sides(JoinType type) const {
    JoinSides s;
    s.type = type;
    s.probe = &probe;
    s.build = &build;
    s.probe_keys = &pkeys;
    s.build_keys = &bkeys;
    s.probe_rows = 1000;
    s.build_rows = 900;
    s.out_rows = 1000;
    s.probe_width = s.build_width = 32;
    return s;
  }
};

CostModelOptions workers(int w) {
  CostModelOptions o;
  o.workers = w;
  return o;
}

TEST(JoinWaysTest, ColocatedInnerJoinIsHashedOnBothKeys) {
  Sides s{Distribution::hashed({1}, 8), Distribution::hashed({2}, 8)};
  const auto ways = join_way_options(s.sides(JoinType::Inner), workers(2));
  ASSERT_EQ(ways.size(), 1u);
  EXPECT_EQ(ways[0].way, JoinWay::Colocated);
  EXPECT_EQ(ways[0].out.columns, std::vector<ColumnId>{1});
  EXPECT_TRUE(has_equal_keys(ways[0].out, {2}));
}

TEST(JoinWaysTest, EveryHashedWayOfAnInnerJoinCarriesTheOtherKeys) {
  // Probe hashed on its key, build spread: both, to-probe (hashed on the probe key) and broadcast (the probe's).
  Sides s{Distribution::hashed({1}, 8), Distribution::any()};
  int hashed = 0;
  for (const JoinWayOption& w : join_way_options(s.sides(JoinType::Inner), workers(2))) {
    if (w.out.kind != StreamDistribution::Hashed) continue;
    ++hashed;
    EXPECT_TRUE(has_equal_keys(w.out, {2})) << static_cast<int>(w.way);
  }
  EXPECT_GE(hashed, 2);
}

TEST(JoinWaysTest, OuterAndSemiJoinsAndOneWorkerKeepTheirDistribution) {
  Sides s{Distribution::hashed({1}, 8), Distribution::hashed({2}, 8)};
  // An unmatched row of a LEFT join has a NULL build key; a semi join outputs no build column.
  for (JoinType t : {JoinType::ProbeOuter, JoinType::Semi, JoinType::Anti})
    for (const JoinWayOption& w : join_way_options(s.sides(t), workers(2)))
      EXPECT_TRUE(w.out.mapped.empty()) << static_cast<int>(t);
  // At one worker the plans stay what they were.
  for (const JoinWayOption& w : join_way_options(s.sides(JoinType::Inner), workers(1))) EXPECT_TRUE(w.out.mapped.empty());
}

TEST(JoinWaysTest, AWayOverTheBudgetCostsItsSpillWhenTheOperatorsSpill) {
  // Probe hashed on its key, build spread: broadcasting the build holds 900 rows x 32 bytes x 4 copies = 115 KB.
  Sides s{Distribution::hashed({1}, 8), Distribution::any()};
  JoinSides sides = s.sides(JoinType::Inner);
  sides.build_fits_broadcast = true;
  auto broadcast_cost = [&](int64_t limit, bool spill) {
    CostModelOptions o = workers(4);
    o.memory_limit = limit;
    o.spill = spill;
    for (const JoinWayOption& w : join_way_options(sides, o))
      if (w.way == JoinWay::Broadcast) return w.cost;
    ADD_FAILURE() << "no broadcast way";
    return 0.0;
  };
  const double roomy = broadcast_cost(1 << 30, false);
  EXPECT_EQ(broadcast_cost(1 << 30, true), roomy);
  // 100 KB: 15,200 bytes over. Failing: the penalty. Spilling: what writing and reading back the excess costs.
  EXPECT_GE(broadcast_cost(100'000, false), CostModelOptions{}.overflow_penalty);
  EXPECT_DOUBLE_EQ(broadcast_cost(100'000, true), roomy + spill_cost(900.0 * 32 * 4 - 100'000));
}

}  // namespace
}  // namespace hindsight
