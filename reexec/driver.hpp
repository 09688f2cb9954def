#pragma once
#include <string>
#include <vector>

#include "planner/session/statement_runner.hpp"

namespace hindsight::reexec {

/// Runs attempt after attempt of one query statement: plan -> execute -> collect -> decide, with
/// the plugins of settings.reexec_strategies (docs/reexec.md). Installed into a Session with
/// Session::set_statement_runner; with reexec_strategies = none (or a plain EXPLAIN) it is the
/// SingleAttemptRunner.
///
/// Limits: at most reexec_max_attempts attempts; no attempt starts after reexec_time_budget; a
/// re-planned attempt runs only when its plan hash differs from the previous attempt's, unless a
/// plugin that acted accepts the unchanged plan (retry after TRANSIENT, an overlay). Only
/// side-effect-free statements (StatementInput::side_effect_free) are re-executed, only after the
/// errors is_reexecutable_error() names. Each attempt has its own memory budget and timeout.
class ReExecDriver final : public StatementRunner {
 public:
  void run(const StatementInput& in, StatementResult& result) override;
};

/// EXPLAIN REOPTIMIZATION after a statement ran: plans it again with what the scopes know now (its
/// observations included) into result.reoptimized, with what changed against the plan that ran.
/// `charge`: the limits whose table loads the re-plan is charged with (may be null).
void reoptimize_after(const StatementInput& in, const QueryLimits* charge, StatementResult& result);

/// One line per extra attempt, for people (the CLI prints them to stderr): what failed and where,
/// which plugin acted and what changed in the plan; then one line per decision taken after an attempt
/// without another attempt (a misestimate learned, a changed plan not worth running; a re-plan that gave
/// the same plan is in the JSON only). Empty for a single attempt and no decision.
std::vector<std::string> describe_attempts(const StatementResult& result);

}  // namespace hindsight::reexec
