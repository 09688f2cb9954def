#pragma once
#include "planner/logical/logical_operator.hpp"
#include "planner/optimizer/cardinality_model.hpp"
#include "planner/physical/physical_planner.hpp"

namespace hindsight {

/// Reorders every region of three or more relations holding an inner join with DPccp (greedy beyond 14
/// relations): bushy trees without cross products (unless the query has them), priced by the hash-join cost
/// model over the cardinality model's estimates. A region is a tree of inner joins and of the semi, anti and
/// null-aware anti joins over it (on their left side) whose conditions read that side: each such join's right
/// input is one relation of the graph, joined only by it, as its right input, above every relation its conditions
/// read (docs/join-order.md). Conditions sit at the lowest join that has their columns; the original join node ids
/// are reused so the plan mapper keeps its links. Outer joins are barriers: their inputs are ordered separately.
/// Returns true if any tree changed; estimates of the rebuilt trees are refreshed.
///
/// With `physical.workers` > 1 the order is aware of distribution (docs/join-order.md, "Distributions"): DPccp keeps
/// per relation set the cheapest plan for each interesting distribution, prices every join by the ways its inputs
/// can meet (join_way_options, the physical planner's own costs), and fixes each rebuilt join's way and sides
/// (LogicalJoin::way) so that the physical planner realizes the plan it priced. At one worker: rows alone, as before.
bool order_joins_by_cost(LogicalPtr& plan, CardinalityModel& model, PlanContext& ctx,
                         const PhysicalPlannerOptions& physical = {});

/// Per condition of an inner-join tree, the bit set (bit i = leaves[i]) of the inputs whose
/// columns it reads: the join graph's hyperedges.
std::vector<uint64_t> condition_inputs(const std::vector<const LogicalOperator*>& leaves,
                                       const std::vector<const Expr*>& conditions);

/// Whether condition k (reading the inputs `touched`) counts inside the relation set `set` of a tree
/// of `leaf_count` inputs, as the enumerator's look-up by join-set signature counts it: every
/// condition for the whole tree, else those reading two inputs or more, all of them in the set.
bool condition_inside(uint64_t touched, uint64_t set, size_t leaf_count);

}  // namespace hindsight
