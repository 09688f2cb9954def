#include "planner/optimizer/join_order/cross_product_join.hpp"

#include <algorithm>
#include <stdexcept>

namespace hindsight::joinorder {

int join_by_cross_products(JoinTree& tree, std::vector<int> roots, const QueryGraph& graph,
                           const JoinCostModel& cost_model, const CardinalityFn& card) {
  if (roots.empty()) throw std::invalid_argument("join_by_cross_products: no inputs");
  // Stable on ties so that equal-sized components keep their lowest-relation order: plans stay deterministic.
  std::stable_sort(roots.begin(), roots.end(),
                   [&](int a, int b) { return tree.nodes[a].rows < tree.nodes[b].rows; });
  int acc = roots[0];
  for (size_t i = 1; i < roots.size(); ++i) {
    const JoinNode& a = tree.nodes[acc];
    const JoinNode& b = tree.nodes[roots[i]];
    const double rows = card(a.set | b.set);
    // Components are complete sets (a semi member is linked to the relations it requires), so both orientations
    // are inner joins; the legal variant only keeps a lone semi member from ever being crossed.
    const std::optional<OrientedJoin> legal =
        cheaper_legal_orientation(cost_model, graph, a.set, a.rows, a.cost, b.set, b.rows, b.cost, rows);
    if (!legal) throw std::invalid_argument("join_by_cross_products: a semi member without its required relations");
    const OrientedJoin join = *legal;
    const int left = join.swapped ? roots[i] : acc;
    const int right = join.swapped ? acc : roots[i];
    acc = tree.add_join(graph, left, right, rows, join.cost);
    ++tree.stats.cross_products;
  }
  return acc;
}

}  // namespace hindsight::joinorder
