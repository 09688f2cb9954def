#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "planner/exec/fault_injection.hpp"

namespace hindsight {

/// Session settings, changed by `SET name = value` or `--set name=value`.
struct Settings {
  int workers = 0;                           ///< 0 = number of cores
  int64_t memory_limit = 8LL << 30;          ///< bytes per query
  std::set<std::string> disabled_rules;      ///< rewrite rule names
  std::string cte_materialization = "auto";  ///< auto (inline) | always
  int64_t timeout_ms = 0;                    ///< 0 = none
  bool mapper_strict = false;
  /// cost: table statistics, cost-based join order and join distribution. foundation: the first
  /// planner (fixed selectivities, connected-first join order, broadcast below a row count); kept
  /// to measure what the cost-based optimizer gains.
  std::string optimizer = "cost";
  /// The cost optimizer judges a scan's whole filter by the share of a stored sample of the table's rows it keeps
  /// (TableStatistics::filter_sample), which sees correlated predicates; off: each conjunct by its column's
  /// statistics, multiplied as if independent (docs/join-order.md "Filters judged on a row sample").
  bool filter_sample = true;
  /// Which observed statistics queries use and keep (DESIGN.md section 5): off (none), query (this
  /// statement's attempts only), process (also every earlier statement of this process), persistent
  /// (also the stats store on disk: every earlier process).
  enum class StatsScope { Off, Query, Process, Persistent };
  StatsScope stats_scope = StatsScope::Persistent;
  /// An observation is not used when an input table changed (another data version) and its row count
  /// drifted by more than this fraction from the count it was observed with.
  double stats_max_drift = 0.1;
  /// The stats store's automatic trim (docs/stats-store.md "Retention"): signatures not seen, executions not run,
  /// plans not run and oracle replays not recorded for this long are removed. 0 = kept forever.
  int64_t stats_retention_ms = int64_t{30} * 24 * 3600 * 1000;
  /// model: estimates from the cardinality model and the stats scopes. oracle: the true
  /// cardinality of every filtered scan and connected sub-join the optimizer prices, computed by
  /// counting sub-plans before planning (at most oracle_max_subplans of them): the best plan
  /// Hindsight can find with perfect knowledge.
  std::string cardinality = "model";
  int64_t oracle_max_subplans = 500;
  int64_t oracle_subplan_timeout_ms = 10000;  ///< per counting sub-plan; 0 = none
  /// The memory budget of each counting sub-plan (planned and run under it); 0 = the statement's
  /// memory_limit. A larger one lets the oracle count what the statement's own budget could not hold, so
  /// that a query under a tight limit is still planned on true counts (the re-execution benchmark's
  /// baseline).
  int64_t oracle_subplan_memory_limit = 0;

  /// Re-execution (reexec/, docs/reexec.md): the strategies (plugins) a query statement may use, in
  /// order; empty = none (one attempt, exactly as without the driver).
  std::vector<std::string> reexec_strategies = {"reoptimize", "overlay", "retry", "misestimate", "slow", "spill"};
  int reexec_max_attempts = 3;     ///< attempts per statement, the first included
  int64_t reexec_time_budget_ms = 0;  ///< no new attempt starts after this much time (0 = none)
  /// Settings applied on re-execution ("name=value;name=value"): to every extra attempt, and per
  /// error code (key: the code's name, e.g. MEMORY_LIMIT_EXCEEDED) to an attempt answering that error.
  std::string reexec_overlay;
  std::map<std::string, std::string> reexec_overlay_by_code;
  /// misestimate: a successful attempt whose worst q-error exceeds this is re-planned with what it observed.
  double reexec_qerror_threshold = 10;
  /// misestimate, slow: the re-plan counts only when its predicted cost is lower than the previous plan's
  /// (re-estimated with the rows it was observed to produce) by more than this fraction.
  double reexec_min_gain = 0.2;
  /// misestimate, slow: "learn" (only record; the next run plans better) or "rerun" (run the better plan now).
  std::string reexec_on_misestimate = "learn";
  /// slow: an attempt is slow when its elapsed time exceeds this factor times the time its cost predicts
  /// (0 = off), or exceeds reexec_slow_ms when that is set.
  double reexec_slow_factor = 4;
  int64_t reexec_slow_ms = -1;  ///< -1 = off (then reexec_slow_factor decides); 0 = every attempt is slow
  /// An attempt that re-execution will answer after MEMORY_LIMIT_EXCEEDED (reoptimize, spill or an overlay for
  /// the error among the strategies, an attempt left, spill off) fails as soon as a hash join build or an exchange buffer, extrapolated
  /// by how far its input got, would exceed memory_limit, instead of after most of its work (docs/reexec.md).
  bool reexec_fail_early = true;
  /// A re-plan after MEMORY_LIMIT_EXCEEDED or TIMEOUT (reoptimize) first counts the filtered base-table scans the
  /// failed attempt did not count to the end (a COUNT(*) sub-plan each), so the new plan starts from their true
  /// sizes (docs/reexec.md).
  bool reexec_count_scans = true;
  /// A statement's first plan first counts the cheap filtered base-table scans no stats scope holds an exact count
  /// of (the same COUNT(*) sub-plans, cheapest first within 5 % of the plan's work), so the first plan starts from
  /// their true sizes where the model could only guess (a LIKE, correlated predicates; docs/reexec.md).
  bool count_scans_first = false;
  /// When re-execution would answer MEMORY_LIMIT_EXCEEDED with the same plan and spilling on (the `spill`
  /// strategy, an attempt left, no overlay for the error), the attempt's first overflow re-plans with what the
  /// attempt observed so far; the attempt goes on spilling instead of failing when (docs/reexec.md):
  /// - On: the plan stays, or the cost model predicts that finishing this plan spilling costs less than the
  ///   re-plan from the start;
  /// - SamePlan: the plan stays;
  /// - Off: never (the attempt fails; the next one spills from its start).
  enum class SpillInPlace { Off, SamePlan, On };
  SpillInPlace reexec_spill_in_place = SpillInPlace::On;
  /// Remember each plan's time per query template; plan a template's demoted plan (> 10 % slower than the
  /// best known plan) with the best plan's statistics instead (docs/reexec.md).
  bool regression_guard = true;
  /// Tests: a fault the executor injects (planner/exec/fault_injection.hpp).
  FaultSpec fault_injection;
  /// Spilling (docs/spilling.md): hash joins, aggregates and exchanges that would exceed memory_limit write
  /// part of their data to temporary files in spill_directory ("" = the system's temporary directory)
  /// instead of failing. Off by default: the first attempt runs in memory, and re-execution's `spill`
  /// strategy turns it on for an attempt after MEMORY_LIMIT_EXCEEDED.
  bool spill = false;
  std::string spill_directory;

  int effective_workers() const;
};

/// Applies one setting. Throws BIND_ERROR for an unknown name and TYPE_ERROR for a bad value
/// (the message lists what is accepted).
void apply_setting(Settings& s, const std::string& name, const std::string& value);

/// Where spill files go: spill_directory, or the system's temporary directory ($TMPDIR, else /tmp).
std::string spill_directory(const Settings& s);

/// The strategies reexec_strategies accepts, in their default order.
std::vector<std::string> reexec_strategy_names();
/// The error codes a statement may be re-executed after (the others never are): MEMORY_LIMIT_EXCEEDED,
/// TIMEOUT, TRANSIENT. reexec_overlay.<CODE> accepts these.
bool is_reexecutable_error(ErrorCode code);
/// Parses an overlay ("name=value;name=value") into its pairs, checking each against a copy of `s`
/// (TYPE_ERROR/BIND_ERROR as apply_setting; reexec_* settings cannot be overlaid).
std::vector<std::pair<std::string, std::string>> parse_overlay(const Settings& s, const std::string& text);

/// "name=value" pairs as shown by --help.
std::vector<std::string> setting_names();

}  // namespace hindsight
