#include "planner/optimizer/join_order/dpccp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <unordered_map>

#include "planner/optimizer/join_order/greedy.hpp"
#include "tests/unit/planner/optimizer/join_order/graph_builders.hpp"

namespace hindsight::joinorder {
namespace {

using testing::make_random_connected;
using testing::make_random_with_left_members;
using testing::make_random_with_semi_members;
using testing::make_shape;
using testing::Shape;

/// Counts csg–cmp pairs by definition: unordered {S1, S2}, disjoint, both connected, linked by an edge.
uint64_t brute_force_ccp_pairs(const QueryGraph& graph) {
  uint64_t count = 0;
  for (RelSet set = 1; set <= graph.all(); ++set) {
    if (!graph.is_connected(set)) continue;
    const RelSet anchor = rel_bit(lowest_rel(set));  // S1 holds the lowest relation: each pair counted once
    for_each_nonempty_subset(set & ~anchor, [&](RelSet rest) {
      const RelSet s2 = rest, s1 = set & ~rest;
      if (graph.is_connected(s1) && graph.is_connected(s2) && graph.are_joined(s1, s2)) ++count;
    });
  }
  return count;
}

uint64_t closed_form_ccp_pairs(Shape shape, uint64_t n) {
  switch (shape) {
    case Shape::kChain:
      return (n * n * n - n) / 6;
    case Shape::kStar:
      return (n - 1) << (n - 2);
    case Shape::kCycle:
      return (n * n * n - 2 * n * n + n) / 2;
    case Shape::kClique: {
      uint64_t pow3 = 1;
      for (uint64_t i = 0; i < n; ++i) pow3 *= 3;
      return (pow3 - (uint64_t{1} << (n + 1)) + 1) / 2;
    }
  }
  return 0;
}

/// Semi members by their definition, written apart from QueryGraph::legal_join: a set is plannable when each of its
/// semi members has its required relations in it; a lone member is joined only as the right input of a set holding
/// its required relations; any other join is an inner join of two plannable sets.
bool plannable(const QueryGraph& graph, RelSet set) {
  for (int rel = 0; rel < graph.relation_count(); ++rel)
    if ((set >> rel & 1) && graph.relation(rel).semi && (graph.relation(rel).required & ~set) != 0) return false;
  return true;
}

bool semi_legal(const QueryGraph& graph, RelSet left, RelSet right) {
  if (rel_count(left) == 1 && graph.relation(lowest_rel(left)).semi) return false;
  if (rel_count(right) == 1 && graph.relation(lowest_rel(right)).semi)
    return (graph.relation(lowest_rel(right)).required & ~left) == 0;
  return plannable(graph, left) && plannable(graph, right);
}

/// Optimal cost over all bushy cross-product-free trees, by splitting every connected set into every pair of
/// connected, linked halves (both orientations). Independent of DPccp's enumeration.
double brute_force_optimum(const QueryGraph& graph, const JoinCostModel& model) {
  std::unordered_map<RelSet, double> best;
  auto rows = [&](RelSet set) { return estimate_cardinality(graph, set); };
  auto solve = [&](auto&& self, RelSet set) -> double {
    auto it = best.find(set);
    if (it != best.end()) return it->second;
    double result = std::numeric_limits<double>::infinity();
    if (rel_count(set) == 1) {
      result = model.leaf_cost(set, rows(set));
    } else {
      for_each_nonempty_subset(set, [&](RelSet left) {
        const RelSet right = set & ~left;
        if (right == 0 || !graph.is_connected(left) || !graph.is_connected(right) || !graph.are_joined(left, right)) {
          return;
        }
        if (!semi_legal(graph, left, right)) return;
        const double cost = self(self, left) + self(self, right) +
                            model.join_cost(left, rows(left), right, rows(right), rows(set));
        result = std::min(result, cost);
      });
    }
    best[set] = result;
    return result;
  };
  return solve(solve, graph.all());
}

/// Recomputes the cost of `tree` bottom-up from the model, ignoring the costs stored in it.
double recompute_cost(const JoinTree& tree, const QueryGraph& graph, const JoinCostModel& model, int index) {
  const JoinNode& node = tree.nodes[index];
  const double rows = estimate_cardinality(graph, node.set);
  if (node.is_leaf()) return model.leaf_cost(node.set, rows);
  const JoinNode& l = tree.nodes[node.left];
  const JoinNode& r = tree.nodes[node.right];
  return recompute_cost(tree, graph, model, node.left) + recompute_cost(tree, graph, model, node.right) +
         model.join_cost(l.set, estimate_cardinality(graph, l.set), r.set, estimate_cardinality(graph, r.set), rows);
}

/// Asymmetric: the right input is always the build side, and scans cost their rows.
struct RightBuildCostModel final : JoinCostModel {
  double join_cost(RelSet, double left_rows, RelSet, double right_rows, double out_rows) const override {
    return out_rows + 3 * right_rows + left_rows;
  }
  double leaf_cost(RelSet, double rows) const override { return rows; }
};

TEST(DpccpTest, CsgCmpPairsMatchClosedFormsAndBruteForce) {
  HashJoinCostModel model;
  for (Shape shape : {Shape::kChain, Shape::kStar, Shape::kCycle, Shape::kClique}) {
    for (int n = 3; n <= 10; ++n) {
      QueryGraph graph = make_shape(shape, n);
      JoinTree tree = enumerate_dpccp(graph, model);
      const uint64_t brute = brute_force_ccp_pairs(graph);
      EXPECT_EQ(brute, closed_form_ccp_pairs(shape, n)) << "shape " << static_cast<int>(shape) << " n " << n;
      EXPECT_EQ(tree.stats.ccp_pairs, brute) << "shape " << static_cast<int>(shape) << " n " << n;
      EXPECT_EQ(find_defect(tree, graph), "");
      EXPECT_EQ(count_cross_products(tree, graph), 0);
    }
  }
}

TEST(DpccpTest, CountsEveryConnectedSubgraphOnce) {
  // A chain of n has n(n+1)/2 connected subgraphs, a clique 2^n - 1.
  HashJoinCostModel model;
  EXPECT_EQ(enumerate_dpccp(make_shape(Shape::kChain, 9), model).stats.connected_subgraphs, 45u);
  EXPECT_EQ(enumerate_dpccp(make_shape(Shape::kClique, 9), model).stats.connected_subgraphs, 511u);
}

TEST(DpccpTest, MatchesBruteForceOptimumOnRandomGraphs) {
  std::mt19937 rng(20060912);
  HashJoinCostModel hash_join;
  RightBuildCostModel right_build;
  for (int round = 0; round < 50; ++round) {
    const int n = std::uniform_int_distribution<int>(2, 7)(rng);
    QueryGraph graph = make_random_connected(rng, n);
    for (const JoinCostModel* model : {static_cast<const JoinCostModel*>(&hash_join),
                                       static_cast<const JoinCostModel*>(&right_build)}) {
      JoinTree tree = enumerate_dpccp(graph, *model);
      ASSERT_EQ(find_defect(tree, graph), "") << "round " << round;
      EXPECT_EQ(count_cross_products(tree, graph), 0) << "round " << round;
      EXPECT_EQ(tree.stats.ccp_pairs, brute_force_ccp_pairs(graph)) << "round " << round;
      const double optimum = brute_force_optimum(graph, *model);
      EXPECT_NEAR(tree.cost(), optimum, 1e-9 * optimum) << "round " << round << ": " << to_string(tree);
      EXPECT_NEAR(recompute_cost(tree, graph, *model, tree.root), tree.cost(), 1e-9 * optimum) << "round " << round;
    }
  }
}

TEST(DpccpTest, SingleRelationIsALeaf) {
  QueryGraph graph;
  graph.add_relation(42, 99);
  JoinTree tree = enumerate_dpccp(graph, HashJoinCostModel{});
  ASSERT_EQ(tree.nodes.size(), 1u);
  EXPECT_EQ(tree.root_node().relation, 0);
  EXPECT_DOUBLE_EQ(tree.rows(), 42);
  EXPECT_EQ(tree.stats.ccp_pairs, 0u);
  EXPECT_THROW(enumerate_dpccp(QueryGraph{}, HashJoinCostModel{}), std::invalid_argument);
}

TEST(DpccpTest, DisconnectedGraphJoinsComponentsSmallestFirst) {
  QueryGraph graph;
  for (double rows : {1000.0, 1000.0, 1000.0, 10.0, 10.0, 50.0}) graph.add_relation(rows);
  graph.add_edge(rel_bit(0), rel_bit(1), 0.001);
  graph.add_edge(rel_bit(1), rel_bit(2), 0.001);  // {0,1,2}: 1000 rows
  graph.add_edge(rel_bit(3), rel_bit(4), 0.1);    // {3,4}: 10 rows
                                                  // {5}: 50 rows
  JoinTree tree = enumerate_dpccp(graph, HashJoinCostModel{});
  EXPECT_EQ(find_defect(tree, graph), "");
  EXPECT_EQ(tree.root_node().set, graph.all());
  EXPECT_EQ(tree.stats.cross_products, 2);
  EXPECT_EQ(count_cross_products(tree, graph), 2);
  // The first cross product joins the two smallest components, {3,4} and {5}; the big one comes last.
  const JoinNode& root = tree.root_node();
  const RelSet last_in = tree.nodes[root.left].set == 0b000111 ? tree.nodes[root.right].set
                                                               : tree.nodes[root.left].set;
  EXPECT_EQ(last_in, RelSet{0b111000}) << to_string(tree);
  EXPECT_DOUBLE_EQ(tree.rows(), 1000.0 * 10 * 50);
}

TEST(DpccpTest, CardinalityOverrideChangesThePlan) {
  // Chain A - B - C. The model says A ⋈ B is small, so (A ⋈ B) ⋈ C wins; an observed 10⁶ rows for A ⋈ B flips it.
  QueryGraph graph;
  for (int i = 0; i < 3; ++i) graph.add_relation(1000);
  graph.add_edge(rel_bit(0), rel_bit(1), 0.001);
  graph.add_edge(rel_bit(1), rel_bit(2), 0.01);
  HashJoinCostModel model;
  auto lower_join = [](const JoinTree& tree) {
    const JoinNode& root = tree.root_node();
    const JoinNode& l = tree.nodes[root.left];
    return l.is_leaf() ? tree.nodes[root.right].set : l.set;
  };

  JoinTree model_plan = enumerate_dpccp(graph, model);
  EXPECT_EQ(lower_join(model_plan), RelSet{0b011}) << to_string(model_plan);

  CardinalityEstimator observed(graph, [](RelSet set) -> std::optional<double> {
    return set == 0b011 ? std::optional<double>(1e6) : std::nullopt;
  });
  JoinTree feedback_plan = enumerate_dpccp(graph, model, observed.as_function());
  EXPECT_EQ(lower_join(feedback_plan), RelSet{0b110}) << to_string(feedback_plan);
  EXPECT_EQ(find_defect(feedback_plan, graph), "");
}

TEST(DpccpTest, StarJoinsTheSelectiveDimensionFirst) {
  // Fact 0 with 10⁶ rows; dimensions joined by key (selectivity 1/1000). Dimension 3 is filtered to 10 rows.
  QueryGraph graph;
  graph.add_relation(1e6);
  for (double rows : {1000.0, 500.0, 10.0, 800.0}) graph.add_relation(rows);
  for (int d = 1; d <= 4; ++d) graph.add_edge(rel_bit(0), rel_bit(d), 0.001);
  JoinTree tree = enumerate_dpccp(graph, HashJoinCostModel{});
  ASSERT_EQ(find_defect(tree, graph), "");
  int fact_parent = -1;
  for (int i = 0; i < static_cast<int>(tree.nodes.size()); ++i) {
    const JoinNode& node = tree.nodes[i];
    if (!node.is_leaf() && (tree.nodes[node.left].relation == 0 || tree.nodes[node.right].relation == 0)) {
      fact_parent = i;
    }
  }
  ASSERT_GE(fact_parent, 0);
  EXPECT_EQ(tree.nodes[fact_parent].set, RelSet{0b01001}) << to_string(tree);
}

TEST(DpccpTest, ComplexEdgeIsAppliedWhereAllItsRelationsMeet) {
  QueryGraph graph;
  for (int i = 0; i < 3; ++i) graph.add_relation(100);
  graph.add_edge(rel_bit(0) | rel_bit(1), rel_bit(2), 0.001, 5);
  JoinTree tree = enumerate_dpccp(graph, HashJoinCostModel{});
  EXPECT_EQ(find_defect(tree, graph), "");
  EXPECT_EQ(tree.root_node().edges_applied, std::vector<int>{0});
  EXPECT_EQ(tree.stats.ccp_pairs, 6u);  // treated like a triangle for enumeration
}

/// Every semi join of `tree` has its member as the right input and the member's required relations on the left;
/// no member is an input of any other join.
std::string semi_defect(const JoinTree& tree, const QueryGraph& graph) {
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    const JoinNode& node = tree.nodes[i];
    if (node.is_leaf()) continue;
    const JoinNode& l = tree.nodes[node.left];
    const JoinNode& r = tree.nodes[node.right];
    if (l.is_leaf() && graph.relation(l.relation).semi) return "a semi member on the left of node " + std::to_string(i);
    const bool member = r.is_leaf() && graph.relation(r.relation).semi;
    if (member != node.semi) return "node " + std::to_string(i) + " mislabelled";
    if (member && (graph.relation(r.relation).required & ~l.set) != 0)
      return "semi join " + std::to_string(i) + " below a relation its predicate needs";
  }
  return "";
}

TEST(DpccpTest, SemiMembersMatchBruteForceOptimumOnRandomGraphs) {
  std::mt19937 rng(20130622);
  HashJoinCostModel hash_join;
  RightBuildCostModel right_build;
  int semi_not_on_top = 0;
  for (int round = 0; round < 60; ++round) {
    const int n = std::uniform_int_distribution<int>(2, 6)(rng);
    const int semi = std::uniform_int_distribution<int>(1, 3)(rng);
    QueryGraph graph = make_random_with_semi_members(rng, n, semi);
    for (const JoinCostModel* model : {static_cast<const JoinCostModel*>(&hash_join),
                                       static_cast<const JoinCostModel*>(&right_build)}) {
      JoinTree tree = enumerate_dpccp(graph, *model);
      ASSERT_EQ(find_defect(tree, graph), "") << "round " << round << ": " << to_string(tree);
      ASSERT_EQ(semi_defect(tree, graph), "") << "round " << round << ": " << to_string(tree);
      const double optimum = brute_force_optimum(graph, *model);
      EXPECT_NEAR(tree.cost(), optimum, 1e-9 * optimum) << "round " << round << ": " << to_string(tree);
      EXPECT_NEAR(recompute_cost(tree, graph, *model, tree.root), tree.cost(), 1e-9 * optimum) << "round " << round;
      JoinTree greedy = enumerate_greedy(graph, *model);
      ASSERT_EQ(find_defect(greedy, graph), "") << "round " << round << ": " << to_string(greedy);
      ASSERT_EQ(semi_defect(greedy, graph), "") << "round " << round << ": " << to_string(greedy);
      EXPECT_GE(greedy.cost(), optimum * (1 - 1e-9)) << "round " << round;
      if (!tree.root_node().semi) ++semi_not_on_top;
    }
  }
  // The search does move semi joins down (else this test could not tell it from a barrier).
  EXPECT_GT(semi_not_on_top, 0);
}

/// Rows of `set` by the definition of a LEFT join, written apart from estimate_cardinality: the inner relations'
/// product and inner edges, each semi member's kept share, each LEFT member's rows per left row.
double rows_by_definition(const QueryGraph& graph, RelSet set) {
  if (rel_count(set) == 1) return graph.relation(lowest_rel(set)).cardinality;
  double rows = 1;
  for_each_rel(set, [&](int rel) {
    const Relation& r = graph.relation(rel);
    if (!r.semi) rows *= r.cardinality;
  });
  for (const JoinEdge& e : graph.edges())
    if (is_subset(e.relations(), set)) rows *= e.selectivity;
  return rows;
}

TEST(DpccpTest, LeftMembersMatchBruteForceOptimumOnRandomGraphs) {
  std::mt19937 rng(20130623);
  HashJoinCostModel hash_join;
  RightBuildCostModel right_build;
  int left_not_on_top = 0, left_joins = 0;
  for (int round = 0; round < 60; ++round) {
    const int n = std::uniform_int_distribution<int>(2, 6)(rng);
    const int semi = std::uniform_int_distribution<int>(0, 2)(rng);
    const int left = std::uniform_int_distribution<int>(1, 3)(rng);
    QueryGraph graph = make_random_with_left_members(rng, n, semi, left);
    for (const JoinCostModel* model : {static_cast<const JoinCostModel*>(&hash_join),
                                       static_cast<const JoinCostModel*>(&right_build)}) {
      for (const JoinTree& tree : {enumerate_dpccp(graph, *model), enumerate_greedy(graph, *model)}) {
        ASSERT_EQ(find_defect(tree, graph), "") << "round " << round << ": " << to_string(tree);
        ASSERT_EQ(semi_defect(tree, graph), "") << "round " << round << ": " << to_string(tree);
        for (const JoinNode& node : tree.nodes) {
          if (node.is_leaf() || !node.left_join) continue;
          ++left_joins;
          // A LEFT join keeps every left row: at least the left input's rows.
          const JoinNode& l = tree.nodes[static_cast<size_t>(node.left)];
          EXPECT_GE(node.rows, l.rows * (1 - 1e-12)) << "round " << round << ": " << to_string(tree);
          EXPECT_NEAR(node.rows, rows_by_definition(graph, node.set), 1e-9 * node.rows) << "round " << round;
        }
      }
      JoinTree tree = enumerate_dpccp(graph, *model);
      const double optimum = brute_force_optimum(graph, *model);
      EXPECT_NEAR(tree.cost(), optimum, 1e-9 * optimum) << "round " << round << ": " << to_string(tree);
      EXPECT_NEAR(recompute_cost(tree, graph, *model, tree.root), tree.cost(), 1e-9 * optimum) << "round " << round;
      EXPECT_GE(enumerate_greedy(graph, *model).cost(), optimum * (1 - 1e-9)) << "round " << round;
      if (!tree.root_node().left_join) ++left_not_on_top;
    }
  }
  EXPECT_GT(left_joins, 100);
  // The search does move LEFT joins below inner joins (else this test could not tell it from a barrier).
  EXPECT_GT(left_not_on_top, 0);
}

TEST(DpccpTest, LeftJoinGoesWhereItsLeftInputIsSmallest) {
  // orders (1.5M) ⋈ customer (150k, filtered to 10), and a LEFT member on orders that keeps each row once (fanout
  // 1): applied to the 1.5M orders it costs a probe of each; after the selective join, of a few. A LEFT member
  // that multiplies rows (fanout 50) goes last for the same reason.
  for (const double fanout : {1.0, 50.0}) {
    QueryGraph graph;
    graph.add_relation(1.5e6);  // 0 orders
    graph.add_relation(10);     // 1 customer
    graph.add_edge(rel_bit(0), rel_bit(1), 1 / 1.5e5);
    graph.add_left_member(6e6, rel_bit(0), fanout);
    for (const JoinTree& tree : {enumerate_dpccp(graph, HashJoinCostModel{}), enumerate_greedy(graph, HashJoinCostModel{})}) {
      ASSERT_EQ(find_defect(tree, graph), "");
      EXPECT_TRUE(tree.root_node().left_join) << to_string(tree);
      EXPECT_NEAR(tree.rows(), 1.5e6 * 10 / 1.5e5 * fanout, 1e-6);
    }
  }
  // A small LEFT member on a small table joined to a big one: the LEFT join goes below the big join.
  QueryGraph graph;
  graph.add_relation(6e6);  // 0 lineitem
  graph.add_relation(1e3);  // 1 supplier
  graph.add_edge(rel_bit(0), rel_bit(1), 1e-3);
  graph.add_left_member(25, rel_bit(1), 1.0);
  JoinTree tree = enumerate_dpccp(graph, HashJoinCostModel{});
  ASSERT_EQ(find_defect(tree, graph), "");
  EXPECT_EQ(to_string(tree), "(R0 ⋈ (R1 ⟕ R2))");
}

TEST(DpccpTest, SelectiveSemiJoinGoesBelowTheBigJoin) {
  // Q18's shape: lineitem (6M) ⋈ orders (1.5M), and a semi member on orders keeping 70 of them.
  QueryGraph graph;
  graph.add_relation(6e6);    // 0 lineitem
  graph.add_relation(1.5e6);  // 1 orders
  graph.add_edge(rel_bit(0), rel_bit(1), 1 / 1.5e6);
  const int semi = graph.add_semi_member(70, rel_bit(1), 70 / 1.5e6);
  for (const JoinTree& tree : {enumerate_dpccp(graph, HashJoinCostModel{}), enumerate_greedy(graph, HashJoinCostModel{})}) {
    ASSERT_EQ(find_defect(tree, graph), "");
    EXPECT_EQ(to_string(tree), "(R0 ⋈ (R1 ⋉ R2))");
    EXPECT_EQ(tree.nodes[tree.root_node().right].set, rel_bit(1) | rel_bit(semi));
    EXPECT_NEAR(tree.rows(), 6e6 * 1.5e6 / 1.5e6 * 70 / 1.5e6, 1e-6);
  }
}

TEST(DpccpTest, SemiJoinOverTwoRelationsWaitsForBoth) {
  // A chain 0 - 1 - 2 and a very selective member requiring 0 and 2: it can only go on top of all three.
  QueryGraph graph;
  for (int i = 0; i < 3; ++i) graph.add_relation(1000);
  graph.add_edge(rel_bit(0), rel_bit(1), 0.001);
  graph.add_edge(rel_bit(1), rel_bit(2), 0.001);
  graph.add_semi_member(5, rel_bit(0) | rel_bit(2), 1e-6);
  JoinTree tree = enumerate_dpccp(graph, HashJoinCostModel{});
  ASSERT_EQ(find_defect(tree, graph), "");
  EXPECT_TRUE(tree.root_node().semi) << to_string(tree);
  EXPECT_EQ(tree.nodes[tree.root_node().left].set, RelSet{0b0111});
}

}  // namespace
}  // namespace hindsight::joinorder

namespace hindsight::joinorder {
namespace {

/// A toy distribution model: every relation lives in one of three "places"; inputs in the same place join for the
/// join's rows, else one side moves to the other's place (twice its rows) or both to place 3 (their rows).
struct PlacesModel final : PropertyModel {
  std::vector<int> place;  // per relation
  std::array<double, 4> root_price{};  // per place: what the operator above pays per row of the whole graph
  PlacesModel() { max_plans = 8; }

  static void options(double l, int lp, double r, int rp, double out, std::vector<PropertyPlan>& v) {
    const double join = out + 1.5 * r + l;
    if (lp == rp) {
      v.push_back({join, lp, lp, 0});
      return;
    }
    v.push_back({join + 2 * r, lp, lp, 1});
    v.push_back({join + 2 * l, rp, rp, 2});
    v.push_back({join + l + r, 3, 3, 3});
  }
  void leaf_plans(int relation, double, std::vector<PropertyPlan>& out) const override {
    const int p = place.at(static_cast<size_t>(relation));
    out.push_back({0, p, p, 0});
  }
  void join_plans(RelSet, double l, int lp, RelSet, double r, int rp, double out,
                  std::vector<PropertyPlan>& v) const override {
    options(l, lp, r, rp, out, v);
  }
  double root_cost(int property, double rows) const override {
    return root_price.at(static_cast<size_t>(property)) * rows;
  }
};

/// The optimum by brute force over every split, orientation and input property: best[set][place].
double brute_force_with_places(const QueryGraph& graph, const PlacesModel& model) {
  std::unordered_map<RelSet, std::array<double, 4>> best;
  const double inf = std::numeric_limits<double>::infinity();
  auto rows = [&](RelSet set) { return estimate_cardinality(graph, set); };
  auto solve = [&](auto&& self, RelSet set) -> std::array<double, 4> {
    auto it = best.find(set);
    if (it != best.end()) return it->second;
    std::array<double, 4> result{inf, inf, inf, inf};
    if (rel_count(set) == 1) {
      result[static_cast<size_t>(model.place[static_cast<size_t>(lowest_rel(set))])] = 0;
    } else {
      for_each_nonempty_subset(set, [&](RelSet left) {
        const RelSet right = set & ~left;
        if (right == 0 || !graph.is_connected(left) || !graph.is_connected(right) || !graph.are_joined(left, right))
          return;
        if (!semi_legal(graph, left, right)) return;
        const std::array<double, 4> lc = self(self, left), rc = self(self, right);
        for (int lp = 0; lp < 4; ++lp)
          for (int rp = 0; rp < 4; ++rp) {
            if (lc[lp] == inf || rc[rp] == inf) continue;
            std::vector<PropertyPlan> v;
            PlacesModel::options(rows(left), lp, rows(right), rp, rows(set), v);
            for (const PropertyPlan& p : v)
              result[static_cast<size_t>(p.property)] =
                  std::min(result[static_cast<size_t>(p.property)], lc[lp] + rc[rp] + p.cost);
          }
      });
    }
    best[set] = result;
    return result;
  };
  // The whole graph's plan in each place, with what the operator above pays over it there.
  const std::array<double, 4> all = solve(solve, graph.all());
  double optimum = inf;
  for (int p = 0; p < 4; ++p)
    if (all[static_cast<size_t>(p)] != inf)
      optimum = std::min(optimum, all[static_cast<size_t>(p)] + model.root_cost(p, rows(graph.all())));
  return optimum;
}

/// The tree's cost recomputed from each node's way and its inputs' properties; checks each node's property too.
double recompute_with_places(const JoinTree& tree, const QueryGraph& graph, const PlacesModel& model, int index,
                             std::string& defect) {
  const JoinNode& node = tree.nodes[static_cast<size_t>(index)];
  if (node.is_leaf()) {
    if (node.property != model.place[static_cast<size_t>(node.relation)]) defect = "leaf property";
    return 0;
  }
  const JoinNode& l = tree.nodes[static_cast<size_t>(node.left)];
  const JoinNode& r = tree.nodes[static_cast<size_t>(node.right)];
  std::vector<PropertyPlan> v;
  PlacesModel::options(estimate_cardinality(graph, l.set), l.property, estimate_cardinality(graph, r.set), r.property,
                       estimate_cardinality(graph, node.set), v);
  const PropertyPlan* way = nullptr;
  for (const PropertyPlan& p : v)
    if (p.way == node.way) way = &p;
  if (way == nullptr) {
    defect = "a way its inputs do not offer";
    return 0;
  }
  if (way->property != node.property) defect = "join property";
  return recompute_with_places(tree, graph, model, node.left, defect) +
         recompute_with_places(tree, graph, model, node.right, defect) + way->cost;
}

/// The property-aware DPccp on `graph` under `model`: legal, as cheap as the brute force over splits, orientations
/// and input properties (with the root's price, PropertyModel::root_cost, for the place the whole graph ends in),
/// and its cost what an independent recomputation gives.
JoinTree expect_places_optimum(const QueryGraph& graph, const PlacesModel& model, int round) {
  HashJoinCostModel rows_only;
  JoinTree tree = enumerate_dpccp(graph, rows_only, {}, &model);
  EXPECT_EQ(find_defect(tree, graph), "") << "round " << round << ": " << to_string(tree);
  EXPECT_EQ(semi_defect(tree, graph), "") << "round " << round << ": " << to_string(tree);
  const double optimum = brute_force_with_places(graph, model);
  const double with_root =
      tree.cost() + model.root_cost(tree.root_node().property, estimate_cardinality(graph, graph.all()));
  EXPECT_NEAR(with_root, optimum, 1e-9 * std::max(1.0, optimum)) << "round " << round << ": " << to_string(tree);
  std::string defect;
  EXPECT_NEAR(recompute_with_places(tree, graph, model, tree.root, defect), tree.cost(), 1e-9 * std::max(1.0, optimum))
    << "round " << round;
  EXPECT_EQ(defect, "") << "round " << round << ": " << to_string(tree);
  return tree;
}

TEST(DpccpTest, InterestingPropertiesMatchBruteForceOptimumOnRandomGraphs) {
  std::mt19937 rng(19960604);
  HashJoinCostModel rows_only;
  int differs_from_rows_only = 0;
  for (int round = 0; round < 80; ++round) {
    const int n = std::uniform_int_distribution<int>(2, 6)(rng);
    const int semi = round % 2 == 0 ? 0 : std::uniform_int_distribution<int>(1, 2)(rng);
    QueryGraph graph = semi == 0 ? make_random_connected(rng, n) : make_random_with_semi_members(rng, n, semi);
    PlacesModel model;
    for (int i = 0; i < graph.relation_count(); ++i) model.place.push_back(std::uniform_int_distribution<int>(0, 2)(rng));
    JoinTree tree = expect_places_optimum(graph, model, round);
    if (to_string(tree) != to_string(enumerate_dpccp(graph, rows_only))) ++differs_from_rows_only;
  }
  // The places do change plans (else this test could not tell the property-aware search from the plain one).
  EXPECT_GT(differs_from_rows_only, 0);
}

TEST(DpccpTest, InterestingPropertiesWithLeftMembersMatchBruteForceOptimum) {
  std::mt19937 rng(20130624);
  for (int round = 0; round < 60; ++round) {
    const int n = std::uniform_int_distribution<int>(2, 6)(rng);
    QueryGraph graph = make_random_with_left_members(rng, n, round % 2, std::uniform_int_distribution<int>(1, 2)(rng));
    PlacesModel model;
    for (int i = 0; i < graph.relation_count(); ++i) model.place.push_back(std::uniform_int_distribution<int>(0, 2)(rng));
    expect_places_optimum(graph, model, round);
  }
}

// The operator above the graph (an aggregate at workers > 1) pays per place: the whole graph's plan is chosen by its
// cost plus that price, and the brute force adds it too. The prices do move plans to dearer join orders.
TEST(DpccpTest, InterestingPropertiesWithARootPriceMatchBruteForceOptimum) {
  std::mt19937 rng(19780517);
  HashJoinCostModel rows_only;
  int differs_from_unpriced = 0;
  for (int round = 0; round < 80; ++round) {
    const int n = std::uniform_int_distribution<int>(2, 6)(rng);
    const int semi = round % 3 == 0 ? std::uniform_int_distribution<int>(1, 2)(rng) : 0;
    QueryGraph graph = semi == 0 ? make_random_connected(rng, n) : make_random_with_semi_members(rng, n, semi);
    PlacesModel model;
    for (int i = 0; i < graph.relation_count(); ++i) model.place.push_back(std::uniform_int_distribution<int>(0, 2)(rng));
    const JoinTree unpriced = enumerate_dpccp(graph, rows_only, {}, &model);
    // One place is free for the operator above (as a stream hashed on the group keys is for an aggregate); the
    // others cost up to 4 per row.
    for (double& price : model.root_price) price = std::uniform_real_distribution<double>(0, 4)(rng);
    model.root_price[static_cast<size_t>(std::uniform_int_distribution<int>(0, 3)(rng))] = 0;
    const JoinTree tree = expect_places_optimum(graph, model, round);
    if (to_string(tree) != to_string(unpriced) || tree.root_node().property != unpriced.root_node().property)
      ++differs_from_unpriced;
  }
  EXPECT_GT(differs_from_unpriced, 0);
}

}  // namespace
}  // namespace hindsight::joinorder
