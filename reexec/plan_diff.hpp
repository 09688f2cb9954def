#pragma once
#include <cstdint>
#include <string>

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

/// "; build estimate 12k -> observed >= 4.1M rows" when what a build side produced says something about its
/// estimate: a finished count that reads differently from the estimate, or a lower bound (the build was cut
/// short) above it. Empty otherwise: an equal count, or a lower bound the estimate already covers, explains
/// nothing.
std::string build_estimate_note(double estimated_rows, uint64_t observed_rows, bool complete);

/// 12, 12k, 4.1M: a row count for people.
std::string short_count(double rows);

}  // namespace hindsight::reexec
