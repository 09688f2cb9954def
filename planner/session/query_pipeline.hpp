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
  double plan_ms = 0;
};

/// SQL query AST -> bound logical plan -> rewritten -> estimated -> physical plan.
/// `sign_plans` = false skips signing (only for measuring what signing costs: EXPLAIN, groups and
/// the stats need the signatures). `observed`: statistics the estimator consults by signature
/// before its model (nullptr: model only). `limits`: the statement's limits, which the tables it
/// loads are charged to and checked against (nullptr: loads are unlimited).
std::unique_ptr<CompiledQuery> compile_query(Database& db, const sql::Query& q, const std::string& sql,
                                             const Settings& settings, bool sign_plans = true,
                                             const stats::StatsSource* observed = nullptr,
                                             QueryLimits* limits = nullptr);

/// One execution attempt: the rows (or the error) and what every executable operator did.
struct ExecutedQuery {
  std::vector<Batch> batches;
  std::vector<DataType> types;
  std::unique_ptr<ExecPlan> exec;
  std::map<int, OperatorStats> stats;  ///< by exec id, summed over workers
  std::optional<Error> error;
  double elapsed_ms = 0;
  int64_t peak_memory = 0;
  size_t row_count() const;
};

/// Runs the compiled plan. Never throws for query failures: they land in `error`, with the stats of
/// what ran (operators that did not finish are marked incomplete). Runs under `limits` (those of the
/// statement, already charged with the tables it loaded) or, if nullptr, under fresh limits of `settings`.
ExecutedQuery execute_query(const CompiledQuery& cq, const Settings& settings, QueryLimits* limits = nullptr);

/// Rows produced by a physical node during the run: its output exec operator's rows (for an
/// exchange, the rows that entered it; for a replicated stream, one worker's copy). nullopt when
/// it never ran.
std::optional<uint64_t> actual_rows(const ExecutedQuery& run, NodeId physical_id, const PhysicalOperator& node);

}  // namespace hindsight
