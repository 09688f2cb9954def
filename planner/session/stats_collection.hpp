#pragma once
#include <cstdint>

#include "planner/session/plan_mapping.hpp"
#include "planner/session/query_pipeline.hpp"
#include "stats_store/runtime_stats.hpp"

namespace hindsight {

/// What one attempt observed, per signature: the collection step of DESIGN.md section 1.
///
/// Every logical node of the final plans (CTE bodies included) that an operator of the run
/// implemented contributes one RuntimeStats per signature it has (exact, join-set for inner-join
/// trees, template when it differs from the exact one). Its rows are the best stats record of its equivalence group in `mapping`
/// (built with the run): an exact count wherever one is visible, a lower bound where everything in
/// the group was cut short (LIMIT early exit, a failed or timed-out attempt, an operator that did
/// not finish). Bytes, memory and time come from the physical operator that implemented the node
/// (for hash joins also the build side's rows and bytes). Exchanges contribute the rows and bytes
/// they moved under their physical signature. A node with nothing visible records nothing, nor
/// does a lower bound of 0 rows (it says nothing).
///
/// One record per (kind, signature): two nodes of one computation (the sides of a self-join, two
/// uses of one subquery) are observed once, the exact figure preferred.
stats::AttemptStats collect_attempt_stats(const CompiledQuery& cq, const ExecutedQuery& run,
                                          const QueryMapping& mapping, int attempt = 1);

}  // namespace hindsight
