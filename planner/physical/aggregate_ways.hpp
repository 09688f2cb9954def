#pragma once
// How the physical planner plans a hash aggregate over an input of a given distribution, priced: one definition
// shared by the physical planner (which plans that shape) and the join enumerator (which adds, at the root of a
// join region under an aggregate, what the aggregate will pay to get its input where it needs it).
#include <vector>

#include "planner/logical/logical_operator.hpp"
#include "planner/physical/distribution.hpp"
#include "planner/physical/physical_cost.hpp"

namespace hindsight {

enum class AggregateShape : uint8_t {
  Local,          ///< one phase where the rows are: single-instance input, or hashed on a subset of the groups
  Moved,          ///< DISTINCT aggregates: the input repartitioned on the groups (gathered without), then one phase
  PartialFinal,   ///< partial per worker, the partial states repartitioned on the groups (gathered), final
};

/// Every group already on one worker: the input runs as one instance, or it is hashed on (a non-empty subset of)
/// `groups`, by its own key or by a co-location mapping. Never for an empty `groups` over a distributed input.
bool aggregate_is_local(const Distribution& input, const std::vector<ColumnId>& groups);

/// The shape plan_aggregate gives an aggregate over `input`.
AggregateShape aggregate_shape(const Distribution& input, const std::vector<ColumnId>& groups, bool distinct);

/// Rows the partial aggregate emits: at most the input's, at most one per group and worker.
double partial_aggregate_rows(double input_rows, double out_rows, int workers);

/// Bytes per row of the partial aggregate's output (the groups, then per aggregate its partial state: AVG's sum
/// and count, otherwise one value of the result type), as row_width would count the columns plan_aggregate adds.
double partial_aggregate_width(const LogicalAggregate& a, const PlanContext& ctx);

/// What an aggregate costs, the exchange it needs included (physical_cost formulas: hash_aggregate_cost,
/// exchange_cost):
///   Local        hash_aggregate(in, out)
///   Moved        exchange(in rows, input width) + hash_aggregate(in, out)
///   PartialFinal hash_aggregate(in, partial) + exchange(partial rows, partial width) + hash_aggregate(partial, out)
/// with partial = partial_aggregate_rows(in, out, workers); the exchange gathers when there are no groups.
struct AggregateCostInputs {
  double input_rows = 0, out_rows = 0;
  double input_width = 0, partial_width = 0, out_width = 0;  ///< row_width of input, partial and output rows
  bool has_groups = true;
};
double aggregate_cost(AggregateShape shape, const AggregateCostInputs& in, const CostModelOptions& o);

}  // namespace hindsight
