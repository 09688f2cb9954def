#pragma once
#include "planner/logical/logical_operator.hpp"
#include "planner/optimizer/cardinality_model.hpp"

namespace hindsight {

/// Reorders every tree of three or more inner joins with DPccp (greedy beyond 14 relations):
/// bushy trees without cross products (unless the query has them), priced by the hash-join cost
/// model over the cardinality model's estimates. Conditions sit at the lowest join that has
/// their columns; the original join node ids are reused so the plan mapper keeps its links.
/// Outer, semi and anti joins are barriers: their inputs are ordered separately. Returns true
/// if any tree changed; estimates of the rebuilt trees are refreshed.
bool order_joins_by_cost(LogicalPtr& plan, CardinalityModel& model, PlanContext& ctx);

}  // namespace hindsight
