#include "planner/optimizer/cost_based_join_order.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"
#include "planner/optimizer/join_order/best_join_order.hpp"
#include "planner/optimizer/join_order/cost_model.hpp"

namespace hindsight {

namespace {

bool is_inner_join(const LogicalOperator& op) {
  return op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Inner;
}

size_t count_leaves(const LogicalOperator& op) {
  if (!is_inner_join(op)) return 1;
  return count_leaves(*op.children[0]) + count_leaves(*op.children[1]);
}

void flatten(LogicalPtr& node, std::vector<LogicalPtr>& leaves, std::vector<ExprPtr>& conds, std::vector<NodeId>& ids) {
  if (!is_inner_join(*node)) {
    leaves.push_back(std::move(node));
    return;
  }
  ids.push_back(node->id);
  for (auto& c : node->as<LogicalJoin>().conditions) conds.push_back(std::move(c));
  flatten(node->children[0], leaves, conds, ids);
  flatten(node->children[1], leaves, conds, ids);
}

std::string shape(const LogicalOperator& op) {
  if (!is_inner_join(op)) return std::to_string(op.id);
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
  if (!is_inner_join(*plan) || count_leaves(*plan) < 3) {
    for (auto& c : plan->children) changed |= order_joins_by_cost(c, model, ctx);
    if (changed) {
      refresh_outputs(*plan);
      model.estimate(*plan);
    }
    return changed;
  }
  if (const size_t n = count_leaves(*plan); n > static_cast<size_t>(joinorder::QueryGraph::kMaxRelations))
    throw Error(ErrorCode::NOT_SUPPORTED,
                fmt::format("an inner join of {} inputs: the cost-based join order takes at most {} (SET disabled_rules "
                            "= cost_based_join_order keeps the written order)",
                            n, joinorder::QueryGraph::kMaxRelations));
  const std::string before = shape(*plan);
  std::vector<LogicalPtr> leaves;
  std::vector<ExprPtr> conds;
  std::vector<NodeId> ids;
  flatten(plan, leaves, conds, ids);
  for (auto& l : leaves) order_joins_by_cost(l, model, ctx);

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
  joinorder::HashJoinCostModel cost;
  // With observed statistics, every set of relations the enumerator prices is first looked up by
  // its join-set signature (the inputs and the conditions inside the set).
  joinorder::CardinalityOverride observed;
  if (model.has_stats_source() && leaves.size() < 64) {
    observed = [&](joinorder::RelSet set) -> std::optional<double> {
      if (__builtin_popcountll(set) < 2) return std::nullopt;
      std::vector<const LogicalOperator*> inputs;
      for (size_t i = 0; i < leaves.size(); ++i)
        if (set >> i & 1) inputs.push_back(leaves[i].get());
      std::vector<const Expr*> inside;
      for (size_t k = 0; k < conds.size(); ++k)
        if (condition_inside(touched_by[k], set, leaves.size())) inside.push_back(conds[k].get());
      return model.observed_join_rows(inputs, inside);
    };
  }
  joinorder::CardinalityEstimator estimator(graph, observed);
  joinorder::JoinTree tree = joinorder::best_join_order(graph, cost, estimator.as_function());

  // Rebuild bottom-up; reuse the original join ids.
  size_t next_id = 0;
  std::vector<LogicalPtr> built(tree.nodes.size());
  for (size_t n = 0; n < tree.nodes.size(); ++n) {
    const joinorder::JoinNode& jn = tree.nodes[n];
    if (jn.is_leaf()) {
      built[n] = std::move(leaves[static_cast<size_t>(jn.relation)]);
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
  // Conditions outside the graph (fewer than two inputs) and any the tree left out go on top.
  for (auto& c : conds)
    if (c) plan->as<LogicalJoin>().conditions.push_back(std::move(c));
  model.estimate(*plan);
  return shape(*plan) != before || changed;
}

}  // namespace hindsight
