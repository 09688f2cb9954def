#include "planner/optimizer/join_order/greedy.hpp"

#include <stdexcept>
#include <vector>

#include "planner/optimizer/join_order/cross_product_join.hpp"

namespace hindsight::joinorder {

JoinTree enumerate_greedy(const QueryGraph& graph, const JoinCostModel& cost_model, const CardinalityFn& card) {
  if (graph.relation_count() == 0) throw std::invalid_argument("enumerate_greedy: empty query graph");
  CardinalityEstimator model(graph);
  const CardinalityFn rows_of = card ? card : model.as_function();

  JoinTree tree;
  tree.stats.algorithm = JoinOrderAlgorithm::kGreedy;
  std::vector<int> current;  // roots of the trees built so far, in order of their lowest relation
  for (int rel = 0; rel < graph.relation_count(); ++rel) {
    const double rows = rows_of(rel_bit(rel));
    current.push_back(tree.add_leaf(rel, rows, cost_model.leaf_cost(rel_bit(rel), rows)));
  }

  while (current.size() > 1) {
    struct Candidate {
      size_t a, b;
      double rows;
      OrientedJoin join;
    };
    bool found = false;
    Candidate best{};
    for (size_t a = 0; a < current.size(); ++a) {
      const JoinNode& na = tree.nodes[current[a]];
      const RelSet linked = graph.neighbourhood(na.set);
      for (size_t b = a + 1; b < current.size(); ++b) {
        const JoinNode& nb = tree.nodes[current[b]];
        if ((linked & nb.set) == 0) continue;
        // A semi member joins only its required relations' tree, as the right input.
        if (!graph.legal_join(na.set, nb.set) && !graph.legal_join(nb.set, na.set)) continue;
        ++tree.stats.ccp_pairs;
        const double rows = rows_of(na.set | nb.set);
        if (found && rows > best.rows) continue;
        const OrientedJoin join = *cheaper_legal_orientation(cost_model, graph, na.set, na.rows, na.cost, nb.set,
                                                             nb.rows, nb.cost, rows);
        if (!found || rows < best.rows || join.cost < best.join.cost) {
          best = Candidate{a, b, rows, join};
          found = true;
        }
      }
    }
    if (!found) break;
    const int a = current[best.a];
    const int b = current[best.b];
    const int joined = tree.add_join(graph, best.join.swapped ? b : a, best.join.swapped ? a : b, best.rows,
                                     best.join.cost);
    current[best.a] = joined;  // keeps `current` ordered by lowest relation: a < b, so min(a ∪ b) = min(a)
    current.erase(current.begin() + static_cast<std::ptrdiff_t>(best.b));
  }
  tree.root = join_by_cross_products(tree, current, graph, cost_model, rows_of);
  return tree;
}

}  // namespace hindsight::joinorder
