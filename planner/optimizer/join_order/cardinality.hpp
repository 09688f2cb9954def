#pragma once
#include <functional>
#include <map>
#include <set>
#include <optional>
#include <unordered_map>

#include "planner/optimizer/join_order/query_graph.hpp"
#include "planner/optimizer/join_order/rel_set.hpp"

namespace hindsight::joinorder {

/// Rows of the join of a set of relations. The enumerators call it at most once per relation set they plan.
using CardinalityFn = std::function<double(RelSet)>;

/// What an override knows of a set: its rows, exactly, or only at least `rows` (`lower_bound`: an operator that a
/// failed attempt cut short; the rows it saw, extrapolated). Implicit from a double: an exact count.
struct ObservedCardinality {
  ObservedCardinality(double r, bool lb = false) : rows(r), lower_bound(lb) {}  // NOLINT(google-explicit-constructor)
  double rows;
  bool lower_bound = false;
};

/// Returns an observed (or otherwise better) row count for a relation set, or nullopt to keep the model estimate.
/// This is where runtime statistics plug in: the caller maps the set to its join-set signature and looks it up.
using CardinalityOverride = std::function<std::optional<ObservedCardinality>(RelSet)>;

/// The independence estimate: product of the base cardinalities of `set` times the product of the selectivities of
/// every edge whose relations all lie inside `set`; members count only alone (their rows), in a larger set their
/// edge's selectivity scales the rest (a semi member's: the share kept; a LEFT member's: its fanout, at least 1, so a
/// set with a LEFT member has at least the rows of the rest). Not memoised; see CardinalityEstimator.
double estimate_cardinality(const QueryGraph& graph, RelSet set);

/// Where an estimate came from.
enum class CardinalitySource { kModel, kOverride };

/// Memoised cardinality per relation set: the override when it answers, else the independence product with what
/// the override's answers teach about the edges. Before the first set of two or more relations is estimated, the
/// override is asked once for every connected, complete set (what the enumerators build; at most
/// kMaxLearningSets, over at most kMaxLearningRelations relations, else the model alone); a group of edges over
/// relations R then takes the selectivity an observed set U holding R shows: rows(U) / (rows(U - x) x rows(x)) for
/// a relation x of R that only that group joins to U - x, where U - x is observed too or x's partner alone (for a
/// member x: rows(U) / rows(U - x)); the smallest such U wins. So a sub-join observed in one plan informs every
/// set that holds its edge, in any order: a semi join observed on its left table alone informs the sets that join
/// more tables before it, and an edge observed only high in a plan (lineitem JOIN partsupp above orders) informs
/// the pair itself.
///
/// A lower bound (a set a failed attempt cut short) only raises: the set's rows are the larger of the bound and what
/// the exact answers give it, and an edge group that no exact answer teaches takes at least the selectivity a bound
/// U shows over an exactly known U - x (a relation alone, or an exact answer); the smallest such U wins, and never
/// below the model's selectivity. Without it, a re-plan after MEMORY_LIMIT_EXCEEDED ordered the joins as if the
/// sub-join that failed were as small as the model thought (top_customers_lines: a 140k-row join taken for 323 rows
/// and built again), while the physical plan above saw the bound. Holds a reference to the graph, which must
/// outlive it.
class CardinalityEstimator {
 public:
  static constexpr int kMaxLearningRelations = 16;
  static constexpr size_t kMaxLearningSets = 4096;

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
  /// Asks the override for every connected, complete set and learns the edges' selectivities (learned_).
  void learn();

  const QueryGraph& graph_;
  CardinalityOverride override_;
  std::unordered_map<RelSet, Entry> memo_;
  bool learned_ready_ = false;
  std::map<RelSet, double> learned_;  ///< per edge group (its relations): the observed selectivity
  std::set<RelSet> asked_;            ///< sets learn() asked that the override does not know exactly
  std::map<RelSet, double> bounds_;   ///< sets the override knows only a lower bound of
};

}  // namespace hindsight::joinorder
