#include "planner/optimizer/join_order/query_graph.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace hindsight::joinorder {

int QueryGraph::add_relation(double cardinality, int64_t tag) {
  if (relation_count() >= kMaxRelations) throw std::invalid_argument("query graph: more than 64 relations");
  if (!std::isfinite(cardinality) || cardinality < 0) {
    throw std::invalid_argument("query graph: relation cardinality must be finite and >= 0");
  }
  relations_.push_back(Relation{cardinality, tag});
  adjacency_.push_back(0);
  return relation_count() - 1;
}

int QueryGraph::add_edge(RelSet left, RelSet right, double selectivity, int edge_tag) {
  if (left == 0 || right == 0) throw std::invalid_argument("query graph: an edge side is empty");
  if ((left & right) != 0) throw std::invalid_argument("query graph: the sides of an edge overlap");
  if (!is_subset(left | right, all())) throw std::invalid_argument("query graph: an edge names an unknown relation");
  if (!std::isfinite(selectivity) || selectivity < 0) {
    throw std::invalid_argument("query graph: edge selectivity must be finite and >= 0");
  }
  edges_.push_back(JoinEdge{left, right, selectivity, edge_tag});
  const RelSet rels = left | right;
  for_each_rel(rels, [&](int rel) { adjacency_[rel] |= rels & ~rel_bit(rel); });
  return static_cast<int>(edges_.size()) - 1;
}

RelSet QueryGraph::neighbourhood(RelSet set) const {
  RelSet result = 0;
  for_each_rel(set, [&](int rel) { result |= adjacency_[rel]; });
  return result & ~set;
}

bool QueryGraph::is_connected(RelSet set) const {
  if (set == 0) return false;
  RelSet reached = rel_bit(lowest_rel(set));
  RelSet frontier = reached;
  while (frontier != 0) {
    frontier = neighbourhood(frontier) & set & ~reached;
    reached |= frontier;
  }
  return reached == set;
}

std::vector<RelSet> QueryGraph::components() const {
  std::vector<RelSet> result;
  RelSet remaining = all();
  while (remaining != 0) {
    RelSet component = rel_bit(lowest_rel(remaining));
    RelSet frontier = component;
    while (frontier != 0) {
      frontier = neighbourhood(frontier) & ~component;
      component |= frontier;
    }
    result.push_back(component);
    remaining &= ~component;
  }
  return result;
}

std::vector<int> QueryGraph::edges_between(RelSet a, RelSet b) const {
  std::vector<int> result;
  const RelSet both = a | b;
  for (int e = 0; e < static_cast<int>(edges_.size()); ++e) {
    const RelSet rels = edges_[e].relations();
    if (is_subset(rels, both) && !is_subset(rels, a) && !is_subset(rels, b)) result.push_back(e);
  }
  return result;
}

std::vector<int> QueryGraph::edges_within(RelSet set) const {
  std::vector<int> result;
  for (int e = 0; e < static_cast<int>(edges_.size()); ++e) {
    if (is_subset(edges_[e].relations(), set)) result.push_back(e);
  }
  return result;
}

}  // namespace hindsight::joinorder
