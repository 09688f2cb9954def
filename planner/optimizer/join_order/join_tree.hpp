#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/optimizer/join_order/query_graph.hpp"
#include "planner/optimizer/join_order/rel_set.hpp"

namespace hindsight::joinorder {

/// One node of a JoinTree: a relation (leaf) or a binary inner join of two nodes.
struct JoinNode {
  RelSet set = 0;    ///< Relations below this node.
  double rows = 0;   ///< Estimated output rows (the CardinalityFn's answer for `set`).
  double cost = 0;   ///< Cost of the whole subtree under the JoinCostModel.
  int left = -1;     ///< Index of the left input in JoinTree::nodes, -1 for a leaf.
  int right = -1;    ///< Index of the right input (the build side for hash joins), -1 for a leaf.
  int relation = -1; ///< Relation number for a leaf, -1 for a join.
  std::vector<int> edges_applied;  ///< Indices into QueryGraph::edges() this join applies; empty = cross product.
  bool semi = false;  ///< A member join: the right input is a member and edges_applied its member edge.
  bool left_join = false;  ///< The member join is a LEFT join (its right input a LEFT member).
  int way = 0;        ///< With a PropertyModel: the way of the chosen plan (PropertyPlan::way); else 0.
  int property = 0;   ///< With a PropertyModel: the property the node's plan delivers; else 0.

  bool is_leaf() const { return relation >= 0; }
};

enum class JoinOrderAlgorithm { kDpccp, kGreedy };

/// What the enumerator did, for tests, benchmarks and EXPLAIN.
struct JoinOrderStats {
  JoinOrderAlgorithm algorithm = JoinOrderAlgorithm::kDpccp;
  uint64_t ccp_pairs = 0;            ///< DPccp: csg–cmp pairs considered (each unordered pair once).
                                     ///< Greedy: connected candidate pairs priced.
  uint64_t connected_subgraphs = 0;  ///< DPccp: connected subgraphs enumerated.
  int cross_products = 0;            ///< Cross products added to join disconnected components.
  bool properties_dropped = false;   ///< DPccp: a component spent PropertyModel::max_pairs and was planned without.
};

/// A join tree stored flat: children precede their parent in `nodes`, and `root` (the last node) covers every
/// relation of the graph. Indices stay valid when the tree is moved or copied.
struct JoinTree {
  std::vector<JoinNode> nodes;
  int root = -1;
  JoinOrderStats stats;

  const JoinNode& root_node() const { return nodes.at(root); }
  double cost() const { return root_node().cost; }
  double rows() const { return root_node().rows; }

  /// Appends a leaf for `relation` and returns its index.
  int add_leaf(int relation, double rows, double cost);

  /// Appends the join of nodes `left` and `right` (edges_applied from `graph`) and returns its index.
  int add_join(const QueryGraph& graph, int left, int right, double rows, double cost);
};

/// The tree as text, e.g. "((R0 ⋈ R1) × R2)": ⋈ for a join applying a predicate, × for a cross product, ⋉ for the
/// semi join of a semi member, ⟕ for the LEFT join of a LEFT member.
std::string to_string(const JoinTree& tree);

/// Empty when `tree` is a well-formed plan for `graph` (every relation exactly once, children before parents,
/// consistent sets and edges_applied, finite non-negative rows and costs); otherwise the first defect found.
std::string find_defect(const JoinTree& tree, const QueryGraph& graph);

/// Number of joins in `tree` whose inputs no edge of `graph` links.
int count_cross_products(const JoinTree& tree, const QueryGraph& graph);

}  // namespace hindsight::joinorder
