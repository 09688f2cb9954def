#include "planner/optimizer/join_order/join_tree.hpp"

#include <cmath>

#include <fmt/format.h>

namespace hindsight::joinorder {

int JoinTree::add_leaf(int relation, double rows, double cost) {
  JoinNode node;
  node.set = rel_bit(relation);
  node.rows = rows;
  node.cost = cost;
  node.relation = relation;
  nodes.push_back(std::move(node));
  root = static_cast<int>(nodes.size()) - 1;
  return root;
}

int JoinTree::add_join(const QueryGraph& graph, int left, int right, double rows, double cost) {
  JoinNode node;
  node.set = nodes.at(left).set | nodes.at(right).set;
  node.rows = rows;
  node.cost = cost;
  node.left = left;
  node.right = right;
  node.edges_applied = graph.edges_between(nodes[left].set, nodes[right].set);
  node.semi = nodes[right].is_leaf() && graph.is_semi_member(nodes[right].relation);
  node.left_join = node.semi && graph.is_left_member(nodes[right].relation);
  nodes.push_back(std::move(node));
  root = static_cast<int>(nodes.size()) - 1;
  return root;
}

namespace {

std::string node_text(const JoinTree& tree, int index) {
  const JoinNode& node = tree.nodes[index];
  if (node.is_leaf()) return fmt::format("R{}", node.relation);
  const char* op = node.edges_applied.empty() ? "×" : "⋈";
  if (node.semi) op = node.left_join ? "⟕" : "⋉";
  return fmt::format("({} {} {})", node_text(tree, node.left), op, node_text(tree, node.right));
}

bool valid_number(double value) { return std::isfinite(value) && value >= 0; }

}  // namespace

std::string to_string(const JoinTree& tree) {
  if (tree.root < 0 || tree.root >= static_cast<int>(tree.nodes.size())) return "<empty>";
  return node_text(tree, tree.root);
}

std::string find_defect(const JoinTree& tree, const QueryGraph& graph) {
  const int n = static_cast<int>(tree.nodes.size());
  if (tree.root < 0 || tree.root >= n) return "root index out of range";
  if (n != 2 * graph.relation_count() - 1) return fmt::format("{} nodes for {} relations", n, graph.relation_count());
  if (tree.nodes[tree.root].set != graph.all()) return "root does not cover every relation";
  for (int i = 0; i < n; ++i) {
    const JoinNode& node = tree.nodes[i];
    if (!valid_number(node.rows) || !valid_number(node.cost)) return fmt::format("node {}: bad rows or cost", i);
    if (node.is_leaf()) {
      if (node.relation >= graph.relation_count()) return fmt::format("node {}: unknown relation", i);
      if (node.set != rel_bit(node.relation)) return fmt::format("node {}: leaf set mismatch", i);
      if (node.left != -1 || node.right != -1) return fmt::format("node {}: leaf with children", i);
      continue;
    }
    if (node.left < 0 || node.left >= i || node.right < 0 || node.right >= i) {
      return fmt::format("node {}: child index not before its parent", i);
    }
    const RelSet l = tree.nodes[node.left].set;
    const RelSet r = tree.nodes[node.right].set;
    if ((l & r) != 0) return fmt::format("node {}: inputs overlap", i);
    if ((l | r) != node.set) return fmt::format("node {}: set is not the union of its inputs", i);
    if (node.edges_applied != graph.edges_between(l, r)) return fmt::format("node {}: wrong edges_applied", i);
    if (!graph.legal_join(l, r)) return fmt::format("node {}: a member joined illegally", i);
    const bool member = tree.nodes[node.right].is_leaf() && graph.is_semi_member(tree.nodes[node.right].relation);
    if (node.semi != member || node.left_join != (member && graph.is_left_member(tree.nodes[node.right].relation)))
      return fmt::format("node {}: mislabelled member join", i);
  }
  // Sizes add up (2n-1 nodes, root = all, inputs disjoint): reachable leaves are exactly the n relations, and with
  // children before parents every node is used once unless some node is unreachable — check that too.
  std::vector<int> uses(n, 0);
  for (const JoinNode& node : tree.nodes) {
    if (node.is_leaf()) continue;
    ++uses[node.left];
    ++uses[node.right];
  }
  for (int i = 0; i < n; ++i) {
    if (uses[i] != (i == tree.root ? 0 : 1)) return fmt::format("node {} is used {} times", i, uses[i]);
  }
  return "";
}

int count_cross_products(const JoinTree& tree, const QueryGraph& graph) {
  int count = 0;
  for (const JoinNode& node : tree.nodes) {
    if (!node.is_leaf() && !graph.are_joined(tree.nodes[node.left].set, tree.nodes[node.right].set)) ++count;
  }
  return count;
}

}  // namespace hindsight::joinorder
