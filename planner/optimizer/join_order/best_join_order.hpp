#pragma once
#include "planner/optimizer/join_order/cardinality.hpp"
#include "planner/optimizer/join_order/cost_model.hpp"
#include "planner/optimizer/join_order/join_tree.hpp"
#include "planner/optimizer/join_order/query_graph.hpp"

namespace hindsight::joinorder {

/// Relation count up to which best_join_order() uses DPccp. A 14-way clique is the worst case (~2.4 million
/// csg–cmp pairs); chains and stars of that size are planned in well under a millisecond.
inline constexpr int kDefaultDpLimit = 14;

/// The planner's entry point: enumerate_dpccp() for graphs of at most `dp_limit` relations, enumerate_greedy()
/// beyond. tree.stats.algorithm says which ran. `card` empty = the independence model.
/// `properties`: DPccp with interesting properties (enumerate_dpccp); greedy ignores them.
JoinTree best_join_order(const QueryGraph& graph, const JoinCostModel& cost_model, const CardinalityFn& card = {},
                         int dp_limit = kDefaultDpLimit, const PropertyModel* properties = nullptr);

}  // namespace hindsight::joinorder
