#include "planner/rewrite/rules/reorder_inner_joins.hpp"

#include "planner/logical/plan_utils.hpp"

namespace hindsight {

namespace {

bool is_inner_join(const LogicalOperator& op) {
  return op.kind == LogicalKind::Join && op.as<LogicalJoin>().type == LogicalJoinType::Inner;
}

void flatten(LogicalPtr& node, std::vector<LogicalPtr>& leaves, std::vector<ExprPtr>& conds, std::vector<NodeId>& joins) {
  if (!is_inner_join(*node)) {
    leaves.push_back(std::move(node));
    return;
  }
  joins.push_back(node->id);
  auto& j = node->as<LogicalJoin>();
  for (auto& c : j.conditions) conds.push_back(std::move(c));
  flatten(node->children[0], leaves, conds, joins);
  flatten(node->children[1], leaves, conds, joins);
}

/// Leaf order and conditions-per-level of a left-deep tree, to detect "already in this shape".
void shape(const LogicalOperator& op, std::vector<NodeId>& leaves, std::vector<size_t>& conds) {
  if (!is_inner_join(op)) {
    leaves.push_back(op.id);
    return;
  }
  shape(*op.children[0], leaves, conds);
  shape(*op.children[1], leaves, conds);
  conds.push_back(op.as<LogicalJoin>().conditions.size());
}

}  // namespace

bool ReorderInnerJoins::apply(LogicalPtr& plan, RewriteContext& ctx) {
  bool changed = false;
  if (is_inner_join(*plan)) {
    std::vector<NodeId> old_leaves;
    std::vector<size_t> old_conds;
    shape(*plan, old_leaves, old_conds);

    NodeId top_id = plan->id;
    std::vector<LogicalPtr> leaves;
    std::vector<ExprPtr> conds;
    std::vector<NodeId> join_ids;
    flatten(plan, leaves, conds, join_ids);

    std::vector<std::set<ColumnId>> cols;
    for (auto& c : conds) cols.push_back(columns_of(*c));
    std::vector<bool> used(leaves.size(), false), placed(conds.size(), false);
    std::set<ColumnId> have = output_set(*leaves[0]);
    std::vector<size_t> order{0};
    used[0] = true;
    while (order.size() < leaves.size()) {
      size_t pick = leaves.size();
      for (size_t i = 0; i < leaves.size() && pick == leaves.size(); ++i) {
        if (used[i]) continue;
        auto mine = output_set(*leaves[i]);
        for (size_t k = 0; k < conds.size(); ++k) {
          bool touches_me = false, rest_ok = true;
          for (ColumnId c : cols[k]) {
            if (mine.count(c)) touches_me = true;
            else if (!have.count(c)) rest_ok = false;
          }
          if (touches_me && rest_ok && !placed[k]) {
            bool touches_have = false;
            for (ColumnId c : cols[k]) touches_have |= have.count(c) > 0;
            if (touches_have) {
              pick = i;
              break;
            }
          }
        }
      }
      if (pick == leaves.size())
        for (size_t i = 0; i < leaves.size(); ++i)
          if (!used[i]) {
            pick = i;
            break;
          }
      used[pick] = true;
      order.push_back(pick);
      auto mine = output_set(*leaves[pick]);
      have.insert(mine.begin(), mine.end());
    }

    // Rebuild left-deep; reuse the original join ids bottom-up so the mapper keeps its links.
    std::vector<NodeId> new_leaf_ids;
    for (size_t i : order) new_leaf_ids.push_back(leaves[i]->id);
    LogicalPtr tree = std::move(leaves[order[0]]);
    std::set<ColumnId> avail = output_set(*tree);
    std::vector<size_t> new_conds;
    for (size_t n = 1; n < order.size(); ++n) {
      NodeId id = n - 1 < join_ids.size() ? join_ids[join_ids.size() - n] : ctx.plan_ctx->next_node_id();
      if (n == order.size() - 1) id = top_id;
      auto j = std::make_unique<LogicalJoin>(id);
      j->type = LogicalJoinType::Inner;
      LogicalPtr right = std::move(leaves[order[n]]);
      auto r = output_set(*right);
      avail.insert(r.begin(), r.end());
      for (size_t k = 0; k < conds.size(); ++k) {
        if (placed[k] || !covered_by(*conds[k], avail)) continue;
        placed[k] = true;
        j->conditions.push_back(std::move(conds[k]));
      }
      new_conds.push_back(j->conditions.size());
      j->children.push_back(std::move(tree));
      j->children.push_back(std::move(right));
      refresh_outputs(*j);
      tree = std::move(j);
    }
    // Anything left (should not happen: all conditions are covered at the top) stays at the top.
    for (size_t k = 0; k < conds.size(); ++k)
      if (!placed[k]) tree->as<LogicalJoin>().conditions.push_back(std::move(conds[k]));
    plan = std::move(tree);
    changed = new_leaf_ids != old_leaves || new_conds != old_conds;
    // Recurse into the leaves (which are not inner joins).
    LogicalOperator* cur = plan.get();
    while (is_inner_join(*cur)) {
      changed |= apply(cur->children[1], ctx);
      if (!is_inner_join(*cur->children[0])) {
        changed |= apply(cur->children[0], ctx);
        break;
      }
      cur = cur->children[0].get();
    }
    return changed;
  }
  for (auto& c : plan->children) changed |= apply(c, ctx);
  refresh_outputs(*plan);
  return changed;
}

}  // namespace hindsight
