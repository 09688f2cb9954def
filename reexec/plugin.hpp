#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planner/common/error.hpp"
#include "planner/session/query_pipeline.hpp"
#include "planner/session/settings.hpp"
#include "stats_store/runtime_stats.hpp"

namespace hindsight::reexec {

/// What one attempt did, as plugins see it. Plugins decide on `error` (a typed code), never on the
/// message text; the pointers stay valid for the duration of the call only.
struct AttemptOutcome {
  int number = 1;
  std::optional<ErrorCode> error;       ///< nullopt: the attempt succeeded
  const Error* error_detail = nullptr;  ///< for messages shown to users, not for decisions
  const CompiledQuery* plan = nullptr;  ///< null: the attempt failed before it had a plan
  const ExecutedQuery* run = nullptr;   ///< null: it did not get as far as running
  const stats::AttemptStats* observed = nullptr;  ///< what it recorded into the scopes (null: nothing)
  bool fault_injected = false;          ///< the error is settings.fault_injection's
  double elapsed_ms = 0;
  /// A successful attempt: its plan's cost re-estimated with the rows it was observed to produce
  /// (plan_cost_observed), what a re-plan's predicted cost is compared with; -1 otherwise.
  double observed_cost = -1;
};

/// What the plugins that act ask of the next attempt.
struct NextAttempt {
  /// Settings on top of the session's for the next attempt (later entries win).
  std::vector<std::pair<std::string, std::string>> overlay;
  /// Plan again, with what the scopes know now (the failed attempt's observations included); false
  /// re-runs the previous attempt's plan as it is.
  bool replan = false;
  /// Before the re-plan, count the filtered scans the failed attempt did not count to the end
  /// (count_filtered_scans), so the new plan starts from their true sizes.
  bool count_scans = false;
  int backoff_ms = 0;              ///< wait this long first (the driver caps it by the time budget)
  std::vector<std::string> notes;  ///< what each plugin did, for reexec_reason ("overlay workers=8")
  /// false: plan the next attempt and decide on it, but do not run it (misestimate and slow with
  /// reexec_on_misestimate = learn: the observations are recorded, the next run plans better).
  bool execute = true;
};

/// What a plugin would have the next attempt do after MEMORY_LIMIT_EXCEEDED (Plugin::after_overflow).
enum class OverflowAnswer {
  None,           ///< nothing that changes the settings (not acting, or re-planning with what was observed)
  SpillSamePlan,  ///< spilling on: with the same plan, the attempt may as well go on spilling (spill)
  OtherSettings,  ///< settings of its own for the next attempt (an overlay): the attempt must end first
};

/// A re-execution strategy. Lifecycle for one statement: begin() before the first attempt;
/// observe() after every attempt; wants_reexecution() after a failed attempt that may be re-run,
/// wants_replan() after a successful one; prepare() for the plugins that want it; accept_plan()
/// once the next attempt is planned (the attempt runs when one acting plugin accepts); decision()
/// says why it accepted or refused. A plugin is made fresh for every statement.
/// Plugins must not throw (the driver treats an exception as "no" and warns once).
class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual const char* name() const noexcept = 0;
  virtual void begin(const Settings& settings) noexcept {}
  virtual void observe(const AttemptOutcome& outcome) noexcept {}
  virtual bool wants_reexecution(const AttemptOutcome& outcome) noexcept { return false; }
  /// After a successful attempt: re-plan with what it observed (a misestimate, a slow run)?
  virtual bool wants_replan(const AttemptOutcome& outcome) noexcept { return false; }
  virtual void prepare(const AttemptOutcome& outcome, NextAttempt& next) noexcept {}
  /// Spilling in place (docs/reexec.md): asked before an attempt runs, with `outcome` that attempt as if it had
  /// failed with MEMORY_LIMIT_EXCEEDED. The driver lets the attempt go on spilling at its first overflow when a
  /// plugin answers SpillSamePlan, none OtherSettings, and a re-plan with what the attempt observed so far keeps
  /// its plan. Must not change the plugin's state.
  virtual OverflowAnswer after_overflow(const AttemptOutcome& outcome) const noexcept { return OverflowAnswer::None; }
  /// `changed`: the new plan's hash differs from the previous attempt's. Default: run a changed plan only.
  virtual bool accept_plan(const AttemptOutcome& previous, const CompiledQuery& plan, bool changed) noexcept {
    return changed;
  }
  /// What the last accept_plan() decided and why, for people ("predicted cost 1.2M -> 310k (-74%)");
  /// empty when there is nothing to add.
  virtual std::string decision() const noexcept { return ""; }
};

}  // namespace hindsight::reexec
