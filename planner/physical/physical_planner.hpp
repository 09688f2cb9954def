#pragma once
#include <functional>

#include "planner/physical/physical_operator.hpp"

namespace hindsight {

struct PhysicalPlannerOptions {
  int workers = 1;
  /// A build side estimated at or below this many rows is broadcast instead of repartitioning
  /// both sides (first-version rule; the cost-based optimizer replaces it).
  double broadcast_max_rows = 200000;
  /// ... and only when its estimated size times the number of workers (each holds a copy) stays
  /// under this share of the query's memory budget.
  int64_t memory_limit = 8LL << 30;
  double broadcast_memory_share = 0.125;
};

/// A link from a logical node to a physical node that implements it (mapper stage "physical").
struct PhysicalLink {
  NodeId logical;
  NodeId physical;
};

/// The first, rule-of-thumb physical planner: joins in the order the logical plan has them, the
/// smaller-looking input as the build side, exchanges only where the required distribution is not
/// already delivered (co-located and reference-table joins need none).
class PhysicalPlanner {
 public:
  PhysicalPlanner(PlanContext& ctx, PhysicalPlannerOptions options, std::function<TablePtr(const TableDef&)> table)
      : ctx_(ctx), options_(options), table_(std::move(table)) {}
  /// Plans `root`; the result delivers all rows on one worker (Single or Replicated).
  PhysicalPtr plan(const LogicalOperator& root);
  /// Plans a materialized CTE's body: its rows stay where they are produced (no gather).
  PhysicalPtr plan_cte(const LogicalOperator& root) { return plan_node(root); }
  const std::vector<PhysicalLink>& links() const { return links_; }

 private:
  PhysicalPtr plan_node(const LogicalOperator& op);
  PhysicalPtr plan_join(const LogicalOperator& op);
  PhysicalPtr plan_aggregate(const LogicalOperator& op);
  PhysicalPtr plan_sort_limit(const LogicalOperator& op);
  PhysicalPtr exchange(PhysicalPtr child, ExchangeKind kind, std::vector<ColumnId> keys = {});
  PhysicalPtr gather_if_needed(PhysicalPtr child);
  bool fits_broadcast(const PhysicalOperator& build) const;
  template <class T>
  std::unique_ptr<T> make(const LogicalOperator* from) {
    auto p = std::make_unique<T>(ctx_.next_node_id());
    if (from) {
      p->logical_id = from->id;
      p->estimated_rows = from->estimated_rows;
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
