#pragma once
#include "planner/rewrite/rewrite_rule.hpp"

namespace hindsight {

/// Removes columns nobody above needs: unread table columns from scans, unused projections and
/// unused aggregates. The root's outputs never change.
class PruneColumns : public RewriteRule {
 public:
  const char* name() const override { return "prune_columns"; }
  bool apply(LogicalPtr& plan, RewriteContext& ctx) override;
};

}  // namespace hindsight
