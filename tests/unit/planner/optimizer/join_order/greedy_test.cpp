#include "planner/optimizer/join_order/greedy.hpp"

#include <gtest/gtest.h>

#include <random>

#include "planner/optimizer/join_order/dpccp.hpp"
#include "tests/unit/planner/optimizer/join_order/graph_builders.hpp"

namespace hindsight::joinorder {
namespace {

using testing::make_random_connected;
using testing::make_shape;
using testing::Shape;

TEST(GreedyTest, TwentyRelationsGiveAValidTreeWithoutCrossProducts) {
  std::mt19937 rng(1998);
  for (int round = 0; round < 10; ++round) {
    QueryGraph graph = make_random_connected(rng, 20, 0.1);
    JoinTree tree = enumerate_greedy(graph, HashJoinCostModel{});
    EXPECT_EQ(tree.stats.algorithm, JoinOrderAlgorithm::kGreedy);
    EXPECT_EQ(find_defect(tree, graph), "") << "round " << round;
    EXPECT_EQ(tree.root_node().set, graph.all());
    EXPECT_EQ(tree.nodes.size(), 39u);
    EXPECT_EQ(count_cross_products(tree, graph), 0) << to_string(tree);
    EXPECT_GT(tree.stats.ccp_pairs, 0u);
  }
  for (Shape shape : {Shape::kChain, Shape::kStar, Shape::kClique}) {
    QueryGraph graph = make_shape(shape, 20);
    JoinTree tree = enumerate_greedy(graph, HashJoinCostModel{});
    EXPECT_EQ(find_defect(tree, graph), "");
    EXPECT_EQ(count_cross_products(tree, graph), 0);
  }
}

TEST(GreedyTest, NeverBeatsTheDpOptimum) {
  std::mt19937 rng(7);
  HashJoinCostModel model;
  int strictly_worse = 0;
  for (int round = 0; round < 50; ++round) {
    QueryGraph graph = make_random_connected(rng, std::uniform_int_distribution<int>(3, 8)(rng));
    const double greedy = enumerate_greedy(graph, model).cost();
    const double optimum = enumerate_dpccp(graph, model).cost();
    EXPECT_GE(greedy, optimum * (1 - 1e-9)) << "round " << round;
    if (greedy > optimum * (1 + 1e-9)) ++strictly_worse;
  }
  // A heuristic: it must not be optimal everywhere on random graphs (else this test could not tell it from DP).
  EXPECT_GT(strictly_worse, 0);
}

TEST(GreedyTest, JoinsTheSmallestResultFirst) {
  QueryGraph graph;
  graph.add_relation(1e6);
  for (double rows : {1000.0, 500.0, 10.0, 800.0}) graph.add_relation(rows);
  for (int d = 1; d <= 4; ++d) graph.add_edge(rel_bit(0), rel_bit(d), 0.001);
  JoinTree tree = enumerate_greedy(graph, HashJoinCostModel{});
  ASSERT_EQ(find_defect(tree, graph), "");
  const JoinNode& first_join = tree.nodes[5];  // leaves 0..4, then the joins in order
  EXPECT_EQ(first_join.set, RelSet{0b01001}) << to_string(tree);
}

TEST(GreedyTest, DisconnectedGraphStillCoversEveryRelation) {
  QueryGraph graph;
  for (int i = 0; i < 6; ++i) graph.add_relation(100 * (i + 1));
  graph.add_edge(rel_bit(0), rel_bit(2), 0.01);
  graph.add_edge(rel_bit(4), rel_bit(5), 0.01);
  JoinTree tree = enumerate_greedy(graph, HashJoinCostModel{});
  EXPECT_EQ(find_defect(tree, graph), "");
  EXPECT_EQ(tree.root_node().set, graph.all());
  EXPECT_EQ(tree.stats.cross_products, 3);  // components {0,2}, {1}, {3}, {4,5}
  EXPECT_EQ(count_cross_products(tree, graph), 3);
}

}  // namespace
}  // namespace hindsight::joinorder
