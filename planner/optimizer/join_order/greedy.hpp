#pragma once
#include "planner/optimizer/join_order/cardinality.hpp"
#include "planner/optimizer/join_order/cost_model.hpp"
#include "planner/optimizer/join_order/join_tree.hpp"
#include "planner/optimizer/join_order/query_graph.hpp"

namespace hindsight::joinorder {

/// Greedy Operator Ordering (Fegaras 1998) for graphs beyond the DP limit: start from one tree per relation and
/// repeatedly join the two current trees, linked by an edge, whose join has the fewest estimated rows (ties: the
/// cheaper join, then the lower relation numbers); each join in its cheaper orientation. Bushy, no cross products
/// while any linked pair remains; what is left (disconnected components) is joined by cross products, smallest
/// first. O(n³) CardinalityFn calls; `card` empty = the independence model. stats.ccp_pairs counts the candidate
/// pairs priced. Throws std::invalid_argument for an empty graph.
JoinTree enumerate_greedy(const QueryGraph& graph, const JoinCostModel& cost_model, const CardinalityFn& card = {});

}  // namespace hindsight::joinorder
