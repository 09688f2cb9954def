// aggregate_ways: the shape plan_aggregate gives an aggregate over an input distribution, and its price.
#include "planner/physical/aggregate_ways.hpp"

#include <gtest/gtest.h>

namespace hindsight {
namespace {

TEST(AggregateWaysTest, LocalWhenHashedOnASubsetOfTheGroups) {
  const std::vector<ColumnId> groups{5, 6};
  EXPECT_TRUE(aggregate_is_local(Distribution::hashed({5}, 8), groups));
  EXPECT_TRUE(aggregate_is_local(Distribution::hashed({6, 5}, 8), groups));
  EXPECT_FALSE(aggregate_is_local(Distribution::hashed({5, 7}, 8), groups));
  EXPECT_FALSE(aggregate_is_local(Distribution::hashed({7}, 8), groups));
  EXPECT_FALSE(aggregate_is_local(Distribution::any(), groups));
  EXPECT_TRUE(aggregate_is_local(Distribution::single(), groups));
  EXPECT_TRUE(aggregate_is_local(Distribution::replicated(), {}));
  // No groups: a distributed input is never local.
  EXPECT_FALSE(aggregate_is_local(Distribution::hashed({5}, 8), {}));
  // By a mapping: a co-location mapping, or columns equal to the hash key (an inner join's other side).
  Distribution d = Distribution::hashed({7}, 8);
  d.mapped.push_back({kEqualKeys, {6}});
  EXPECT_TRUE(aggregate_is_local(d, groups));
  d.mapped = {{"tenant", {8}}};
  EXPECT_FALSE(aggregate_is_local(d, groups));
}

TEST(AggregateWaysTest, ShapeAndPrice) {
  const std::vector<ColumnId> groups{5};
  const Distribution spread = Distribution::hashed({7}, 8);
  EXPECT_EQ(aggregate_shape(spread, groups, false), AggregateShape::PartialFinal);
  EXPECT_EQ(aggregate_shape(spread, groups, true), AggregateShape::Moved);
  EXPECT_EQ(aggregate_shape(Distribution::hashed({5}, 8), groups, true), AggregateShape::Local);

  CostModelOptions o;
  o.workers = 4;
  AggregateCostInputs in;
  in.input_rows = 10000;
  in.out_rows = 100;
  in.input_width = 48;
  in.partial_width = 32;
  in.out_width = 32;
  const double local = aggregate_cost(AggregateShape::Local, in, o);
  EXPECT_DOUBLE_EQ(local, hash_aggregate_cost(10000, 100, 32, o).total);
  // Partial (10k rows in, one row per group and worker out), the 400 partial rows moved, final over them.
  EXPECT_DOUBLE_EQ(partial_aggregate_rows(10000, 100, 4), 400);
  EXPECT_DOUBLE_EQ(aggregate_cost(AggregateShape::PartialFinal, in, o),
                   hash_aggregate_cost(10000, 400, 32, o).total +
                       exchange_cost(ExchangeKind::Repartition, 400, 32, o).total +
                       hash_aggregate_cost(400, 100, 32, o).total);
  EXPECT_DOUBLE_EQ(aggregate_cost(AggregateShape::Moved, in, o),
                   exchange_cost(ExchangeKind::Repartition, 10000, 48, o).total + local);
  EXPECT_GT(aggregate_cost(AggregateShape::PartialFinal, in, o), local);
}

}  // namespace
}  // namespace hindsight
