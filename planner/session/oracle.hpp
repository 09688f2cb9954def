#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "planner/session/query_pipeline.hpp"
#include "stats_store/stats_source.hpp"

namespace hindsight {

/// What the oracle computed for one query.
struct OracleReport {
  size_t subplans = 0;   ///< counting sub-plans executed
  size_t skipped = 0;    ///< relation sets left to the model because the cap was reached
  size_t timed_out = 0;  ///< counts abandoned after oracle_subplan_timeout (left to the model)
  size_t out_of_memory = 0;  ///< counts that exceeded the memory budget (left to the model)
  size_t cap = 0;
  double elapsed_ms = 0;
  double cpu_ms = 0;  ///< CPU time of the counting sub-plans' executions (every worker thread)
  bool capped() const { return skipped > 0 || timed_out > 0 || out_of_memory > 0; }
  /// "oracle: N counting sub-plans in T ms" (+ "; capped at C, S relation sets left to the model").
  std::string describe() const;
};

/// Oracle mode (`SET cardinality = oracle`): the true cardinality of every input of every inner-join
/// tree of `cq`'s plans (filtered scans, and whatever else a join reads) and of every connected set
/// of those inputs the join enumerator may price, each computed by executing a counting sub-plan
/// (COUNT(*) over the inputs joined under the conditions inside the set). The answers are keyed as
/// the estimator asks: an input by its exact signature, a set by its join-set signature; they
/// answer with source `oracle`. At most `settings.oracle_max_subplans` sub-plans run (inputs first,
/// then sets by size); what the cap leaves out is counted in `report`.
///
/// `cq` is a compilation of the query (any estimates); its plans are borrowed while the sub-plans
/// are planned and are left exactly as they were. Sub-plans run under `limits` (the statement's
/// memory budget and deadline). Throws what execution throws (MEMORY_LIMIT_EXCEEDED, TIMEOUT...).
std::shared_ptr<const stats::StatsSource> oracle_cardinalities(Database& db, CompiledQuery& cq, const Settings& settings,
                                                               QueryLimits* limits, OracleReport& report);

/// A filtered scan count_filtered_scans counted: the model's estimate and the count.
struct CountedScan {
  std::string table;
  double estimate = 0;
  double rows = 0;
};

/// A re-plan after a failed attempt (reexec_count_scans, docs/reexec.md): the exact row count of every filtered
/// base-table scan of `cq` that `known` (by its exact signature) has no exact count of, cheapest first, while their
/// scans together cost at most 5 % of `cq`'s plan (counting reads each table once more), each computed by a COUNT(*)
/// sub-plan as the oracle's inputs are (under `limits`, at most oracle_max_subplans), answered with source
/// `runtime` (they are counts of this data, as an attempt's observations are). `counted` gets each one counted.
std::shared_ptr<const stats::StatsSource> count_filtered_scans(Database& db, CompiledQuery& cq, const Settings& settings,
                                                               QueryLimits* limits,
                                                               const std::function<bool(const sig::Signature&)>& known,
                                                               OracleReport& report, std::vector<CountedScan>& counted);

}  // namespace hindsight
