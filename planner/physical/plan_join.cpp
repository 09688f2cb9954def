// Join algorithm, sides and distribution for the first-version physical planner.
#include <set>

#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"
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

/// The key positions (into probe_keys) that `d`'s hash columns correspond to, if all of them are keys.
bool key_positions(const Distribution& d, const std::vector<ColumnId>& keys, std::vector<size_t>& out) {
  if (d.kind != StreamDistribution::Hashed) return false;
  out.clear();
  for (ColumnId c : d.columns) {
    size_t k = 0;
    while (k < keys.size() && keys[k] != c) ++k;
    if (k == keys.size()) return false;
    out.push_back(k);
  }
  return true;
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
  // Rough row width: 8 bytes a column plus string payloads.
  double width = 0;
  for (ColumnId c : build.outputs) width += ctx_.column(c).type.id == TypeId::Varchar ? 40 : 8;
  double bytes = build.estimated_rows * width * options_.workers;
  return build.estimated_rows <= options_.broadcast_max_rows &&
         bytes <= static_cast<double>(options_.memory_limit) * options_.broadcast_memory_share;
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
  std::vector<size_t> ppos;
  Distribution out = P;
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
  } else if (key_positions(P, pkeys, ppos) && hashed_on(B, bkeys, ppos) && P.buckets == B.buckets) {
    hj->join_distribution = JoinDistribution::Colocated;
  } else if (!needs_partitioned && (type == JoinType::NullAwareAnti || B.kind == StreamDistribution::Single ||
                                    fits_broadcast(*build))) {
    // NOT IN needs the whole build side on every worker (one NULL anywhere empties the result).
    build = exchange(std::move(build), ExchangeKind::Broadcast);
    hj->join_distribution = JoinDistribution::Broadcast;
  } else {
    if (!(P.kind == StreamDistribution::Hashed && P.columns == pkeys && P.buckets == options_.workers))
      probe = exchange(std::move(probe), ExchangeKind::Repartition, pkeys);
    if (!(B.kind == StreamDistribution::Hashed && B.columns == bkeys && B.buckets == options_.workers))
      build = exchange(std::move(build), ExchangeKind::Repartition, bkeys);
    hj->join_distribution = JoinDistribution::Partitioned;
    out = Distribution::hashed(pkeys, options_.workers);
  }
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
