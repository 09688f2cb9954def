#pragma once
// The estimated peak memory of a physical plan, charged the way MemoryTracker charges a query
// (planner/exec/memory_tracker.hpp): one budget for all workers together.
#include <vector>

#include "planner/exec/fragment_order.hpp"
#include "planner/logical/plan_context.hpp"
#include "planner/physical/physical_cost.hpp"
#include "planner/physical/physical_operator.hpp"

namespace hindsight {

struct PeakMemoryEstimate {
  double total = 0;       ///< bytes held at once, summed over workers (what memory_limit bounds)
  double per_worker = 0;  ///< the largest share one worker holds at the same moment
  std::vector<int> order;  ///< the fragments in the order replayed, numbered as build_exec_plan numbers them
};

/// Estimates the peak of `root` (with its materialized CTEs `ctes`, produced first) from the same row and width
/// estimates the cost uses (row_width), by replaying the schedule the executor follows:
/// - the plan is cut into fragments at exchanges (numbered as build_exec_plan numbers them: CTEs first, a fragment
///   before the ones that feed it, in pre-order); fragments run one after the other in the FragmentScheduler's
///   order, memory_frugal_order over the footprints fragment_footprints gives (depth-first: a fragment right after
///   its inputs, the inputs with the larger peak-minus-residual first);
/// - an exchange buffers its producer's whole output (rows x width, x workers for a broadcast) until its consumer
///   fragment has drained it; a CTE buffer lives until the end of the query;
/// - inside a fragment a pipeline ends at a breaker (hash join build, nested-loop build, aggregate, sort, top-N,
///   the fragment's sink, the result): while it runs its input drains as its breaker fills, so it holds
///   max(input, breaker) on top of what is already held; a hash join's table stays until its probe pipeline ends;
///   an aggregate's groups or a sort's rows stay until the pipeline they feed ends.
/// `result`: the root's rows are charged while they accumulate (FragmentScheduler), as for a query.
/// Operator state adds a few bytes per row for its hash table or permutation (memory_estimate.cpp).
/// `threads`: how many instances of a fragment run at once (0: all of them, as on a cluster). The FragmentScheduler
/// runs a fragment's instances on min(workers, hardware threads) threads, each instance to completion, so only
/// that share of a distributed fragment's state (hash tables, groups, sorted rows) is held at once; exchange
/// buffers, filled by every instance, are held whole. Not modelled: column growth slack, the sort's scratch, skew
/// between workers (per_worker is an even share of a distributed amount), the tables a statement loads.
PeakMemoryEstimate estimate_peak_memory(const PhysicalOperator& root, const PlanContext& ctx, int workers,
                                        const std::vector<const PhysicalOperator*>& ctes = {}, bool result = true,
                                        int threads = 0);
/// Each fragment's footprint (its peak over what is held when it starts, its output buffer), numbered as
/// build_exec_plan numbers fragments: what the FragmentScheduler orders fragments by. Same arguments as above.
std::vector<FragmentFootprint> fragment_footprints(const PhysicalOperator& root, const PlanContext& ctx, int workers,
                                                   const std::vector<const PhysicalOperator*>& ctes = {},
                                                   bool result = true, int threads = 0);
/// The `threads` the executor of this process runs a fragment's instances on (std::thread::hardware_concurrency).
int executor_threads();

}  // namespace hindsight
