#include "planner/session/regression_guard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace hindsight {

bool is_demoted(const stats::PlanRecord& plan, const stats::PlanRecord& best) {
  return plan.plan_hash != best.plan_hash && plan.best_ms > best.best_ms * (1 + kGuardSlowerBy) &&
         plan.best_ms - best.best_ms >= kGuardMinDifferenceMs;
}

std::string RegressionGuardReport::describe() const {
  std::string text = fmt::format(
      "regression guard: plan {} of this query template ran in {:.1f} ms at best ({} run{}), more than {:.0f}% "
      "slower than plan {} ({:.1f} ms, {} run{})",
      demoted_plan, demoted_ms, demoted_runs, demoted_runs == 1 ? "" : "s", kGuardSlowerBy * 100, best_plan, best_ms,
      best_runs, best_runs == 1 ? "" : "s");
  if (applied) return text + fmt::format("; planned with plan {}'s statistics: plan {} runs", best_plan, best_plan);
  return text + fmt::format("; planning with plan {}'s statistics gave plan {}, so plan {} runs", best_plan,
                            replanned_plan, demoted_plan);
}

std::vector<stats::PlanRecord> merge_plan_histories(const std::vector<std::vector<stats::PlanRecord>>& per_scope) {
  std::map<std::string, stats::PlanRecord> by_plan;
  for (const auto& scope : per_scope)
    for (const stats::PlanRecord& p : scope) {
      auto [it, added] = by_plan.emplace(p.plan_hash, p);
      if (added) continue;
      stats::PlanRecord& m = it->second;
      m.best_ms = std::min(m.best_ms, p.best_ms);
      m.runs = std::max(m.runs, p.runs);
      if (p.last_seen_ms > m.last_seen_ms) {
        m.last_seen_ms = p.last_seen_ms;
        m.last_ms = p.last_ms;
        m.answers = p.answers;
      }
    }
  std::vector<stats::PlanRecord> out;
  for (auto& [h, p] : by_plan) out.push_back(std::move(p));
  return out;
}

std::optional<RegressionGuardReport> demotion(const std::vector<stats::PlanRecord>& history, const std::string& plan_hash,
                                              const std::vector<stats::PlannedAnswer>** best_answers) {
  const stats::PlanRecord* chosen = nullptr;
  const stats::PlanRecord* best = nullptr;
  for (const stats::PlanRecord& p : history) {
    if (p.plan_hash == plan_hash) chosen = &p;
    if (!best || p.best_ms < best->best_ms) best = &p;
  }
  if (!chosen || !best || best == chosen) return std::nullopt;
  if (!is_demoted(*chosen, *best)) return std::nullopt;
  RegressionGuardReport r;
  r.template_signature = chosen->template_signature;
  r.demoted_plan = chosen->plan_hash;
  r.demoted_ms = chosen->best_ms;
  r.demoted_runs = chosen->runs;
  r.best_plan = best->plan_hash;
  r.best_ms = best->best_ms;
  r.best_runs = best->runs;
  if (best_answers) *best_answers = &best->answers;
  return r;
}

}  // namespace hindsight
