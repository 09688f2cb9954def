#include "planner/rewrite/rule_driver.hpp"

#include <chrono>

namespace hindsight {

RuleDriver::RuleDriver(std::set<std::string> disabled, int max_passes)
    : rules_(make_rewrite_rules()), disabled_(std::move(disabled)), max_passes_(max_passes) {}

std::vector<RuleStats> RuleDriver::run(LogicalPtr& plan, RewriteContext& ctx) {
  std::vector<RuleStats> stats;
  for (auto& r : rules_) stats.push_back({r->name(), 0, 0});
  for (int pass = 0; pass < max_passes_; ++pass) {
    bool changed = false;
    for (size_t i = 0; i < rules_.size(); ++i) {
      if (disabled_.count(rules_[i]->name())) continue;
      auto t0 = std::chrono::steady_clock::now();
      bool c = rules_[i]->apply(plan, ctx);
      stats[i].elapsed_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (c) {
        stats[i].applications++;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return stats;
}

std::vector<std::string> rewrite_rule_names() {
  std::vector<std::string> names;
  for (auto& r : make_rewrite_rules()) names.push_back(r->name());
  return names;
}

}  // namespace hindsight
