#include "planner/optimizer/join_order/cardinality.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace hindsight::joinorder {

namespace {

/// Edges grouped by the relations they reference: one group is one factor of the independence product (a join
/// on two keys is two edges over the same pair).
std::map<RelSet, std::vector<int>> edge_groups(const QueryGraph& graph) {
  std::map<RelSet, std::vector<int>> groups;
  for (int e = 0; e < static_cast<int>(graph.edges().size()); ++e) groups[graph.edges()[e].relations()].push_back(e);
  return groups;
}

double product(const QueryGraph& graph, RelSet set, const std::map<RelSet, double>* learned) {
  if (rel_count(set) == 1) return graph.relation(lowest_rel(set)).cardinality;
  // A semi member adds no rows of its own: its edge's selectivity is the share of the left rows it keeps.
  double rows = 1;
  for_each_rel(set & ~graph.semi_members(), [&](int rel) { rows *= graph.relation(rel).cardinality; });
  std::set<RelSet> applied;
  for (const JoinEdge& edge : graph.edges()) {
    const RelSet r = edge.relations();
    if (!is_subset(r, set)) continue;
    if (learned) {
      auto it = learned->find(r);
      if (it != learned->end()) {
        if (applied.insert(r).second) rows *= it->second;
        continue;
      }
    }
    rows *= edge.selectivity;
  }
  return rows;
}

}  // namespace

double estimate_cardinality(const QueryGraph& graph, RelSet set) { return product(graph, set, nullptr); }

void CardinalityEstimator::learn() {
  learned_ready_ = true;
  if (!override_ || graph_.relation_count() > kMaxLearningRelations) return;
  // Every connected, complete set of two or more relations (what the enumerators may build), asked once.
  std::set<RelSet> seen;
  std::vector<RelSet> frontier;
  for (int r = 0; r < graph_.relation_count(); ++r) {
    seen.insert(rel_bit(r));
    frontier.push_back(rel_bit(r));
  }
  while (!frontier.empty()) {
    const RelSet s = frontier.back();
    frontier.pop_back();
    for_each_rel(graph_.neighbourhood(s), [&](int r) {
      const RelSet grown = s | rel_bit(r);
      if (seen.insert(grown).second) frontier.push_back(grown);
    });
    if (seen.size() > kMaxLearningSets) return;  // too many to ask: the model alone, as before
  }
  std::map<RelSet, double> observed;
  for (RelSet s : seen) {
    if (rel_count(s) < 2 || !graph_.is_complete(s)) continue;
    std::optional<ObservedCardinality> o = override_(s);
    if (o && !o->lower_bound) {
      observed.emplace(s, o->rows);
      memo_.emplace(s, Entry{o->rows, CardinalitySource::kOverride});
      continue;
    }
    asked_.insert(s);
    if (o) bounds_.emplace(s, o->rows);
  }
  auto rows_of = [&](RelSet s) -> std::optional<double> {
    if (rel_count(s) == 1) return graph_.relation(lowest_rel(s)).cardinality;
    auto it = observed.find(s);
    return it == observed.end() ? std::nullopt : std::optional<double>(it->second);
  };
  // A group of edges over the relations R learns its selectivity from an observed set U holding R and the set
  // T = U minus one relation x of R, known too (observed, or x's partner alone), when only that group's edges
  // join x to T: selectivity = rows(U) / (rows(T) x rows(x)), or rows(U) / rows(T) for a member x (a semi join
  // keeps a share of the left rows, a LEFT join multiplies them). The smallest such U (then the lowest) wins: the
  // observation closest to the edge.
  // The selectivity group `r` shows in the smallest set of `sets` (exact answers, or lower bounds) over a T known
  // exactly; nullopt when none does.
  auto selectivity_in = [&](RelSet r, const std::map<RelSet, double>& sets) {
    std::optional<std::pair<RelSet, double>> best;
    for (const auto& set_entry : sets) {  // ascending by set: the first of the fewest relations wins
      // Named copies, not structured bindings: the lambda below captures them (clang before 16 cannot capture a
      // structured binding, and the fuzz build uses clang).
      const RelSet u = set_entry.first;
      const double u_rows = set_entry.second;
      if (!is_subset(r, u) || (best && rel_count(u) >= rel_count(best->first))) continue;
      for_each_rel(r, [&](int x) {
        if (best && best->first == u) return;
        const RelSet t = u & ~rel_bit(x);
        if (t == 0 || !graph_.is_complete(t) || !graph_.is_connected(t)) return;
        const std::vector<int> crossing = graph_.edges_between(t, rel_bit(x));
        if (crossing.empty() || std::any_of(crossing.begin(), crossing.end(),
                                            [&](int e) { return graph_.edges()[e].relations() != r; }))
          return;
        const std::optional<double> t_rows = rows_of(t);
        const double x_rows = graph_.is_semi_member(x) ? 1.0 : graph_.relation(x).cardinality;
        if (!t_rows || *t_rows <= 0 || x_rows <= 0) return;
        best.emplace(u, u_rows / (*t_rows * x_rows));
      });
    }
    return best ? std::optional<double>(best->second) : std::nullopt;
  };
  for (const auto& group_entry : edge_groups(graph_)) {
    const RelSet r = group_entry.first;
    if (std::optional<double> sel = selectivity_in(r, observed)) {
      learned_.emplace(r, *sel);
      continue;
    }
    if (bounds_.empty()) continue;
    // Only a bound: at least what it shows, never less than the model's selectivity (a bound of a set cut short
    // early says little).
    double model = 1;
    for (int e : group_entry.second) model *= graph_.edges()[static_cast<size_t>(e)].selectivity;
    if (std::optional<double> floor = selectivity_in(r, bounds_); floor && *floor > model) learned_.emplace(r, *floor);
  }
}

const CardinalityEstimator::Entry& CardinalityEstimator::lookup(RelSet set) {
  auto it = memo_.find(set);
  if (it != memo_.end()) return it->second;
  if (rel_count(set) >= 2 && !learned_ready_) {
    learn();
    it = memo_.find(set);
    if (it != memo_.end()) return it->second;
  }
  Entry entry{0, CardinalitySource::kModel};
  // learn() asked the override for every set it could; a set it did not ask (a disconnected one, or past its
  // limits) is asked now.
  std::optional<ObservedCardinality> observed = override_ && !asked_.count(set) ? override_(set) : std::nullopt;
  if (observed && !observed->lower_bound) {
    entry = Entry{observed->rows, CardinalitySource::kOverride};
  } else {
    entry.rows = learned_.empty() ? estimate_cardinality(graph_, set) : product(graph_, set, &learned_);
    // A lower bound only raises (it is the source when it decides: also when the selectivity it taught gives it).
    auto bound = bounds_.find(set);
    const double at_least = observed ? observed->rows : bound != bounds_.end() ? bound->second : 0;
    if (at_least > 0 && at_least >= entry.rows) entry = Entry{at_least, CardinalitySource::kOverride};
  }
  return memo_.emplace(set, entry).first->second;
}

double CardinalityEstimator::estimate(RelSet set) { return lookup(set).rows; }

CardinalitySource CardinalityEstimator::source(RelSet set) { return lookup(set).source; }

}  // namespace hindsight::joinorder
