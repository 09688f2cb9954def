#pragma once
#include "planner/optimizer/join_order/cardinality.hpp"
#include "planner/optimizer/join_order/cost_model.hpp"
#include "planner/optimizer/join_order/join_tree.hpp"
#include "planner/optimizer/join_order/query_graph.hpp"

namespace hindsight::joinorder {

/// Optimal bushy join tree without cross products by DPccp (Moerkotte & Neumann, VLDB 2006): dynamic programming
/// over the csg–cmp pairs of the query graph — every pair (S1, S2) of disjoint connected subgraphs linked by an edge
/// is enumerated exactly once, in an order where the best plans of S1 and S2 are final when the pair is priced.
/// Both orientations of each pair are priced. Each connected component is planned on its own; the component plans
/// are then joined by cross products, smallest first (stats.cross_products counts them).
///
/// `card` gives the rows of a relation set and is called once per planned set; empty = the independence model
/// (CardinalityEstimator without override). stats.ccp_pairs counts the csg–cmp pairs. Time grows with the number of
/// pairs: O(n³) for chains, O(n·2ⁿ) for stars, O(3ⁿ) for cliques; memory with the number of connected subgraphs.
/// Throws std::invalid_argument for an empty graph.
///
/// With `properties` (interesting properties), every set keeps the cheapest plan per klass (up to max_plans), joins
/// are priced by the PropertyModel for every pair of input plans and both orientations, and each component's
/// cheapest plan is taken; `cost_model` then only prices the cross products between components.
JoinTree enumerate_dpccp(const QueryGraph& graph, const JoinCostModel& cost_model, const CardinalityFn& card = {},
                         const PropertyModel* properties = nullptr);

}  // namespace hindsight::joinorder
