#pragma once
// The regression guard (docs/reexec.md): per query template (the logical root's template signature)
// the stats scopes remember each plan's fastest run; a plan more than 10 % slower than the best known
// plan of its template is demoted, and the template is planned with the best plan's statistics (the
// answers its planning got, replayed) instead.
#include <optional>
#include <string>
#include <vector>

#include "stats_store/runtime_stats.hpp"

namespace hindsight {

/// A plan is demoted when its best time exceeds the best plan's by more than this fraction...
inline constexpr double kGuardSlowerBy = 0.10;
/// ... and by at least this much: below it a difference is scheduling noise on a busy machine.
inline constexpr double kGuardMinDifferenceMs = 20;

/// The one rule: `plan` is demoted against `best` (another plan of its template) when its fastest run is
/// more than kGuardSlowerBy and at least kGuardMinDifferenceMs slower.
bool is_demoted(const stats::PlanRecord& plan, const stats::PlanRecord& best);

/// What the guard found for the plan a statement was about to run.
struct RegressionGuardReport {
  std::string template_signature;
  std::string demoted_plan;  ///< the plan the optimizer chose
  double demoted_ms = 0;     ///< its fastest known run
  uint64_t demoted_runs = 0;
  std::string best_plan;     ///< the best known plan of the template
  double best_ms = 0;
  uint64_t best_runs = 0;
  /// Planning with the best plan's statistics gave the best plan again: it runs instead. False: the
  /// data changed too much to plan it again (`replanned_plan` says what came out), the chosen plan runs.
  bool applied = false;
  std::string replanned_plan;
  std::string describe() const;
};

/// The plans of a template as every scope remembers them, merged by plan (fastest run, runs summed
/// at most once per scope kind: the scopes overlap, so the largest count is kept; the latest answers).
std::vector<stats::PlanRecord> merge_plan_histories(const std::vector<std::vector<stats::PlanRecord>>& per_scope);

/// The report when `plan_hash` is demoted against the best known plan of `history`; nullopt when it is the
/// best, unknown (never ran: it is given its chance) or within the margins.
std::optional<RegressionGuardReport> demotion(const std::vector<stats::PlanRecord>& history, const std::string& plan_hash,
                                              const std::vector<stats::PlannedAnswer>** best_answers);

}  // namespace hindsight
