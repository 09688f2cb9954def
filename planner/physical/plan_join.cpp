// Join algorithm, sides and distribution for the first-version physical planner.
#include <limits>
#include <set>

#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"
#include "planner/physical/memory_estimate.hpp"
#include "planner/physical/physical_cost.hpp"
#include "planner/physical/physical_planner.hpp"

namespace hindsight {

namespace {

bool hashed_on(const Distribution& d, const std::vector<ColumnId>& keys, const std::vector<size_t>& positions) {
  // True when d hashes exactly on keys[positions[0]], keys[positions[1]], ...
  if (d.kind != StreamDistribution::Hashed || d.columns.size() != positions.size()) return false;
  for (size_t i = 0; i < positions.size(); ++i)
    if (d.columns[i] != keys[positions[i]]) return false;
  return true;
}

/// The key positions (into `keys`) that `cols` correspond to, if all of them are keys.
bool key_positions(const std::vector<ColumnId>& cols, const std::vector<ColumnId>& keys, std::vector<size_t>& out) {
  if (cols.empty()) return false;
  out.clear();
  for (ColumnId c : cols) {
    size_t k = 0;
    while (k < keys.size() && keys[k] != c) ++k;
    if (k == keys.size()) return false;
    out.push_back(k);
  }
  return true;
}

bool key_positions(const Distribution& d, const std::vector<ColumnId>& keys, std::vector<size_t>& out) {
  return d.kind == StreamDistribution::Hashed && key_positions(d.columns, keys, out);
}

/// True when probe and build rows that match on the keys are already on the same worker: both
/// hashed alike (same bucket count) on corresponding key columns, either by their own hash keys
/// or by a co-location mapping both declare.
bool colocated(const Distribution& P, const std::vector<ColumnId>& pkeys, const Distribution& B,
               const std::vector<ColumnId>& bkeys) {
  if (P.kind != StreamDistribution::Hashed || B.kind != StreamDistribution::Hashed || P.buckets != B.buckets) return false;
  std::vector<size_t> pos;
  if (key_positions(P, pkeys, pos) && hashed_on(B, bkeys, pos)) return true;
  for (const MappedKey& pm : P.mapped) {
    if (!key_positions(pm.columns, pkeys, pos)) continue;
    for (const MappedKey& bm : B.mapped) {
      if (bm.mapping != pm.mapping || bm.columns.size() != pos.size()) continue;
      bool same = true;
      for (size_t i = 0; i < pos.size(); ++i) same &= bm.columns[i] == bkeys[pos[i]];
      if (same) return true;
    }
  }
  return false;
}

/// The column under casts that keep int64 values unchanged (INTEGER <-> BIGINT, DECIMAL scale
/// kept): such keys hash and compare alike, so they can serve as hash keys. nullptr otherwise.
const Expr* key_column(const Expr& e) {
  const Expr* x = &e;
  while (x->kind == ExprKind::Cast) {
    const Expr& in = *x->children[0];
    bool ints = (x->type.is_integral() || x->type.id == TypeId::Date) && in.type.id == x->type.id;
    bool widen = x->type.is_integral() && in.type.is_integral();
    bool same_scale = x->type.id == TypeId::Decimal && in.type.id == TypeId::Decimal && x->type.scale == in.type.scale;
    if (!(ints || widen || same_scale)) return nullptr;
    x = &in;
  }
  return x->kind == ExprKind::ColumnRef ? x : nullptr;
}

}  // namespace

bool PhysicalPlanner::fits_broadcast(const PhysicalOperator& build) const {
  // Every worker holds a copy: the copies together must leave a wide margin in the budget (the
  // estimate may be low; an underestimated broadcast fails the query, as a map join does).
  double bytes = build.estimated_rows * row_width(build, ctx_) * options_.workers;
  if (bytes > static_cast<double>(options_.memory_limit) * options_.broadcast_memory_share) return false;
  // The foundation planner's rule of thumb; the cost-based planner compares costs instead.
  return options_.cost_based || build.estimated_rows <= options_.broadcast_max_rows;
}

CostModelOptions PhysicalPlanner::cost_options() const {
  CostModelOptions o;
  o.workers = options_.workers;
  o.memory_limit = options_.memory_limit;
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
    if (const Expr* k = key_column(e)) return k->column_id;
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
    case LogicalJoinType::Inner: swap = !lkeys.empty() && left->estimated_rows < right->estimated_rows; break;
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
  const bool needs_partitioned = type == JoinType::FullOuter;
  const Distribution& P = probe->distribution;
  const Distribution& B = build->distribution;
  Distribution out = P;
  auto partitioned_on_keys = [&](const Distribution& d, const std::vector<ColumnId>& keys) {
    return d.kind == StreamDistribution::Hashed && d.columns == keys && d.buckets == options_.workers;
  };
  if (P.is_single_instance() && B.is_single_instance()) {
    hj->join_distribution = JoinDistribution::Single;
    out = P.kind == StreamDistribution::Replicated && B.kind == StreamDistribution::Replicated ? Distribution::replicated()
                                                                                              : Distribution::single();
  } else if (P.is_single_instance()) {
    // A small single stream probing a distributed one: bring the other side to it.
    build = exchange(std::move(build), ExchangeKind::Gather);
    hj->join_distribution = JoinDistribution::Single;
    out = Distribution::single();
  } else if (B.kind == StreamDistribution::Replicated && !needs_partitioned) {
    hj->join_distribution = JoinDistribution::Reference;
  } else if (type != JoinType::NullAwareAnti && colocated(P, pkeys, B, bkeys)) {
    // Not for NOT IN: "the build side holds a NULL" and "the build side is empty" are properties
    // of the whole build side, which a worker holding one bucket of it cannot decide.
    hj->join_distribution = JoinDistribution::Colocated;
  } else {
    // Broadcast the build side, or repartition. The foundation planner broadcasts a small build
    // side and otherwise repartitions both sides; the cost-based planner prices every way of
    // bringing matching rows together and takes the cheapest:
    //   broadcast   the build side copied to every worker (only if the copies fit the budget
    //               with margin; forced for NOT IN, which needs every build row everywhere, and
    //               for a single-worker build side);
    //   to probe    the probe side stays hashed where it is (on some of the keys); the build side
    //               is repartitioned on the matching keys into the probe's bucket layout;
    //   to build    the mirror image;
    //   both        both sides repartitioned on the keys, one bucket per worker (a side already
    //               so partitioned stays).
    // FULL OUTER cannot broadcast. Costs: physical_cost.hpp.
    const bool forced_broadcast = type == JoinType::NullAwareAnti || B.kind == StreamDistribution::Single;
    const bool may_broadcast = !needs_partitioned && (forced_broadcast || fits_broadcast(*build));
    enum Way { Broadcast, ToProbe, ToBuild, Both };
    Way way = may_broadcast && (forced_broadcast || !options_.cost_based) ? Broadcast : Both;
    std::vector<size_t> ppos, bpos;
    if (options_.cost_based && !forced_broadcast) {
      const CostModelOptions o = cost_options();
      const double inf = std::numeric_limits<double>::infinity();
      const double p = std::max(0.0, probe->estimated_rows), b = std::max(0.0, build->estimated_rows);
      const double pw = row_width(*probe, ctx_), bw = row_width(*build, ctx_);
      const double out_rows = std::max(0.0, op.estimated_rows);
      auto repartition = [&](double rows, double width) { return exchange_cost(ExchangeKind::Repartition, rows, width, o).total; };
      const double join_local = hash_join_cost(p, b, out_rows, bw, false, o).total;
      double cost[4] = {inf, inf, inf, inf};
      if (may_broadcast)
        cost[Broadcast] = exchange_cost(ExchangeKind::Broadcast, b, bw, o).total + hash_join_cost(p, b, out_rows, bw, true, o).total;
      if (key_positions(P, pkeys, ppos)) cost[ToProbe] = repartition(b, bw) + join_local;
      if (key_positions(B, bkeys, bpos)) cost[ToBuild] = repartition(p, pw) + join_local;
      cost[Both] = (partitioned_on_keys(P, pkeys) ? 0 : repartition(p, pw)) +
                   (partitioned_on_keys(B, bkeys) ? 0 : repartition(b, bw)) + join_local;
      for (Way w : {Broadcast, ToProbe, ToBuild})
        if (cost[w] < cost[way]) way = w;
      // Under the memory budget: a way whose estimated peak (memory_estimate.hpp: this join's subtree, its
      // exchange buffers and tables alive together) exceeds the limit loses to the cheapest that fits. When
      // none fits, or the cheapest fits, the cheapest stays: with the default budget plans do not change.
      auto peak = [&](Way w) {
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
        const bool move_probe = w == ToBuild || (w == Both && !partitioned_on_keys(P, pkeys));
        const bool move_build = w == ToProbe || w == Broadcast || (w == Both && !partitioned_on_keys(B, bkeys));
        const Distribution build_to = w == Broadcast ? Distribution::replicated() : w == ToProbe ? P : hashed;
        const Distribution probe_to = w == ToBuild ? B : hashed;
        auto j = std::make_unique<PhysicalHashJoin>(NodeId{});
        j->estimated_rows = op.estimated_rows;
        j->outputs = probe->outputs;
        j->distribution = move_probe ? probe_to : P;
        stand_in(probe, move_probe, ExchangeKind::Repartition, probe_to);
        stand_in(build, move_build, w == Broadcast ? ExchangeKind::Broadcast : ExchangeKind::Repartition, build_to);
        j->children.push_back(std::move(probe));
        j->children.push_back(std::move(build));
        const double bytes = estimate_peak_memory(*j, ctx_, options_.workers, {}, false, executor_threads()).total;
        probe = std::move(j->children[0]);
        build = std::move(j->children[1]);
        if (move_probe) probe = std::move(probe->children[0]);
        if (move_build) build = std::move(build->children[0]);
        return bytes;
      };
      const double limit = static_cast<double>(options_.memory_limit);
      if (peak(way) > limit) {
        // Broadcast is a candidate here even beyond broadcast_memory_share (the margin against a low
        // estimate: an underestimated broadcast fails the query) when every other way is estimated to exceed
        // the budget, but only with a margin of its own: its estimated peak at most half the budget.
        const bool beyond_share = cost[Broadcast] == inf && !needs_partitioned;
        if (beyond_share)
          cost[Broadcast] = exchange_cost(ExchangeKind::Broadcast, b, bw, o).total + hash_join_cost(p, b, out_rows, bw, true, o).total;
        int fitting = -1;
        for (Way w : {Broadcast, ToProbe, ToBuild, Both})
          if (cost[w] < inf && (fitting < 0 || cost[w] < cost[fitting]) &&
              peak(w) <= (w == Broadcast && beyond_share ? limit / 2 : limit))
            fitting = w;
        if (fitting >= 0) way = static_cast<Way>(fitting);
      }
    }
    auto pick = [](const std::vector<ColumnId>& keys, const std::vector<size_t>& pos) {
      std::vector<ColumnId> out;
      for (size_t i : pos) out.push_back(keys[i]);
      return out;
    };
    switch (way) {
      case Broadcast:
        build = exchange(std::move(build), ExchangeKind::Broadcast);
        hj->join_distribution = JoinDistribution::Broadcast;
        break;
      case ToProbe:
        // Hash the build side's matching keys, in the order of the probe's hash columns, into
        // the probe's buckets: each build row goes to the worker holding its matches.
        build = exchange(std::move(build), ExchangeKind::Repartition, pick(bkeys, ppos), P.buckets);
        hj->join_distribution = JoinDistribution::Partitioned;
        break;
      case ToBuild: {
        probe = exchange(std::move(probe), ExchangeKind::Repartition, pick(pkeys, bpos), B.buckets);
        hj->join_distribution = JoinDistribution::Partitioned;
        out = probe->distribution;
        break;
      }
      case Both:
        if (!partitioned_on_keys(P, pkeys)) probe = exchange(std::move(probe), ExchangeKind::Repartition, pkeys);
        if (!partitioned_on_keys(B, bkeys)) build = exchange(std::move(build), ExchangeKind::Repartition, bkeys);
        hj->join_distribution = JoinDistribution::Partitioned;
        out = Distribution::hashed(pkeys, options_.workers);
        break;
    }
  }
  // A distributed FULL OUTER join's rows that only the build side had carry NULL probe columns and
  // sit on the worker of their build row, so its output is not hashed on any probe column (a NULL
  // group would be split across workers). A single or replicated join keeps its distribution.
  if (type == JoinType::FullOuter && out.kind == StreamDistribution::Hashed) out = Distribution::any();
  hj->distribution = out;
  hj->probe_keys = std::move(pkeys);
  hj->build_keys = std::move(bkeys);
  hj->outputs = probe->outputs;
  if (!join_outputs_probe_only(type)) hj->outputs.insert(hj->outputs.end(), build->outputs.begin(), build->outputs.end());
  hj->children.push_back(std::move(probe));
  hj->children.push_back(std::move(build));
  return hj;
}

}  // namespace hindsight
