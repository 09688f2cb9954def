#pragma once
#include <algorithm>
#include <optional>
#include <vector>

#include "planner/optimizer/join_order/query_graph.hpp"

#include "planner/optimizer/join_order/rel_set.hpp"

namespace hindsight::joinorder {

/// Prices one join operator. The enumerators add the children's costs themselves:
///   cost(leaf)  = leaf_cost(relation, rows)
///   cost(L ⋈ R) = cost(L) + cost(R) + join_cost(L, rows(L), R, rows(R), rows(L ⋈ R))
/// The enumerators try both orientations of every join and keep the cheaper, so an asymmetric model (e.g. "right is
/// the build side") is honoured. Costs must be >= 0 and finite.
struct JoinCostModel {
  virtual ~JoinCostModel() = default;

  /// Cost of the join operator alone (without its inputs).
  virtual double join_cost(RelSet left, double left_rows, RelSet right, double right_rows, double out_rows) const = 0;

  /// Cost of reading a single relation; 0 by default (C_out ignores scans: every plan reads every relation once).
  virtual double leaf_cost(RelSet relation, double rows) const { return 0; }
};

/// Default model: C_out (sum of intermediate result sizes) plus a hash join that builds on the smaller input.
///   join_cost = out_rows + 1.5 · build_rows + probe_rows,  build_rows = min(left_rows, right_rows),
///                                                          probe_rows = max(left_rows, right_rows)
/// so cost(T) = cost(L) + cost(R) + out_rows + 1.5 · build_rows + probe_rows, and cost(leaf) = 0.
/// Symmetric in its inputs; the enumerators then orient every join with the smaller input on the right.
struct HashJoinCostModel final : JoinCostModel {
  double build_factor = 1.5;  ///< Cost per build row relative to a probe or output row.

  double join_cost(RelSet, double left_rows, RelSet, double right_rows, double out_rows) const override {
    return out_rows + build_factor * std::min(left_rows, right_rows) + std::max(left_rows, right_rows);
  }
};

/// One plan of a relation set under interesting properties (a physical property the plan delivers, e.g. how its rows
/// are distributed over the workers). Property ids are the PropertyModel's; the enumerator only compares them.
struct PropertyPlan {
  double cost = 0;  ///< Own cost of the step (join_plans) or the leaf (leaf_plans).
  int property = 0; ///< What the plan delivers, as the model numbers it.
  int klass = 0;    ///< Plans of one set with the same klass compete: only the cheapest is kept.
  int way = 0;      ///< How the step is done (opaque; copied to JoinNode::way).
};

/// Interesting properties (Selinger; Simmen, Shekita & Malkemus 1996): the enumerator keeps, per relation set, the
/// cheapest plan of each klass, at most max_plans of them (the cheapest), and prices a join once per pair of input
/// plans. With a PropertyModel the JoinCostModel only joins disconnected components (cross products).
struct PropertyModel {
  virtual ~PropertyModel() = default;
  /// Appends the plans of relation `relation` (at least one).
  virtual void leaf_plans(int relation, double rows, std::vector<PropertyPlan>& out) const = 0;
  /// Appends the ways of joining `left` (a plan delivering `left_property`; the probe side) with `right` (the build
  /// side), each with its own cost (without its inputs') and the property it delivers. None: the model refuses the
  /// orientation (the other one must then offer a way).
  virtual void join_plans(RelSet left, double left_rows, int left_property, RelSet right, double right_rows,
                          int right_property, double out_rows, std::vector<PropertyPlan>& out) const = 0;
  /// What the operator above the graph (e.g. an aggregate) pays on top of the plan of the whole graph when that plan
  /// delivers `property` (`rows`: the graph's rows): the root's plan is chosen by cost + root_cost, and the plans of
  /// the whole graph compete (max_plans) by that sum. 0 by default: nothing above cares. Must be >= 0 and finite, and
  /// equal for the properties of one klass (the klass keeps its cheapest plan by cost alone).
  virtual double root_cost(int property, double rows) const { return 0; }
  int max_plans = 4;
  /// csg–cmp pairs DPccp prices with properties before it gives up on them and plans the graph by the JoinCostModel
  /// alone (every pair costs max_plans² · 2 property pricings): keeps a 14-way clique within the optimizer's budget.
  uint64_t max_pairs = 4000;
};

/// A join priced in its cheaper orientation.
struct OrientedJoin {
  double cost = 0;       ///< cost(left) + cost(right) + join_cost in the chosen orientation.
  bool swapped = false;  ///< True when the second input goes on the left.
};

/// Prices `a ⋈ b` and `b ⋈ a` and returns the cheaper; on a tie the smaller input goes on the right (build side).
inline OrientedJoin cheaper_orientation(const JoinCostModel& model, RelSet a, double a_rows, double a_cost, RelSet b,
                                        double b_rows, double b_cost, double out_rows) {
  const double inputs = a_cost + b_cost;
  const double ab = inputs + model.join_cost(a, a_rows, b, b_rows, out_rows);
  const double ba = inputs + model.join_cost(b, b_rows, a, a_rows, out_rows);
  if (ba < ab || (ba == ab && a_rows < b_rows)) return OrientedJoin{ba, true};
  return OrientedJoin{ab, false};
}

/// cheaper_orientation() among the orientations `graph` allows (QueryGraph::legal_join: a semi member is always the
/// right input of its semi join); nullopt when the graph allows neither.
inline std::optional<OrientedJoin> cheaper_legal_orientation(const JoinCostModel& model, const QueryGraph& graph,
                                                             RelSet a, double a_rows, double a_cost, RelSet b,
                                                             double b_rows, double b_cost, double out_rows) {
  const bool ab = graph.legal_join(a, b);
  const bool ba = graph.legal_join(b, a);
  if (ab && ba) return cheaper_orientation(model, a, a_rows, a_cost, b, b_rows, b_cost, out_rows);
  if (ab) return OrientedJoin{a_cost + b_cost + model.join_cost(a, a_rows, b, b_rows, out_rows), false};
  if (ba) return OrientedJoin{a_cost + b_cost + model.join_cost(b, b_rows, a, a_rows, out_rows), true};
  return std::nullopt;
}

}  // namespace hindsight::joinorder
