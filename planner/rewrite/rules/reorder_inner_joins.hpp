#pragma once
#include "planner/rewrite/rewrite_rule.hpp"

namespace hindsight {

/// First-version join ordering: flattens each tree of inner joins and rebuilds it left-deep in the
/// written order, except that a relation connected by a join condition to those already joined is
/// taken before one that is not (no cross products unless the query has them). Conditions sit at
/// the lowest join that has all their columns. The cost-based optimizer replaces this rule.
class ReorderInnerJoins : public RewriteRule {
 public:
  const char* name() const override { return "reorder_inner_joins"; }
  bool apply(LogicalPtr& plan, RewriteContext& ctx) override;
};

}  // namespace hindsight
