#include "planner/optimizer/join_order/cardinality.hpp"

namespace hindsight::joinorder {

double estimate_cardinality(const QueryGraph& graph, RelSet set) {
  if (rel_count(set) == 1) return graph.relation(lowest_rel(set)).cardinality;
  // A semi member adds no rows of its own: its edge's selectivity is the share of the left rows it keeps.
  double rows = 1;
  for_each_rel(set & ~graph.semi_members(), [&](int rel) { rows *= graph.relation(rel).cardinality; });
  for (const JoinEdge& edge : graph.edges()) {
    if (is_subset(edge.relations(), set)) rows *= edge.selectivity;
  }
  return rows;
}

const CardinalityEstimator::Entry& CardinalityEstimator::lookup(RelSet set) {
  auto it = memo_.find(set);
  if (it != memo_.end()) return it->second;
  Entry entry{0, CardinalitySource::kModel};
  std::optional<double> observed = override_ ? override_(set) : std::nullopt;
  if (observed) {
    entry = Entry{*observed, CardinalitySource::kOverride};
  } else {
    entry.rows = estimate_cardinality(graph_, set);
  }
  return memo_.emplace(set, entry).first->second;
}

double CardinalityEstimator::estimate(RelSet set) { return lookup(set).rows; }

CardinalitySource CardinalityEstimator::source(RelSet set) { return lookup(set).source; }

}  // namespace hindsight::joinorder
