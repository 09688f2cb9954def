#pragma once
#include <string>

#include "planner/logical/logical_operator.hpp"

namespace hindsight {

/// What rules may use besides the plan: the column registry (new columns, lineage) and a hook
/// for "this node was replaced by that one" (mapper stage rewrite:<rule>).
struct RewriteContext {
  PlanContext* plan_ctx = nullptr;
  /// Called with (old node id, new node id, rule name) whenever a rule replaces a node.
  std::function<void(NodeId, NodeId, const char*)> on_replace;
};

/// One logical rewrite. apply() returns true when it changed the plan.
class RewriteRule {
 public:
  virtual ~RewriteRule() = default;
  virtual const char* name() const = 0;
  virtual bool apply(LogicalPtr& plan, RewriteContext& ctx) = 0;
};

}  // namespace hindsight
