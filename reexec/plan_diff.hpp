#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/session/query_pipeline.hpp"

namespace hindsight::reexec {

/// What changed between two physical plans, compared join by join (a join is named by the base
/// tables below it): distribution, build side, and joins that exist in only one plan (another join
/// order). With `before_run` (the attempt that ran `before`), a changed join also shows its old
/// build side's estimate next to what was observed ("build estimate 12k -> observed >= 4.1M rows").
/// Example: "join orders⋈customer: broadcast -> partitioned; build estimate 12k -> observed >= 4.1M rows".
/// Empty when the joins are the same.
std::string describe_plan_change(const CompiledQuery& before, const ExecutedQuery* before_run,
                                 const CompiledQuery& after);

/// One join of a plan, as plan diffs compare joins: named by the sorted base tables below it. Collected from a
/// PhysicalOperator tree (plan_joins) or from a captured plan (reexec/workload/replay.cpp), so that both compare by
/// one definition (describe_join_changes).
struct PlanJoin {
  std::string key;    ///< the sorted base tables below the join
  std::string shown;  ///< probe tables ⋈ build tables, as planned
  std::string build;  ///< the build side's tables
  std::string distribution;  ///< broadcast, partitioned, ... or "nested loop"
  /// What the build side was estimated to produce and was seen producing, when the plan ran.
  struct Observed {
    double estimated_rows = 0;
    uint64_t rows = 0;
    bool complete = true;
  };
  std::optional<Observed> build_observed;
};

/// A join as PlanJoin names it, from the base tables below its probe and build sides.
PlanJoin make_plan_join(const std::vector<std::string>& probe_tables, const std::vector<std::string>& build_tables,
                        std::string distribution);

/// The joins of a physical plan (CTEs not included), top down; with `run`, their build sides' observations.
std::vector<PlanJoin> plan_joins(const PhysicalOperator& root, const ExecutedQuery* run);

/// What changed from `before`'s joins to `after`'s (describe_plan_change's text; `before`'s build observations
/// give the estimate note). Empty when the joins are the same.
std::string describe_join_changes(const std::vector<PlanJoin>& before, const std::vector<PlanJoin>& after);

/// "; build estimate 12k -> observed >= 4.1M rows" when what a build side produced says something about its
/// estimate: a finished count that reads differently from the estimate, or a lower bound (the build was cut
/// short) above it. Empty otherwise: an equal count, or a lower bound the estimate already covers, explains
/// nothing.
std::string build_estimate_note(double estimated_rows, uint64_t observed_rows, bool complete);

/// 12, 12k, 4.1M: a row count for people.
std::string short_count(double rows);

}  // namespace hindsight::reexec
