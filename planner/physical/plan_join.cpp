// Join algorithm, sides and distribution for the first-version physical planner.
#include <algorithm>
#include <limits>
#include <set>

#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"
#include "planner/physical/join_ways.hpp"
#include "planner/physical/memory_estimate.hpp"
#include "planner/physical/physical_cost.hpp"
#include "planner/physical/physical_planner.hpp"

namespace hindsight {

bool PhysicalPlanner::fits_broadcast(const PhysicalOperator& build) const {
  // Every worker holds a copy: the copies together must leave a wide margin in the budget (the
  // estimate may be low; an underestimated broadcast fails the query, as a map join does).
  if (!broadcast_fits(build.estimated_rows, row_width(build, ctx_), options_.workers, options_.memory_limit,
                      options_.broadcast_share()))
    return false;
  // The foundation planner's rule of thumb; the cost-based planner compares costs instead.
  return options_.cost_based || build.estimated_rows <= options_.broadcast_max_rows;
}

CostModelOptions PhysicalPlanner::cost_options() const {
  CostModelOptions o;
  o.workers = options_.workers;
  o.memory_limit = options_.memory_limit;
  o.spill = options_.spill;
  return o;
}

PhysicalPtr PhysicalPlanner::plan_join(const LogicalOperator& op) {
  auto& j = op.as<LogicalJoin>();
  PhysicalPtr left = plan_node(*op.children[0]);
  PhysicalPtr right = plan_node(*op.children[1]);
  auto lset = output_set(*op.children[0]);
  auto rset = output_set(*op.children[1]);

  std::vector<ColumnId> lkeys, rkeys;
  std::vector<ExprPtr> residual;
  // Key expressions that are not plain columns are computed by a projection below the join.
  std::vector<ExprPtr> lcomputed, rcomputed;
  std::vector<ColumnId> lcomputed_ids, rcomputed_ids;
  auto key_of = [&](const Expr& e, std::vector<ExprPtr>& computed, std::vector<ColumnId>& ids) {
    if (const Expr* k = hash_key_column(e)) return k->column_id;
    ColumnId id = ctx_.add_column({"join_key", e.type, "", ""});
    computed.push_back(e.clone());
    ids.push_back(id);
    return id;
  };
  for (auto& c : j.conditions) {
    if (c->kind == ExprKind::Call && c->op == ScalarOp::Eq) {
      const Expr& a = *c->children[0];
      const Expr& b = *c->children[1];
      auto ca = columns_of(a), cb = columns_of(b);
      bool a_left = !ca.empty() && covered_by(a, lset), a_right = !ca.empty() && covered_by(a, rset);
      bool b_left = !cb.empty() && covered_by(b, lset), b_right = !cb.empty() && covered_by(b, rset);
      if (a_left && b_right) {
        lkeys.push_back(key_of(a, lcomputed, lcomputed_ids));
        rkeys.push_back(key_of(b, rcomputed, rcomputed_ids));
        continue;
      }
      if (b_left && a_right) {
        lkeys.push_back(key_of(b, lcomputed, lcomputed_ids));
        rkeys.push_back(key_of(a, rcomputed, rcomputed_ids));
        continue;
      }
    }
    residual.push_back(c->clone());
  }
  auto add_keys = [&](PhysicalPtr& side, std::vector<ExprPtr>& computed, std::vector<ColumnId>& ids) {
    if (computed.empty()) return;
    auto p = make<PhysicalProject>(nullptr);
    for (ColumnId c : side->outputs) {
      p->exprs.push_back(Expr::column(c, ctx_.column(c).type));
      p->outputs.push_back(c);
    }
    for (size_t i = 0; i < computed.size(); ++i) {
      p->exprs.push_back(std::move(computed[i]));
      p->outputs.push_back(ids[i]);
    }
    p->distribution = side->distribution;
    p->estimated_rows = side->estimated_rows;
    p->children.push_back(std::move(side));
    side = std::move(p);
  };
  add_keys(left, lcomputed, lcomputed_ids);
  add_keys(right, rcomputed, rcomputed_ids);

  // Sides: "probe" streams, "build" is materialised.
  bool swap = false;
  JoinType type = JoinType::Inner;
  switch (j.type) {
    case LogicalJoinType::Inner:
      // A way chosen by the join order fixes the sides too (left = probe): the costs it compared assumed them.
      swap = !lkeys.empty() && j.way == JoinWay::Chosen && left->estimated_rows < right->estimated_rows;
      break;
    case LogicalJoinType::Left: type = JoinType::ProbeOuter; break;
    case LogicalJoinType::Right:
      type = JoinType::ProbeOuter;
      swap = true;
      break;
    case LogicalJoinType::Full: type = JoinType::FullOuter; break;
    case LogicalJoinType::Semi: type = JoinType::Semi; break;
    case LogicalJoinType::Anti: type = JoinType::Anti; break;
    case LogicalJoinType::NullAwareAnti: type = JoinType::NullAwareAnti; break;
  }
  PhysicalPtr probe = swap ? std::move(right) : std::move(left);
  PhysicalPtr build = swap ? std::move(left) : std::move(right);
  std::vector<ColumnId> pkeys = swap ? rkeys : lkeys, bkeys = swap ? lkeys : rkeys;

  if (pkeys.empty()) {
    if (type == JoinType::FullOuter || type == JoinType::NullAwareAnti)
      throw Error(ErrorCode::NOT_SUPPORTED,
                  std::string(join_type_name(j.type)) + " join without an equality condition between its inputs");
    auto nl = make<PhysicalNestedLoopJoin>(&op);
    nl->type = type;
    nl->condition = std::move(residual);
    if (probe->distribution.is_single_instance() && !build->distribution.is_single_instance())
      build = exchange(std::move(build), ExchangeKind::Gather);
    else if (!probe->distribution.is_single_instance() && build->distribution.kind != StreamDistribution::Replicated)
      build = exchange(std::move(build), ExchangeKind::Broadcast);
    nl->distribution = probe->distribution.kind == StreamDistribution::Replicated && build->distribution.kind == StreamDistribution::Replicated
                           ? Distribution::replicated()
                           : probe->distribution.is_single_instance() ? Distribution::single() : probe->distribution;
    nl->outputs = probe->outputs;
    if (!join_outputs_probe_only(type)) nl->outputs.insert(nl->outputs.end(), build->outputs.begin(), build->outputs.end());
    nl->children.push_back(std::move(probe));
    nl->children.push_back(std::move(build));
    return nl;
  }

  auto hj = make<PhysicalHashJoin>(&op);
  hj->type = type;
  hj->residual = std::move(residual);
  JoinSides sides;
  sides.type = type;
  sides.probe = &probe->distribution;
  sides.build = &build->distribution;
  sides.probe_keys = &pkeys;
  sides.build_keys = &bkeys;
  sides.probe_rows = probe->estimated_rows;
  sides.build_rows = build->estimated_rows;
  sides.out_rows = op.estimated_rows;
  sides.probe_width = row_width(*probe, ctx_);
  sides.build_width = row_width(*build, ctx_);
  sides.build_fits_broadcast = fits_broadcast(*build);
  // The cost-based planner takes the way the join order chose when it is among the options (it is,
  // when the inputs deliver the distributions the enumerator priced), else the cheapest, the first
  // on a tie. The foundation planner broadcasts a small build side and otherwise repartitions both.
  std::vector<JoinWayOption> ways = join_way_options(sides, cost_options());
  size_t chosen = 0;
  if (options_.cost_based) {
    for (size_t w = 1; w < ways.size(); ++w)
      if (ways[w].cost < ways[chosen].cost) chosen = w;
    for (size_t w = 0; w < ways.size(); ++w)
      if (j.way != JoinWay::Chosen && ways[w].way == j.way) chosen = w;
    chosen = way_within_budget(ways, chosen, sides, probe, build, op.estimated_rows);
  } else {
    for (size_t w = 0; w < ways.size(); ++w)
      if (ways[w].way == JoinWay::Broadcast) chosen = w;
  }
  const JoinWayOption way = ways[chosen];
  std::vector<size_t> pos;
  switch (way.way) {
    case JoinWay::Single: hj->join_distribution = JoinDistribution::Single; break;
    case JoinWay::Gather:
      build = exchange(std::move(build), ExchangeKind::Gather);
      hj->join_distribution = JoinDistribution::Single;
      break;
    case JoinWay::Reference: hj->join_distribution = JoinDistribution::Reference; break;
    case JoinWay::Colocated: hj->join_distribution = JoinDistribution::Colocated; break;
    case JoinWay::Broadcast:
      build = exchange(std::move(build), ExchangeKind::Broadcast);
      hj->join_distribution = JoinDistribution::Broadcast;
      break;
    case JoinWay::ToProbe:
    case JoinWay::ToBuild: {
      // Hash the moved side's matching keys, in the order of the staying side's hash columns, into the staying
      // side's buckets: each moved row goes to the worker holding its matches.
      const bool to_probe = way.way == JoinWay::ToProbe;
      PhysicalPtr& moved = to_probe ? build : probe;
      const Distribution& stays = (to_probe ? probe : build)->distribution;
      key_positions(stays.columns, to_probe ? pkeys : bkeys, pos);
      std::vector<ColumnId> keys;
      for (size_t i : pos) keys.push_back((to_probe ? bkeys : pkeys)[i]);
      const int buckets = stays.buckets;
      moved = exchange(std::move(moved), ExchangeKind::Repartition, keys, buckets);
      hj->join_distribution = JoinDistribution::Partitioned;
      break;
    }
    case JoinWay::Both: {
      auto partitioned_on_keys = [&](const Distribution& d, const std::vector<ColumnId>& keys) {
        return d.kind == StreamDistribution::Hashed && d.columns == keys && d.buckets == options_.workers;
      };
      if (!partitioned_on_keys(probe->distribution, pkeys))
        probe = exchange(std::move(probe), ExchangeKind::Repartition, pkeys);
      if (!partitioned_on_keys(build->distribution, bkeys))
        build = exchange(std::move(build), ExchangeKind::Repartition, bkeys);
      hj->join_distribution = JoinDistribution::Partitioned;
      break;
    }
    case JoinWay::Chosen: HS_ASSERT(false, "plan_join: no way for a hash join"); break;
  }
  const Distribution out = way.out;
  hj->distribution = out;
  hj->probe_keys = std::move(pkeys);
  hj->build_keys = std::move(bkeys);
  hj->outputs = probe->outputs;
  if (!join_outputs_probe_only(type)) hj->outputs.insert(hj->outputs.end(), build->outputs.begin(), build->outputs.end());
  hj->children.push_back(std::move(probe));
  hj->children.push_back(std::move(build));
  return hj;
}

size_t PhysicalPlanner::way_within_budget(std::vector<JoinWayOption>& ways, size_t chosen, const JoinSides& sides,
                                          PhysicalPtr& probe, PhysicalPtr& build, double out_rows) {
  const double limit = static_cast<double>(options_.memory_limit);
  const Distribution P = probe->distribution, B = build->distribution;
  const std::vector<ColumnId>& pkeys = *sides.probe_keys;
  const std::vector<ColumnId>& bkeys = *sides.build_keys;
  auto partitioned_on_keys = [&](const Distribution& d, const std::vector<ColumnId>& keys) {
    return d.kind == StreamDistribution::Hashed && d.columns == keys && d.buckets == options_.workers;
  };
  // The join as `w` would build it, with stand-in exchanges over the lent sides, priced by estimate_peak_memory.
  auto peak = [&](JoinWay w) {
    auto stand_in = [&](PhysicalPtr& side, bool moved, ExchangeKind kind, const Distribution& d) {
      if (!moved) return;
      auto x = std::make_unique<PhysicalExchange>(NodeId{});
      x->exchange = kind;
      x->outputs = side->outputs;
      x->estimated_rows = side->estimated_rows;
      x->observed_row_bytes = side->observed_row_bytes;
      x->distribution = d;
      x->children.push_back(std::move(side));
      side = std::move(x);
    };
    const Distribution hashed = Distribution::hashed(pkeys, options_.workers);
    const bool move_probe = w == JoinWay::ToBuild || (w == JoinWay::Both && !partitioned_on_keys(P, pkeys));
    const bool move_build = w == JoinWay::ToProbe || w == JoinWay::Broadcast || w == JoinWay::Gather ||
                            (w == JoinWay::Both && !partitioned_on_keys(B, bkeys));
    const ExchangeKind build_kind = w == JoinWay::Broadcast ? ExchangeKind::Broadcast
                                    : w == JoinWay::Gather  ? ExchangeKind::Gather
                                                            : ExchangeKind::Repartition;
    const Distribution build_to = w == JoinWay::Broadcast ? Distribution::replicated()
                                  : w == JoinWay::Gather  ? Distribution::single()
                                  : w == JoinWay::ToProbe ? P
                                                          : hashed;
    const Distribution probe_to = w == JoinWay::ToBuild ? B : hashed;
    auto j = std::make_unique<PhysicalHashJoin>(NodeId{});
    j->estimated_rows = out_rows;
    j->outputs = probe->outputs;
    j->distribution = move_probe ? probe_to : P;
    stand_in(probe, move_probe, ExchangeKind::Repartition, probe_to);
    stand_in(build, move_build, build_kind, build_to);
    j->children.push_back(std::move(probe));
    j->children.push_back(std::move(build));
    const double bytes = estimate_peak_memory(*j, ctx_, options_.workers, {}, false, executor_threads()).total;
    probe = std::move(j->children[0]);
    build = std::move(j->children[1]);
    if (move_probe) probe = std::move(probe->children[0]);
    if (move_build) build = std::move(build->children[0]);
    return bytes;
  };
  const double chosen_peak = peak(ways[chosen].way);
  if (chosen_peak <= limit) return chosen;
  // Broadcast is a candidate here even beyond broadcast_memory_share (the margin against a low estimate: an
  // underestimated broadcast fails the query) when the chosen way is estimated to exceed the budget, but only
  // with a margin of its own: its estimated peak at most half the budget.
  bool beyond_share = false;
  if (std::none_of(ways.begin(), ways.end(), [](const JoinWayOption& w) { return w.way == JoinWay::Broadcast; })) {
    JoinSides wide = sides;
    wide.build_fits_broadcast = true;
    for (JoinWayOption& w : join_way_options(wide, cost_options()))
      if (w.way == JoinWay::Broadcast) {
        ways.push_back(std::move(w));
        beyond_share = true;
      }
  }
  // The cheapest way that fits. When none does: without spilling, the one with the lowest estimated peak (the
  // chosen one on a tie), as a re-plan after MEMORY_LIMIT_EXCEEDED wants the plan most likely to fit and the
  // estimate is the only guide; with spilling, what exceeds the limit is written out rather than failing, so the
  // way with the lowest cost plus spill_cost of its excess (a broadcast's copies held at once can cost more than
  // partitioning's traffic spilling a little).
  auto unfit_score = [&](size_t w, double bytes) {
    return options_.spill ? ways[w].cost + spill_cost(bytes - limit) : bytes;
  };
  size_t fitting = ways.size(), best_unfit = chosen;
  double best_score = unfit_score(chosen, chosen_peak);
  for (size_t w = 0; w < ways.size(); ++w) {
    const double bytes = w == chosen ? chosen_peak : peak(ways[w].way);
    const double budget = ways[w].way == JoinWay::Broadcast && beyond_share ? limit / 2 : limit;
    if ((fitting == ways.size() || ways[w].cost < ways[fitting].cost) && bytes <= budget) fitting = w;
    const double score = unfit_score(w, bytes);
    if (score < best_score) {
      best_unfit = w;
      best_score = score;
    }
  }
  return fitting < ways.size() ? fitting : best_unfit;
}

}  // namespace hindsight
