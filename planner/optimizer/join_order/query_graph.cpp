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

int QueryGraph::add_semi_member(double cardinality, RelSet required, double selectivity, int64_t tag, int edge_tag) {
  if (required == 0) throw std::invalid_argument("query graph: a semi member requires no relation");
  if (!is_subset(required, all())) throw std::invalid_argument("query graph: a semi member requires an unknown relation");
  if ((required & semi_members_) != 0) throw std::invalid_argument("query graph: a member requires a member");
  if (!std::isfinite(selectivity) || selectivity < 0) {
    throw std::invalid_argument("query graph: edge selectivity must be finite and >= 0");
  }
  const int rel = add_relation(cardinality, tag);
  relations_.back().semi = true;
  relations_.back().required = required;
  semi_members_ |= rel_bit(rel);
  const int e = add_edge(required, rel_bit(rel), selectivity, edge_tag);
  edges_[e].semi = true;
  return rel;
}

int QueryGraph::add_left_member(double cardinality, RelSet required, double fanout, int64_t tag, int edge_tag) {
  if (!(fanout >= 1) || !std::isfinite(fanout)) throw std::invalid_argument("query graph: a LEFT member's fanout must be finite and >= 1");
  const int rel = add_semi_member(cardinality, required, fanout, tag, edge_tag);
  relations_.back().left = true;
  left_members_ |= rel_bit(rel);
  return rel;
}

bool QueryGraph::is_complete(RelSet set) const {
  bool complete = true;
  for_each_rel(set & semi_members_, [&](int rel) { complete &= is_subset(relations_[rel].required, set); });
  return complete;
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
