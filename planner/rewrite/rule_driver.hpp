#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "planner/rewrite/rewrite_rule.hpp"

namespace hindsight {

/// How one rule fared in one rewrite run.
struct RuleStats {
  std::string name;
  int applications = 0;  ///< passes in which it changed the plan
  double elapsed_ms = 0;
};

/// Applies the rules of rule_list.cpp in order, pass after pass, until no rule changes the plan
/// or `max_passes` is reached. Rules named in `disabled` are skipped. Each rule is timed.
class RuleDriver {
 public:
  RuleDriver(std::set<std::string> disabled, int max_passes = 8);
  std::vector<RuleStats> run(LogicalPtr& plan, RewriteContext& ctx);

 private:
  std::vector<std::unique_ptr<RewriteRule>> rules_;
  std::set<std::string> disabled_;
  int max_passes_;
};

/// The rules, in the order they run (rule_list.cpp is the one place that lists them).
std::vector<std::unique_ptr<RewriteRule>> make_rewrite_rules();
/// Names of every rule, for validating `SET disabled_rules`.
std::vector<std::string> rewrite_rule_names();

}  // namespace hindsight
