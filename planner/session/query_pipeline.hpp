#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/binder/binder.hpp"
#include "planner/exec/exec_builder.hpp"
#include "planner/physical/physical_planner.hpp"
#include "planner/rewrite/rule_driver.hpp"
#include "planner/session/query_limits.hpp"
#include "planner/session/settings.hpp"
#include "planner/signing/plan_signer.hpp"
#include "planner/storage/database.hpp"
#include "stats_store/runtime_stats.hpp"

namespace hindsight {

/// A rewrite that replaced a logical node (mapper stage rewrite:<rule>).
struct RewriteLink {
  NodeId before, after;
  std::string rule;
};

/// A materialized CTE: planned once, its rows read by every PhysicalCteScan of the query.
struct CompiledCte {
  std::string name;
  LogicalPtr logical;
  PhysicalPtr physical;
};

/// Everything compilation produced for one query: both plans, the links between stages, and the
/// column names of the result.
struct CompiledQuery {
  std::string sql;
  PlanContext ctx;
  LogicalPtr logical;
  PhysicalPtr physical;
  std::vector<CompiledCte> ctes;  ///< indexed by cte_index
  std::vector<std::string> names;
  std::vector<ColumnId> outputs;
  std::vector<AstLink> ast_links;
  std::vector<RewriteLink> rewrite_links;
  std::vector<PhysicalLink> physical_links;
  std::vector<RuleStats> rules;
  /// Signatures of every logical and physical node (computed after planning, cached).
  std::unique_ptr<PlanSigner> signer;
  /// The base tables the query reads (CTE bodies included), as compilation saw them: sorted by name.
  std::vector<stats::TableVersion> tables;
  /// The observed statistics the estimates were made with (null: model only).
  std::shared_ptr<const stats::StatsSource> observed;
  double plan_ms = 0;
  int workers = 1;  ///< the workers it was planned for (the estimated peak memory needs them)
};

/// Where compile_query finds observed statistics: called once per compilation, after binding,
/// with the base tables the query reads (so that a store is read once per query, for those tables
/// only); returns the source the estimator consults by signature before its model (null: model only).
using StatsProvider =
    std::function<std::shared_ptr<const stats::StatsSource>(const std::vector<stats::TableVersion>& tables)>;

/// SQL query AST -> bound logical plan -> rewritten -> estimated -> physical plan.
/// `sign_plans` = false skips signing (only for measuring what signing costs: EXPLAIN, groups and
/// the stats need the signatures). `observed`: see StatsProvider (empty: model only). `limits`: the
/// statement's limits, which the tables it loads are charged to and checked against (nullptr: loads
/// are unlimited).
std::unique_ptr<CompiledQuery> compile_query(Database& db, const sql::Query& q, const std::string& sql,
                                             const Settings& settings, bool sign_plans = true,
                                             const StatsProvider& observed = {}, QueryLimits* limits = nullptr);

/// One execution attempt: the rows (or the error) and what every executable operator did.
struct ExecutedQuery {
  std::vector<Batch> batches;
  std::vector<DataType> types;
  std::shared_ptr<ExecPlan> exec;  ///< shared with what spilling in place is asked with while the attempt runs
  std::map<int, OperatorStats> stats;  ///< by exec id, summed over workers
  std::optional<Error> error;
  double elapsed_ms = 0;
  /// CPU time of the process during the execution (every worker thread; process_cpu_ms): the run's work, which a
  /// loaded machine does not inflate as it does elapsed_ms.
  double cpu_ms = 0;
  int64_t peak_memory = 0;
  /// The live data (see MemoryTracker) held when the charged memory peaked.
  int64_t peak_memory_live = 0;
  /// The instances a distributed fragment of the run has (settings.effective_workers()).
  int workers = 1;
  /// The fault of settings.fault_injection was injected into this run (and caused `error`).
  bool fault_fired = false;
  /// Spilling in place (QueryLimits::spill_in_place): what was decided at the run's first overflow, for people
  /// ("HashJoinBuild#7 (worker 1) overflows memory_limit (1.1 MB in use of 1.2 MB): <why>"); empty: not asked.
  std::string spill_in_place;
  bool spilled_in_place = false;  ///< it said yes: the run went on spilling from there
  size_t row_count() const;
};

/// Runs the compiled plan. Never throws for query failures: they land in `error`, with the stats of
/// what ran (operators that did not finish are marked incomplete). Runs under `limits` (those of the
/// statement, already charged with the tables it loaded) or, if nullptr, under fresh limits of `settings`.
/// With an active settings.fault_injection the fault is armed for this run (the caller counts `times`).
ExecutedQuery execute_query(const CompiledQuery& cq, const Settings& settings, QueryLimits* limits = nullptr);

/// Runs a physical plan over `ctx`'s columns (`ctes[i]`: the plan of materialized CTE i; `outputs`:
/// the result's columns): what execute_query does for a compiled query, for plans made elsewhere
/// (the oracle's counting sub-plans).
ExecutedQuery execute_plan(const PhysicalOperator& root, const PlanContext& ctx,
                           const std::vector<const PhysicalOperator*>& ctes, const std::vector<ColumnId>& outputs,
                           const Settings& settings, QueryLimits* limits, FaultInjection* fault = nullptr);

/// The plan's predicted cost: the root's subtree cost plus every materialized CTE's (cost units:
/// planner/physical/physical_cost.hpp).
double plan_cost(const CompiledQuery& cq);
/// The same plan's cost re-estimated with what `run` observed (plan_progress's total: every node
/// that ran is costed with the rows it produced, a node cut short or not run with what those
/// extrapolate to). No overflow penalty applies. Used to compare a re-plan made with the
/// observations against the plan that made them on the same information. The plan's estimates and
/// costs are restored before it returns.
double plan_cost_observed(CompiledQuery& cq, const ExecutedQuery& run, const Settings& settings);

/// A plan's work as the cost model sees it with what a run observed (`run`; null: nothing, the plan's estimates).
/// A node that ran to exhaustion is costed with its rows; one cut short with the larger of the whole count its rows
/// so far extrapolate to (scan_progress; a distributed stream seen on fewer instances than workers: scaled to all)
/// and its estimate rescaled by its children's corrections (the model's independence assumption: a join's by both
/// sides', a semi or anti join's by its probe side's); a node that did not run with that rescaled estimate. What
/// spilling in place weighs finishing a plan cut short against starting a re-plan over with (reexec/driver.cpp).
/// The plan's estimates and costs are restored before it returns; nothing else is written, so the executor (which
/// reads no estimate or cost) may be running it.
struct PlanProgress {
  double total = 0;       ///< the whole plan's cost (no overflow penalty)
  /// The share of `total` the run already did: each node that ran, its own cost times how far it got (1 when it
  /// ran to exhaustion; else the larger of its rows so far over its whole count and its children's rows so far
  /// over theirs).
  double done = 0;
  double peak_bytes = 0;  ///< the plan's estimated peak memory with those rows (estimate_peak_memory)
};
PlanProgress plan_progress(CompiledQuery& cq, const ExecutedQuery* run, const Settings& settings);

/// For each logical node of the query's plans (CTE bodies included), the physical operator that
/// implements it: the top-most one whose `logical_id` names it (it produces exactly the node's rows).
std::map<NodeId, const PhysicalOperator*> implementing_operators(const CompiledQuery& cq);

/// What a physical node produced during a run: its output exec operator's rows (for an exchange,
/// the rows that entered it; for a replicated stream, one worker's copy), and whether it ran to
/// exhaustion (else `rows` is a lower bound). The one definition of a node's observed rows:
/// EXPLAIN ANALYZE, the groups and the stats collection all use it.
struct ObservedOutput {
  uint64_t rows = 0;
  bool complete = false;
  uint32_t instances = 1;  ///< the worker instances whose figures these are (fewer than the workers: a snapshot)
};
/// nullopt when the node has no executable operator in the run (the attempt failed before).
std::optional<ObservedOutput> observed_output(const ExecutedQuery& run, const PhysicalOperator& node);

/// How far the table scans feeding `node` within its fragment got in a run cut short: the largest rows read / rows
/// to read of a scan below it that did not finish (an exchange node: below its producer side), not looking past
/// another exchange (those fragments had finished, or this one never ran); 0 when no scan tells. A count the run
/// cut short, divided by it, estimates the whole count.
double scan_progress(const ExecutedQuery& run, const PhysicalOperator& node);

/// What `node`'s count in a run a failure cut short is to be multiplied by to estimate its whole count: 1 over how
/// far the scans feeding it got (scan_progress), and, for a distributed stream seen in fewer instances than the
/// run's workers (the snapshot spilling in place decides with: a running fragment's operators are those of the
/// instances that finished and the overflowing one's), workers / instances. 1 when it finished, when the run did
/// not fail (a LIMIT stopped it: the count is what it is) or when nothing tells. The one rule for the stats a
/// failed attempt records and for how far a plan cut short got (plan_progress).
double extrapolation(const ExecutedQuery& run, const PhysicalOperator& node);

}  // namespace hindsight
