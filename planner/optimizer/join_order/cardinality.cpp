#include "planner/optimizer/join_order/cardinality.hpp"

#include <algorithm>
#include <vector>

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
    entry.rows = estimate_cardinality(graph_, set) * observed_correction(set);
  }
  return memo_.emplace(set, entry).first->second;
}

double CardinalityEstimator::observed_correction(RelSet set) {
  if (!override_ || rel_count(set) < 3) return 1;
  // Each distinct relation set R of the edges inside `set` (R a proper subset) whose rows were observed: the
  // model's product over R is replaced by what R produced, i.e. the estimate is scaled by observed(R) / model(R).
  // Only an R that holds no edge of a smaller relation set counts, so no edge is corrected twice.
  double factor = 1;
  std::vector<RelSet> seen;
  for (const JoinEdge& edge : graph_.edges()) {
    const RelSet r = edge.relations();
    if (r == set || !is_subset(r, set) || std::find(seen.begin(), seen.end(), r) != seen.end()) continue;
    seen.push_back(r);
    const bool nested = std::any_of(graph_.edges().begin(), graph_.edges().end(), [&](const JoinEdge& e) {
      return e.relations() != r && is_subset(e.relations(), r);
    });
    if (nested) continue;
    const Entry observed = lookup(r);
    if (observed.source != CardinalitySource::kOverride) continue;
    const double model = estimate_cardinality(graph_, r);
    if (model > 0 && observed.rows > 0) factor *= observed.rows / model;
  }
  return factor;
}

double CardinalityEstimator::estimate(RelSet set) { return lookup(set).rows; }

CardinalitySource CardinalityEstimator::source(RelSet set) { return lookup(set).source; }

}  // namespace hindsight::joinorder
