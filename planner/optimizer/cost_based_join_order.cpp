#include "planner/optimizer/cost_based_join_order.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"
#include "planner/optimizer/join_order/best_join_order.hpp"
#include "planner/optimizer/join_order/cost_model.hpp"
#include "planner/signing/plan_signer.hpp"

namespace hindsight {

namespace {

bool is_inner_join(const LogicalOperator& op) {
  return op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Inner;
}

bool is_semi_like(const LogicalOperator& op) {
  if (op.kind != LogicalKind::Join) return false;
  const LogicalJoinType t = op.as<LogicalJoin>().type;
  return t == LogicalJoinType::Semi || t == LogicalJoinType::Anti || t == LogicalJoinType::NullAwareAnti;
}

/// A join the enumerator takes apart: an inner join, or a semi, anti or null-aware anti join whose conditions read
/// its left side (one that reads only its right side, or nothing, stays a barrier: it has no place to be pushed to).
bool is_region_join(const LogicalOperator& op) { return is_inner_join(op) || is_semi_member_join(op); }

/// What the enumerator sees of a region: relations (inner-join inputs and semi members) and inner joins.
struct RegionSize {
  size_t relations = 0;
  size_t inner_joins = 0;
};

void measure(const LogicalOperator& op, RegionSize& size) {
  if (is_inner_join(op)) {
    ++size.inner_joins;
    measure(*op.children[0], size);
    measure(*op.children[1], size);
  } else if (is_region_join(op)) {
    ++size.relations;  // the right input: one semi member
    measure(*op.children[0], size);
  } else {
    ++size.relations;
  }
}

/// A semi, anti or null-aware anti join of a region: the written join node (no children; its type, conditions and
/// id are kept) and its right input, one atomic relation of the graph.
struct SemiMember {
  LogicalPtr join;
  LogicalPtr right;
};

PlanSigner::SemiMemberRef semi_member_ref(const SemiMember& m) {
  const auto& j = m.join->as<LogicalJoin>();
  return PlanSigner::SemiMemberRef{j.type, &j.conditions, m.right.get()};
}

struct Region {
  std::vector<LogicalPtr> leaves;  // inputs of the inner joins, graph relations 0..n-1
  std::vector<ExprPtr> conds;      // conditions of the inner joins
  std::vector<NodeId> ids;         // ids of the inner joins
  std::vector<SemiMember> semis;   // graph relations n.., outermost first
};

void flatten(LogicalPtr& node, Region& r) {
  if (is_inner_join(*node)) {
    r.ids.push_back(node->id);
    for (auto& c : node->as<LogicalJoin>().conditions) r.conds.push_back(std::move(c));
    flatten(node->children[0], r);
    flatten(node->children[1], r);
    return;
  }
  if (is_region_join(*node)) {
    LogicalPtr left = std::move(node->children[0]);
    SemiMember m;
    m.right = std::move(node->children[1]);
    node->children.clear();
    m.join = std::move(node);
    r.semis.push_back(std::move(m));
    flatten(left, r);
    return;
  }
  r.leaves.push_back(std::move(node));
}

std::string shape(const LogicalOperator& op) {
  if (!is_inner_join(op) && !is_semi_like(op)) return std::to_string(op.id);
  return "(" + shape(*op.children[0]) + " " + shape(*op.children[1]) + ")";
}

}  // namespace

std::vector<uint64_t> condition_inputs(const std::vector<const LogicalOperator*>& leaves,
                                       const std::vector<const Expr*>& conditions) {
  std::vector<std::set<ColumnId>> cols;
  for (const LogicalOperator* l : leaves) cols.push_back(output_set(*l));
  std::vector<uint64_t> touched(conditions.size(), 0);
  for (size_t k = 0; k < conditions.size(); ++k)
    for (ColumnId c : columns_of(*conditions[k]))
      for (size_t i = 0; i < cols.size(); ++i)
        if (cols[i].count(c)) touched[k] |= uint64_t{1} << i;
  return touched;
}

bool condition_inside(uint64_t touched, uint64_t set, size_t leaf_count) {
  const bool all = set == (leaf_count >= 64 ? ~uint64_t{0} : (uint64_t{1} << leaf_count) - 1);
  return all || (touched != 0 && (touched & ~set) == 0 && __builtin_popcountll(touched) >= 2);
}

bool order_joins_by_cost(LogicalPtr& plan, CardinalityModel& model, PlanContext& ctx) {
  bool changed = false;
  RegionSize size;
  if (is_region_join(*plan)) measure(*plan, size);
  if (size.inner_joins == 0 || size.relations < 3) {
    for (auto& c : plan->children) changed |= order_joins_by_cost(c, model, ctx);
    if (changed) {
      refresh_outputs(*plan);
      model.estimate(*plan);
    }
    return changed;
  }
  if (size.relations > static_cast<size_t>(joinorder::QueryGraph::kMaxRelations))
    throw Error(ErrorCode::NOT_SUPPORTED,
                fmt::format("an inner join of {} inputs: the cost-based join order takes at most {} (SET disabled_rules "
                            "= cost_based_join_order keeps the written order)",
                            size.relations, joinorder::QueryGraph::kMaxRelations));
  const std::string before = shape(*plan);
  Region region;
  flatten(plan, region);
  std::vector<LogicalPtr>& leaves = region.leaves;
  std::vector<ExprPtr>& conds = region.conds;
  const std::vector<NodeId>& ids = region.ids;
  for (auto& l : leaves) changed |= order_joins_by_cost(l, model, ctx);
  for (auto& m : region.semis) changed |= order_joins_by_cost(m.right, model, ctx);

  joinorder::QueryGraph graph;
  for (size_t i = 0; i < leaves.size(); ++i)
    graph.add_relation(std::max(1.0, model.estimate(*leaves[i])), static_cast<int64_t>(i));
  // One hyperedge per condition. Conditions between the same inputs (composite keys) share one
  // selectivity, combined with backoff as the model does: the first edge carries it, the others
  // 1, and all are applied at the same join.
  std::vector<const LogicalOperator*> leaf_ptrs;
  for (auto& l : leaves) leaf_ptrs.push_back(l.get());
  std::vector<const Expr*> cond_ptrs;
  for (auto& c : conds) cond_ptrs.push_back(c.get());
  const std::vector<joinorder::RelSet> touched_by = condition_inputs(leaf_ptrs, cond_ptrs);
  std::map<joinorder::RelSet, std::vector<size_t>> by_inputs;
  for (size_t k = 0; k < conds.size(); ++k)
    if (__builtin_popcountll(touched_by[k]) >= 2) by_inputs[touched_by[k]].push_back(k);  // else: on top, below
  for (auto& [touched, ks] : by_inputs) {
    joinorder::RelSet first = touched & (~touched + 1);
    double left_rows = graph.relations()[static_cast<size_t>(__builtin_ctzll(first))].cardinality;
    double right_rows = 1;
    for (size_t i = 0; i < leaves.size(); ++i)
      if ((touched & ~first) >> i & 1) right_rows *= graph.relations()[i].cardinality;
    std::vector<double> keys;
    double combined = 1;
    for (size_t k : ks) {
      double sel = model.join_condition_selectivity(*conds[k], left_rows, right_rows);
      bool eq = conds[k]->kind == ExprKind::Call && conds[k]->op == ScalarOp::Eq;
      if (eq) keys.push_back(sel);
      else combined *= sel;
    }
    combined *= CardinalityModel::combine_key_selectivities(keys);
    for (size_t n = 0; n < ks.size(); ++n)
      graph.add_edge(first, touched & ~first, n == 0 ? combined : 1.0, static_cast<int>(ks[n]));
  }
  // Semi members: the right input is one relation; its conditions' left-side columns name the relations that
  // must be below it; the share of left rows it keeps is the model's (semi_join_keep, as for the written node).
  std::set<ColumnId> left_cols;
  for (auto& l : leaves)
    for (ColumnId c : l->outputs) left_cols.insert(c);
  for (size_t m = 0; m < region.semis.size(); ++m) {
    const LogicalJoin& j = region.semis[m].join->as<LogicalJoin>();
    std::vector<const Expr*> semi_conds;
    for (auto& c : j.conditions) semi_conds.push_back(c.get());
    joinorder::RelSet required = 0;
    for (joinorder::RelSet t : condition_inputs(leaf_ptrs, semi_conds)) required |= t;
    HS_ASSERT(required != 0, "join order: a semi member whose conditions read no left input");
    const double right_rows = std::max(1.0, model.estimate(*region.semis[m].right));
    graph.add_semi_member(right_rows, required, model.semi_join_keep(j, left_cols, right_rows),
                          static_cast<int64_t>(m));
  }
  joinorder::HashJoinCostModel cost;
  // With observed statistics, every set of relations the enumerator prices is first looked up by
  // its join-set signature (the inputs, the conditions inside the set and its semi members).
  joinorder::CardinalityOverride observed;
  if (model.has_stats_source() && leaves.size() < 64) {
    observed = [&](joinorder::RelSet set) -> std::optional<double> {
      if (__builtin_popcountll(set) < 2) return std::nullopt;
      std::vector<const LogicalOperator*> inputs;
      for (size_t i = 0; i < leaves.size(); ++i)
        if (set >> i & 1) inputs.push_back(leaves[i].get());
      const joinorder::RelSet inner = set & ~graph.semi_members();
      std::vector<const Expr*> inside;
      for (size_t k = 0; k < conds.size(); ++k)
        if (condition_inside(touched_by[k], inner, leaves.size())) inside.push_back(conds[k].get());
      std::vector<PlanSigner::SemiMemberRef> members;
      for (size_t m = 0; m < region.semis.size(); ++m)
        if (set >> (leaves.size() + m) & 1) members.push_back(semi_member_ref(region.semis[m]));
      return model.observed_join_rows(inputs, inside, members);
    };
  }
  joinorder::CardinalityEstimator estimator(graph, observed);
  joinorder::JoinTree tree = joinorder::best_join_order(graph, cost, estimator.as_function());

  // Rebuild bottom-up; reuse the original join ids (inner joins) and nodes (semi joins).
  size_t next_id = 0;
  std::vector<LogicalPtr> built(tree.nodes.size());
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    const joinorder::JoinNode& jn = tree.nodes[n];
    if (jn.is_leaf()) {
      if (!graph.is_semi_member(jn.relation)) built[n] = std::move(leaves[static_cast<size_t>(jn.relation)]);
      continue;  // a semi member's input is taken by its semi join
    }
    if (jn.semi) {
      const size_t m = static_cast<size_t>(tree.nodes[static_cast<size_t>(jn.right)].relation) - leaves.size();
      LogicalPtr j = std::move(region.semis[m].join);
      j->children.push_back(std::move(built[static_cast<size_t>(jn.left)]));
      j->children.push_back(std::move(region.semis[m].right));
      refresh_outputs(*j);
      built[n] = std::move(j);
      continue;
    }
    NodeId id = next_id < ids.size() ? ids[ids.size() - 1 - next_id++] : ctx.next_node_id();
    auto j = std::make_unique<LogicalJoin>(id);
    j->type = LogicalJoinType::Inner;
    for (int e : jn.edges_applied) {
      int k = graph.edges()[static_cast<size_t>(e)].tag;
      j->conditions.push_back(std::move(conds[static_cast<size_t>(k)]));
    }
    j->children.push_back(std::move(built[static_cast<size_t>(jn.left)]));
    j->children.push_back(std::move(built[static_cast<size_t>(jn.right)]));
    refresh_outputs(*j);
    built[n] = std::move(j);
  }
  plan = std::move(built[static_cast<size_t>(tree.root)]);
  // Conditions outside the graph (fewer than two inputs) and any the tree left out go on the top
  // inner join: the one over every inner-join input, under the semi joins applied last (a
  // condition on an anti join would keep the rows it rejects).
  LogicalOperator* top = plan.get();
  while (!is_inner_join(*top)) top = top->children.at(0).get();
  for (auto& c : conds)
    if (c) top->as<LogicalJoin>().conditions.push_back(std::move(c));
  model.estimate(*plan);
  return shape(*plan) != before || changed;
}

}  // namespace hindsight
