#pragma once
#include <algorithm>
#include <functional>

#include "planner/physical/physical_cost.hpp"
#include "planner/physical/join_ways.hpp"
#include "planner/physical/physical_operator.hpp"
#include "planner/storage/load_guard.hpp"

namespace hindsight {

struct PhysicalPlannerOptions {
  int workers = 1;
  /// Join distribution by cost (broadcast vs partitioned, physical_cost.hpp). false: the
  /// foundation planner's rule (broadcast a build side of at most broadcast_max_rows rows).
  bool cost_based = true;
  double broadcast_max_rows = 200000;
  /// ... and only when its estimated size times the number of workers (each holds a copy) stays
  /// under this share of the query's memory budget (broadcast_share()).
  int64_t memory_limit = 8LL << 30;
  double broadcast_memory_share = 0.125;
  /// The operators spill what exceeds memory_limit (`spill = on`): a join way estimated over the limit is priced
  /// with spill_cost rather than avoided (way_within_budget).
  bool spill = false;
  /// The share of the budget a broadcast's copies may take: broadcast_memory_share is a margin against a low
  /// estimate, which would fail the query; with `spill` an underestimated broadcast spills instead, so half the
  /// budget (the margin way_within_budget keeps for a broadcast beyond the share). The join order and the join
  /// planner both read this, so the order is chosen with the ways the planner will take.
  double broadcast_share() const { return spill ? std::max(broadcast_memory_share, 0.5) : broadcast_memory_share; }
  /// The limits of the statement being planned: charged for the table columns its scans load (may be null).
  LoadGuard* load_guard = nullptr;
};

/// A link from a logical node to a physical node that implements it (mapper stage "physical").
struct PhysicalLink {
  NodeId logical;
  NodeId physical;
};

/// Logical -> physical plan: joins in the order the logical plan has them (the optimizer ordered
/// them), the input estimated smaller as the build side, exchanges only where the required
/// distribution is not already delivered (co-located joins, also through co-location mappings,
/// and reference-table joins need none); otherwise broadcast or partitioned, whichever the cost
/// model prices lower, broadcast only when the copies fit the memory budget with margin.
class PhysicalPlanner {
 public:
  PhysicalPlanner(PlanContext& ctx, PhysicalPlannerOptions options, std::function<TablePtr(const TableDef&)> table)
      : ctx_(ctx), options_(options), table_(std::move(table)) {}
  /// Plans `root`; the result delivers all rows on one worker (Single or Replicated).
  PhysicalPtr plan(const LogicalOperator& root);
  /// Plans a materialized CTE's body: its rows stay where they are produced (no gather).
  PhysicalPtr plan_cte(const LogicalOperator& root) { return plan_node(root); }
  const std::vector<PhysicalLink>& links() const { return links_; }
  /// The cost model's parameters for this plan (workers, memory budget): the ones it chose by.
  CostModelOptions cost_options() const;

 private:
  /// `limit_hint` >= 0: a LIMIT (plus offset) sits above `op` with only projections between, so a scan may stop
  /// after that many rows if its connector accepts the limit.
  PhysicalPtr plan_node(const LogicalOperator& op, int64_t limit_hint = -1);
  /// A base-table scan through its connector's TableScanBuilder (planner/storage/connector): conjuncts it refuses stay
  /// in a Filter above the scan.
  PhysicalPtr plan_get(const LogicalGet& g, int64_t limit_hint);
  PhysicalPtr plan_join(const LogicalOperator& op);
  PhysicalPtr plan_aggregate(const LogicalOperator& op);
  PhysicalPtr plan_sort_limit(const LogicalOperator& op);
  /// `buckets` (Repartition): 0 = one per worker, else hash into that many buckets.
  PhysicalPtr exchange(PhysicalPtr child, ExchangeKind kind, std::vector<ColumnId> keys = {}, int buckets = 0);
  PhysicalPtr gather_if_needed(PhysicalPtr child);
  bool fits_broadcast(const PhysicalOperator& build) const;
  /// Under the memory budget: `chosen` when its estimated peak (memory_estimate.hpp: the join's subtree, its
  /// exchange buffers and tables alive together) fits `memory_limit`, else the cheapest of `ways` that fits
  /// (a broadcast beyond broadcast_memory_share may be added to `ways` for that, at most half the budget);
  /// when none fits, the one with the lowest estimated peak (`chosen` on a tie), or with `spill` the one whose cost
  /// plus spill_cost(estimated peak - limit) is lowest. `probe` and `build` are lent to stand-in trees and given
  /// back.
  size_t way_within_budget(std::vector<JoinWayOption>& ways, size_t chosen, const JoinSides& sides, PhysicalPtr& probe,
                           PhysicalPtr& build, double out_rows);
  template <class T>
  std::unique_ptr<T> make(const LogicalOperator* from) {
    auto p = std::make_unique<T>(ctx_.next_node_id());
    if (from) {
      p->logical_id = from->id;
      p->estimated_rows = from->estimated_rows;
      p->estimate_source = from->estimate_source;
      p->observed_row_bytes = from->observed_row_bytes;
      links_.push_back({from->id, p->id});
    }
    return p;
  }

  PlanContext& ctx_;
  PhysicalPlannerOptions options_;
  std::function<TablePtr(const TableDef&)> table_;
  std::vector<PhysicalLink> links_;
};

}  // namespace hindsight
