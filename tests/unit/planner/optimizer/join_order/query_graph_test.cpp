#include "planner/optimizer/join_order/query_graph.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace hindsight::joinorder {
namespace {

QueryGraph chain_of_four() {
  QueryGraph graph;
  for (int i = 0; i < 4; ++i) graph.add_relation(100, 10 + i);
  graph.add_edge(rel_bit(0), rel_bit(1), 0.1, 7);
  graph.add_edge(rel_bit(1), rel_bit(2), 0.1, 8);
  graph.add_edge(rel_bit(2), rel_bit(3), 0.1, 9);
  return graph;
}

TEST(QueryGraphTest, StoresRelationsAndEdges) {
  QueryGraph graph = chain_of_four();
  EXPECT_EQ(graph.relation_count(), 4);
  EXPECT_EQ(graph.all(), RelSet{0b1111});
  EXPECT_EQ(graph.relation(2).tag, 12);
  EXPECT_DOUBLE_EQ(graph.relation(2).cardinality, 100);
  ASSERT_EQ(graph.edges().size(), 3u);
  EXPECT_EQ(graph.edges()[1].tag, 8);
  EXPECT_EQ(graph.edges()[1].relations(), RelSet{0b0110});
}

TEST(QueryGraphTest, NeighbourhoodExcludesTheSetItself) {
  QueryGraph graph = chain_of_four();
  EXPECT_EQ(graph.adjacent(1), RelSet{0b0101});
  EXPECT_EQ(graph.neighbourhood(rel_bit(1)), RelSet{0b0101});
  EXPECT_EQ(graph.neighbourhood(rel_bit(1) | rel_bit(2)), RelSet{0b1001});
  EXPECT_EQ(graph.neighbourhood(rel_bit(1) | rel_bit(2), rel_bit(0)), RelSet{0b1000});
  EXPECT_EQ(graph.neighbourhood(graph.all()), RelSet{0});
}

TEST(QueryGraphTest, ConnectednessAndComponents) {
  QueryGraph graph = chain_of_four();
  EXPECT_TRUE(graph.is_connected(0b0111));
  EXPECT_TRUE(graph.is_connected(0b1000));
  EXPECT_FALSE(graph.is_connected(0b1001));
  EXPECT_FALSE(graph.is_connected(0));
  EXPECT_TRUE(graph.are_joined(0b0011, 0b0100));
  EXPECT_FALSE(graph.are_joined(0b0001, 0b1100));
  EXPECT_EQ(graph.components(), std::vector<RelSet>{0b1111});

  graph.add_relation(5);  // relation 4, isolated
  graph.add_relation(5);  // relation 5
  graph.add_edge(rel_bit(5), rel_bit(4), 0.5);
  EXPECT_EQ(graph.components(), (std::vector<RelSet>{0b001111, 0b110000}));
  EXPECT_FALSE(graph.is_connected(graph.all()));
}

TEST(QueryGraphTest, ComplexEdgeLinksAllItsRelations) {
  QueryGraph graph;
  for (int i = 0; i < 4; ++i) graph.add_relation(10);
  graph.add_edge(rel_bit(0) | rel_bit(1), rel_bit(2), 0.5);  // a.x + b.y = c.z
  EXPECT_EQ(graph.adjacent(0), RelSet{0b0110});
  EXPECT_EQ(graph.adjacent(2), RelSet{0b0011});
  EXPECT_EQ(graph.adjacent(3), RelSet{0});
  // The predicate applies only where all three relations meet.
  EXPECT_TRUE(graph.edges_between(rel_bit(0), rel_bit(2)).empty());
  EXPECT_EQ(graph.edges_between(rel_bit(0) | rel_bit(2), rel_bit(1)), std::vector<int>{0});
  EXPECT_TRUE(graph.edges_between(0b0111, rel_bit(3)).empty());
  EXPECT_EQ(graph.edges_within(0b0111), std::vector<int>{0});
}

TEST(QueryGraphTest, RejectsMalformedInput) {
  QueryGraph graph;
  graph.add_relation(1);
  graph.add_relation(1);
  EXPECT_THROW(graph.add_relation(-1), std::invalid_argument);
  EXPECT_THROW(graph.add_edge(0, rel_bit(1), 0.5), std::invalid_argument);
  EXPECT_THROW(graph.add_edge(0b11, rel_bit(1), 0.5), std::invalid_argument);
  EXPECT_THROW(graph.add_edge(rel_bit(0), rel_bit(2), 0.5), std::invalid_argument);
  EXPECT_THROW(graph.add_edge(rel_bit(0), rel_bit(1), -0.5), std::invalid_argument);
  QueryGraph full;
  for (int i = 0; i < QueryGraph::kMaxRelations; ++i) full.add_relation(1);
  EXPECT_EQ(full.all(), ~RelSet{0});
  EXPECT_THROW(full.add_relation(1), std::invalid_argument);
  full.add_edge(rel_bit(0), rel_bit(63), 0.5);
  EXPECT_EQ(full.neighbourhood(rel_bit(63)), rel_bit(0));
}

}  // namespace
}  // namespace hindsight::joinorder
