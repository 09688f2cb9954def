#pragma once
// The cost model of the physical plan: CPU work per operator + memory pressure + network.
//
//   total = cpu                                  (row-touches, summed over workers)
//         + network_byte_weight · network_bytes  (bytes through exchanges)
//         + memory_byte_weight  · memory_bytes   (bytes held at peak, summed over workers)
//         + overflow_penalty    if memory_bytes > memory_limit (the plan would fail),
//           or spill_cost(memory_bytes - memory_limit) instead when the operators spill (spill = on)
//
// Work is summed over workers rather than divided by them: a cluster pays for every worker's
// CPU, and a copy per worker (a broadcast build) costs W times as much as one partitioned copy.
// Row widths come from the column types (see row_width). Per-operator formulas are in
// physical_cost.cpp next to the code.
#include <vector>

#include "planner/logical/plan_context.hpp"
#include "planner/physical/physical_operator.hpp"

namespace hindsight {

struct CostModelOptions {
  int workers = 1;
  int64_t memory_limit = 8LL << 30;
  double hash_build_row = 2.0;         ///< inserting a row into a hash table, in row-touches
  double network_byte_weight = 0.05;   ///< a 40-byte row moved ≈ 2 row-touches
  double memory_byte_weight = 0.001;   ///< holding 1 MB ≈ 1,000 row-touches
  double overflow_penalty = 1e15;      ///< a plan estimated over the memory budget
  /// The operators spill what exceeds memory_limit (`SET spill = on`): memory over the budget costs spill_cost of
  /// the excess, not overflow_penalty. With the penalty, a join order with fewer joins estimated over the budget
  /// won at any CPU price, though every one of them would spill rather than fail.
  bool spill = false;
};

/// Bytes of one value of `type` in a row: 24 for VARCHAR (payload guess), 1 for BOOLEAN, 8 otherwise.
double type_width(const DataType& type);
/// Estimated bytes of one row of `columns`: 8 for fixed-width types, 1 for BOOLEAN, 24 for
/// VARCHAR (payload guess) plus 16 bytes of per-row overhead in hash tables and buffers.
double row_width(const std::vector<ColumnId>& columns, const PlanContext& ctx);
/// The row width of a node's output: from the bytes per row an observation saw when there is one
/// (plus the same per-row overhead), else from the column types.
double row_width(const PhysicalOperator& op, const PlanContext& ctx);

/// The cost of a hash join alone. Broadcast: every worker builds the whole build side.
///   cpu    = probe_rows + out_rows + hash_build_row · build_rows · (broadcast ? W : 1)
///   memory = build_rows · build_width · (broadcast ? W : 1)
PlanCost hash_join_cost(double probe_rows, double build_rows, double out_rows, double build_width, bool broadcast,
                        const CostModelOptions& o);

/// The cost of a hash aggregate alone: one hash-table update per input row; the table holds one entry per group.
///   cpu = in_rows · 1.5 + out_rows,  memory = out_rows · out_width
PlanCost hash_aggregate_cost(double in_rows, double out_rows, double out_width, const CostModelOptions& o);

/// The cost of an exchange moving `rows` rows of `width` bytes.
///   Gather, Repartition: network = rows · width (every row crosses once; with W workers a share
///                        1/W would stay local, which the model ignores for simplicity)
///   Broadcast:           network = rows · width · W
///   cpu = rows (serializing) plus rows · W for a broadcast's receivers
PlanCost exchange_cost(ExchangeKind kind, double rows, double width, const CostModelOptions& o);

/// What spilling adds to a plan whose peak memory is `excess_bytes` over its memory limit (0 when it fits): the
/// spilled data is written and read back, about twice the excess (a hash join that spills partitions both its
/// sides; measured at SF 1: 116-188 MB written for 50-100 MB over the limit), at about 1.5 ms of CPU per MB written
/// (a lineitem-partsupp join spilling 170 MB took 250 ms more CPU), i.e. 0.04 row-touches a byte written.
double spill_cost(double excess_bytes);

/// Weighted total of cpu, network and memory (with the overflow penalty, or with `spill` the spill cost).
double total_cost(PlanCost& c, const CostModelOptions& o);

/// Sets own_cost and subtree_cost on every node of the plan.
void annotate_costs(PhysicalOperator& root, const PlanContext& ctx, const CostModelOptions& o);

}  // namespace hindsight
