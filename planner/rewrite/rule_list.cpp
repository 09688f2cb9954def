// The one place that lists the logical rewrite rules, in the order the driver runs them.
#include "planner/rewrite/rule_driver.hpp"
#include "planner/rewrite/rules/constant_folding.hpp"
#include "planner/rewrite/rules/magic_set_keys.hpp"
#include "planner/rewrite/rules/prune_columns.hpp"
#include "planner/rewrite/rules/push_down_filters.hpp"
#include "planner/rewrite/rules/reorder_inner_joins.hpp"
#include "planner/rewrite/rules/simplify_outer_joins.hpp"
#include "planner/rewrite/rules/simplify_predicates.hpp"

namespace hindsight {

std::vector<std::unique_ptr<RewriteRule>> make_rewrite_rules() {
  std::vector<std::unique_ptr<RewriteRule>> rules;
  rules.push_back(std::make_unique<ConstantFolding>());
  rules.push_back(std::make_unique<SimplifyPredicates>());
  rules.push_back(std::make_unique<SimplifyOuterJoins>());
  rules.push_back(std::make_unique<PushDownFilters>());
  rules.push_back(std::make_unique<MagicSetKeys>());
  rules.push_back(std::make_unique<ReorderInnerJoins>());
  rules.push_back(std::make_unique<PruneColumns>());
  return rules;
}

}  // namespace hindsight
