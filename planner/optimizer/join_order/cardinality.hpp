#pragma once
#include <functional>
#include <optional>
#include <unordered_map>

#include "planner/optimizer/join_order/query_graph.hpp"
#include "planner/optimizer/join_order/rel_set.hpp"

namespace hindsight::joinorder {

/// Rows of the join of a set of relations. The enumerators call it at most once per relation set they plan.
using CardinalityFn = std::function<double(RelSet)>;

/// Returns an observed (or otherwise better) row count for a relation set, or nullopt to keep the model estimate.
/// This is where runtime statistics plug in: the caller maps the set to its join-set signature and looks it up.
using CardinalityOverride = std::function<std::optional<double>(RelSet)>;

/// The independence estimate: product of the base cardinalities of `set` times the product of the selectivities of
/// every edge whose relations all lie inside `set`; members count only alone (their rows), in a larger set their
/// edge's selectivity scales the rest (a semi member's: the share kept; a LEFT member's: its fanout, at least 1, so a
/// set with a LEFT member has at least the rows of the rest). Not memoised; see CardinalityEstimator.
double estimate_cardinality(const QueryGraph& graph, RelSet set);

/// Where an estimate came from.
enum class CardinalitySource { kModel, kOverride };

/// Memoised cardinality per relation set: the override when it answers, else estimate_cardinality() corrected by
/// what the override knows of its parts: for every edge inside the set whose relations (a proper subset R, holding
/// no edge of a smaller relation set) the override answers for, the estimate is scaled by observed(R) / model(R),
/// i.e. the edge's selectivity becomes the observed one. So an observed sub-join informs every larger set that
/// holds it (a semi join observed on its left table informs the sets that join more tables before it), instead of
/// the larger sets falling back to the model's selectivity, as the oracle's counts would not. The override is
/// asked for those R too (memoised, at most once per edge). Holds a reference to the graph, which must outlive it.
class CardinalityEstimator {
 public:
  explicit CardinalityEstimator(const QueryGraph& graph, CardinalityOverride override_fn = {})
      : graph_(graph), override_(std::move(override_fn)) {}

  /// Rows of `set` (memoised).
  double estimate(RelSet set);
  double operator()(RelSet set) { return estimate(set); }

  /// Source of the estimate of `set` (computes it if needed).
  CardinalitySource source(RelSet set);

  /// A CardinalityFn that forwards to this estimator (which must outlive it).
  CardinalityFn as_function() {
    return [this](RelSet set) { return estimate(set); };
  }

  /// Number of memoised sets.
  size_t memoised() const { return memo_.size(); }

 private:
  struct Entry {
    double rows;
    CardinalitySource source;
  };
  const Entry& lookup(RelSet set);
  /// The product of observed(R) / model(R) over the observed edge sets R inside `set` (1 without an override).
  double observed_correction(RelSet set);

  const QueryGraph& graph_;
  CardinalityOverride override_;
  std::unordered_map<RelSet, Entry> memo_;
};

}  // namespace hindsight::joinorder
