#pragma once
// The order a query's fragments run in: depth-first, so that only the buffers of the consumers pending along one
// path are held at once. One rule for the FragmentScheduler (which runs it) and estimate_peak_memory (which
// replays it): both call memory_frugal_order.
#include <cstddef>
#include <vector>

namespace hindsight {

/// What the order knows of a fragment, in bytes summed over workers (planner estimates; all zero: the order
/// follows the listing of each fragment's inputs).
struct FragmentFootprint {
  double run = 0;     ///< the most it holds while it runs above what is held when it starts (its inputs included)
  double output = 0;  ///< what its output buffer (an exchange's, a CTE's) holds once it has run
  bool kept = false;  ///< the output stays until the query ends (a CTE buffer) instead of draining into its consumer
};

/// Indexes of the fragments in the order they run. `inputs[i]`: the indexes of the fragments fragment i reads
/// (each must run before it); `footprints`: one per fragment, or empty.
/// Post-order from each fragment nothing reads (in index order): a fragment runs right after its inputs, and the
/// inputs of one fragment run in decreasing order of (peak of the input's subtree − what that subtree still holds
/// once it has run), the classic rule that minimises the peak of a tree. A fragment read by several (a CTE) runs
/// where it is first needed, once. Throws INTERNAL on an unknown index or a cycle.
std::vector<size_t> memory_frugal_order(const std::vector<std::vector<size_t>>& inputs,
                                        const std::vector<FragmentFootprint>& footprints);

}  // namespace hindsight
