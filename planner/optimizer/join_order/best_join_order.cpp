#include "planner/optimizer/join_order/best_join_order.hpp"

#include "planner/optimizer/join_order/dpccp.hpp"
#include "planner/optimizer/join_order/greedy.hpp"

namespace hindsight::joinorder {

JoinTree best_join_order(const QueryGraph& graph, const JoinCostModel& cost_model, const CardinalityFn& card,
                         int dp_limit, const PropertyModel* properties) {
  if (graph.relation_count() <= dp_limit) return enumerate_dpccp(graph, cost_model, card, properties);
  return enumerate_greedy(graph, cost_model, card);
}

}  // namespace hindsight::joinorder
