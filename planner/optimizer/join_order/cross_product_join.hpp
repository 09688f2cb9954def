#pragma once
#include <vector>

#include "planner/optimizer/join_order/cardinality.hpp"
#include "planner/optimizer/join_order/cost_model.hpp"
#include "planner/optimizer/join_order/join_tree.hpp"
#include "planner/optimizer/join_order/query_graph.hpp"

namespace hindsight::joinorder {

/// Joins the subtrees of `tree` rooted at `roots` (pairwise disjoint sets, e.g. the plans of the connected
/// components) by cross products, smallest first: sorted by rows ascending and joined left-deep, each join in its
/// cheaper orientation. Counts the cross products in tree.stats and returns the new root (roots[0] for one root).
int join_by_cross_products(JoinTree& tree, std::vector<int> roots, const QueryGraph& graph,
                           const JoinCostModel& cost_model, const CardinalityFn& card);

}  // namespace hindsight::joinorder
