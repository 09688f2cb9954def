#pragma once
#include "planner/rewrite/rewrite_rule.hpp"

namespace hindsight {

/// Normalizes conjunct lists of filters, joins and scans: nested ANDs split into conjuncts,
/// duplicates removed, comparisons with the constant on the left turned around (1 < a -> a > 1).
class SimplifyPredicates : public RewriteRule {
 public:
  const char* name() const override { return "simplify_predicates"; }
  bool apply(LogicalPtr& plan, RewriteContext& ctx) override;
};

}  // namespace hindsight
