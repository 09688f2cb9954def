#include "planner/optimizer/join_order/best_join_order.hpp"

#include <gtest/gtest.h>

#include "tests/unit/planner/optimizer/join_order/graph_builders.hpp"

namespace hindsight::joinorder {
namespace {

using testing::make_shape;
using testing::Shape;

TEST(JoinOrderTest, UsesDpUpToTheLimitAndGreedyBeyond) {
  HashJoinCostModel model;
  EXPECT_EQ(best_join_order(make_shape(Shape::kChain, 14), model).stats.algorithm, JoinOrderAlgorithm::kDpccp);
  EXPECT_EQ(best_join_order(make_shape(Shape::kChain, 15), model).stats.algorithm, JoinOrderAlgorithm::kGreedy);
  EXPECT_EQ(best_join_order(make_shape(Shape::kChain, 6), model, {}, 5).stats.algorithm, JoinOrderAlgorithm::kGreedy);
  EXPECT_EQ(best_join_order(make_shape(Shape::kChain, 20), model, {}, 20).stats.algorithm,
            JoinOrderAlgorithm::kDpccp);
}

TEST(JoinOrderTest, CallerCardinalityFunctionIsUsedForEverySet) {
  QueryGraph graph = make_shape(Shape::kStar, 5);
  int calls = 0;
  CardinalityFn card = [&](RelSet set) {
    ++calls;
    return 10.0 * rel_count(set);
  };
  JoinTree tree = best_join_order(graph, HashJoinCostModel{}, card);
  EXPECT_EQ(find_defect(tree, graph), "");
  EXPECT_DOUBLE_EQ(tree.rows(), 50);
  // Once per connected subgraph of a 5-star: 5 singletons + 2^4 - 1 sets containing the hub.
  EXPECT_EQ(calls, 5 + 15);
}

}  // namespace
}  // namespace hindsight::joinorder
