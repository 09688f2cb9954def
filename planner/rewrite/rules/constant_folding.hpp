#pragma once
#include "planner/rewrite/rewrite_rule.hpp"

namespace hindsight {

/// Folds expressions whose inputs are all constants (keeping errors such as division by zero for
/// execution), simplifies AND/OR with TRUE/FALSE operands, drops TRUE conjuncts and empty filters.
class ConstantFolding : public RewriteRule {
 public:
  const char* name() const override { return "constant_folding"; }
  bool apply(LogicalPtr& plan, RewriteContext& ctx) override;
};

/// Folds one expression in place; returns true if it changed.
bool fold_constants(ExprPtr& e);

}  // namespace hindsight
