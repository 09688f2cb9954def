#pragma once
#include "planner/rewrite/rewrite_rule.hpp"

namespace hindsight {

/// Moves filter conjuncts as close to the scans as their columns allow: through projections
/// (substituting the projected expressions), sorts, unions, aggregates (conjuncts on grouping
/// columns), into the preserved side of outer joins, into inner-join conditions, and finally into
/// the table scans. One-sided join conditions move into the join's inputs where that keeps the
/// join's meaning (inner: both sides; left: right side; semi/anti: right side; semi: left side).
class PushDownFilters : public RewriteRule {
 public:
  const char* name() const override { return "push_down_filters"; }
  bool apply(LogicalPtr& plan, RewriteContext& ctx) override;
};

}  // namespace hindsight
