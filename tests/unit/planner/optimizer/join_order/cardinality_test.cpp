#include "planner/optimizer/join_order/cardinality.hpp"

#include <gtest/gtest.h>

#include "planner/optimizer/join_order/cost_model.hpp"

namespace hindsight::joinorder {
namespace {

QueryGraph triangle() {
  QueryGraph graph;
  graph.add_relation(100);
  graph.add_relation(200);
  graph.add_relation(50);
  graph.add_edge(rel_bit(0), rel_bit(1), 0.01);
  graph.add_edge(rel_bit(1), rel_bit(2), 0.1);
  graph.add_edge(rel_bit(0) | rel_bit(1), rel_bit(2), 0.5);  // complex: needs all three
  return graph;
}

TEST(JoinOrderCardinalityTest, IndependenceProductOfEdgesInsideTheSet) {
  QueryGraph graph = triangle();
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, rel_bit(1)), 200);
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b011), 100 * 200 * 0.01);
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b101), 100 * 50);  // no edge inside: cross product
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b111), 100 * 200 * 50 * 0.01 * 0.1 * 0.5);
}

TEST(JoinOrderCardinalityTest, OverrideWinsAndIsMemoised) {
  QueryGraph graph = triangle();
  int calls = 0;
  CardinalityEstimator estimator(graph, [&](RelSet set) -> std::optional<double> {
    ++calls;
    if (set == 0b011) return 7.0;
    return std::nullopt;
  });
  EXPECT_DOUBLE_EQ(estimator.estimate(0b011), 7);
  EXPECT_DOUBLE_EQ(estimator(0b011), 7);
  EXPECT_EQ(estimator.source(0b011), CardinalitySource::kOverride);
  EXPECT_DOUBLE_EQ(estimator.estimate(0b110), 200 * 50 * 0.1);
  EXPECT_EQ(estimator.source(0b110), CardinalitySource::kModel);
  // Not propagated to supersets.
  EXPECT_DOUBLE_EQ(estimator.estimate(0b111), estimate_cardinality(graph, 0b111));
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(estimator.memoised(), 3u);
  CardinalityFn fn = estimator.as_function();
  EXPECT_DOUBLE_EQ(fn(0b011), 7);
  EXPECT_EQ(calls, 3);
}

TEST(JoinOrderCostModelTest, HashJoinFormulaBuildsOnTheSmallerInput) {
  HashJoinCostModel model;
  EXPECT_DOUBLE_EQ(model.join_cost(1, 100, 2, 10, 50), 50 + 1.5 * 10 + 100);
  EXPECT_DOUBLE_EQ(model.join_cost(2, 10, 1, 100, 50), 50 + 1.5 * 10 + 100);
  OrientedJoin join = cheaper_orientation(model, 1, 10, 3, 2, 100, 4, 50);
  EXPECT_DOUBLE_EQ(join.cost, 3 + 4 + 50 + 15 + 100);
  EXPECT_TRUE(join.swapped);  // tie: the smaller input (10 rows) goes right
  EXPECT_FALSE(cheaper_orientation(model, 1, 100, 0, 2, 10, 0, 50).swapped);
}

}  // namespace
}  // namespace hindsight::joinorder
