#include "planner/optimizer/join_order/query_graph.hpp"

#include "planner/optimizer/join_order/cardinality.hpp"

#include <gtest/gtest.h>

#include <limits>

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

TEST(QueryGraphTest, SemiMemberJoinsOnlyAsTheRightInputOfItsRequiredRelations) {
  QueryGraph graph = chain_of_four();
  const int m = graph.add_semi_member(7, rel_bit(1) | rel_bit(2), 0.25, 42);
  EXPECT_EQ(m, 4);
  EXPECT_TRUE(graph.is_semi_member(m));
  EXPECT_FALSE(graph.is_semi_member(1));
  EXPECT_EQ(graph.semi_members(), rel_bit(m));
  EXPECT_EQ(graph.relation(m).required, RelSet{0b0110});
  ASSERT_EQ(graph.edges().size(), 4u);
  EXPECT_TRUE(graph.edges()[3].semi);
  EXPECT_EQ(graph.edges()[3].right, rel_bit(m));

  EXPECT_TRUE(graph.legal_join(0b0110, rel_bit(m)));   // exactly its required relations
  EXPECT_TRUE(graph.legal_join(0b1111, rel_bit(m)));   // above more
  EXPECT_FALSE(graph.legal_join(0b0010, rel_bit(m)));  // below relation 2, which its predicate reads
  EXPECT_FALSE(graph.legal_join(rel_bit(m), 0b0110));  // never on the left
  EXPECT_FALSE(graph.legal_join(rel_bit(m), 0b0001));
  EXPECT_TRUE(graph.legal_join(0b0001, 0b0110 | rel_bit(m)));  // a finished semi join joins like any set
  EXPECT_TRUE(graph.legal_join(0b0001, 0b0010));
  EXPECT_TRUE(graph.is_complete(0b0110 | rel_bit(m)));
  EXPECT_FALSE(graph.is_complete(0b0010 | rel_bit(m)));

  // Rows: the member counts alone, in a set its edge scales the rest.
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, rel_bit(m)), 7);
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b0110 | rel_bit(m)), 100 * 100 * 0.1 * 0.25);

  EXPECT_THROW(graph.add_semi_member(1, 0, 0.5), std::invalid_argument);
  EXPECT_THROW(graph.add_semi_member(1, rel_bit(m), 0.5), std::invalid_argument);  // requires a member
  EXPECT_THROW(graph.add_semi_member(1, rel_bit(9), 0.5), std::invalid_argument);
  EXPECT_THROW(graph.add_semi_member(1, rel_bit(0), -1), std::invalid_argument);
}

TEST(QueryGraphTest, LeftMemberJoinsLikeASemiMemberAndKeepsEveryLeftRow) {
  QueryGraph graph = chain_of_four();
  const int m = graph.add_left_member(50, rel_bit(1), 3.0, 7);
  EXPECT_EQ(m, 4);
  EXPECT_TRUE(graph.is_semi_member(m));
  EXPECT_TRUE(graph.is_left_member(m));
  EXPECT_TRUE(graph.relation(m).left);
  EXPECT_EQ(graph.left_members(), rel_bit(m));
  EXPECT_TRUE(graph.legal_join(0b0010, rel_bit(m)));
  EXPECT_TRUE(graph.legal_join(0b0111, rel_bit(m)));   // above inner joins of its preserved side
  EXPECT_FALSE(graph.legal_join(0b0001, rel_bit(m)));  // without the relation its ON reads
  EXPECT_FALSE(graph.legal_join(rel_bit(m), 0b0010));  // the null-producing side never swaps with the preserved one
  EXPECT_TRUE(graph.legal_join(0b0001, 0b0010 | rel_bit(m)));
  // Rows: the member counts alone; in a set, every left row at least once (fanout >= 1).
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, rel_bit(m)), 50);
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b0010 | rel_bit(m)), 100 * 3.0);
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b0011 | rel_bit(m)), 100 * 100 * 0.1 * 3.0);
  const int kept = graph.add_left_member(50, rel_bit(2), 1.0);
  EXPECT_DOUBLE_EQ(estimate_cardinality(graph, 0b0100 | rel_bit(kept)), 100);

  EXPECT_THROW(graph.add_left_member(1, rel_bit(0), 0.5), std::invalid_argument);  // would drop left rows
  EXPECT_THROW(graph.add_left_member(1, rel_bit(m), 2), std::invalid_argument);     // requires a member
  EXPECT_THROW(graph.add_left_member(1, 0, 2), std::invalid_argument);
  EXPECT_THROW(graph.add_left_member(1, rel_bit(0), std::numeric_limits<double>::infinity()), std::invalid_argument);
}

}  // namespace
}  // namespace hindsight::joinorder
