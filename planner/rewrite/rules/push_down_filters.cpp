#include "planner/rewrite/rules/push_down_filters.hpp"

#include <map>

#include "planner/logical/plan_utils.hpp"

namespace hindsight {

namespace {

/// Adds conjuncts to a filter directly above `child` (reusing one if it is already a filter).
void add_filter_above(LogicalPtr& child, std::vector<ExprPtr> conj, RewriteContext& ctx, NodeId origin) {
  if (conj.empty()) return;
  if (child->kind == LogicalKind::Filter) {
    auto& f = child->as<LogicalFilter>();
    for (auto& c : conj) f.conjuncts.push_back(std::move(c));
    return;
  }
  auto f = std::make_unique<LogicalFilter>(ctx.plan_ctx->next_node_id());
  f->conjuncts = std::move(conj);
  f->outputs = child->outputs;
  f->children.push_back(std::move(child));
  // A filter made of some of another filter's conjuncts is a new computation, not a replacement:
  // no rewrite link (only a filter that disappears is linked to what took its place).
  (void)origin;
  child = std::move(f);
}

bool is_semi_like(LogicalJoinType t) {
  return t == LogicalJoinType::Semi || t == LogicalJoinType::Anti || t == LogicalJoinType::NullAwareAnti;
}

/// Pushes the conjuncts of filter `node` into its child; returns true if anything moved.
bool push_filter(LogicalPtr& node, RewriteContext& ctx) {
  auto& f = node->as<LogicalFilter>();
  LogicalPtr& child = node->children[0];
  std::vector<ExprPtr> stay;
  bool moved = false;
  switch (child->kind) {
    case LogicalKind::Filter: {
      auto& cf = child->as<LogicalFilter>();
      for (auto& c : f.conjuncts) cf.conjuncts.push_back(std::move(c));
      f.conjuncts.clear();
      moved = true;
      break;
    }
    case LogicalKind::Get: {
      auto& g = child->as<LogicalGet>();
      for (auto& c : f.conjuncts) g.filters.push_back(std::move(c));
      f.conjuncts.clear();
      moved = true;
      break;
    }
    case LogicalKind::Project: {
      auto& p = child->as<LogicalProject>();
      std::map<ColumnId, const Expr*> defs;
      for (size_t i = 0; i < p.exprs.size(); ++i) defs[p.outputs[i]] = p.exprs[i].get();
      std::vector<ExprPtr> down;
      for (auto& c : f.conjuncts) down.push_back(substitute(*c, defs));
      f.conjuncts.clear();
      add_filter_above(child->children[0], std::move(down), ctx, node->id);
      moved = true;
      break;
    }
    case LogicalKind::Sort: {
      add_filter_above(child->children[0], std::move(f.conjuncts), ctx, node->id);
      f.conjuncts.clear();
      moved = true;
      break;
    }
    case LogicalKind::Aggregate: {
      auto& a = child->as<LogicalAggregate>();
      std::set<ColumnId> groups(a.groups.begin(), a.groups.end());
      std::vector<ExprPtr> down;
      for (auto& c : f.conjuncts) {
        if (!a.groups.empty() && covered_by(*c, groups)) down.push_back(std::move(c));
        else stay.push_back(std::move(c));
      }
      moved = !down.empty();
      add_filter_above(child->children[0], std::move(down), ctx, node->id);
      f.conjuncts = std::move(stay);
      break;
    }
    case LogicalKind::UnionAll: {
      for (auto& u : child->children) {
        std::map<ColumnId, const Expr*> defs;
        std::vector<ExprPtr> refs;
        for (size_t i = 0; i < child->outputs.size(); ++i)
          refs.push_back(Expr::column(u->outputs[i], ctx.plan_ctx->column(u->outputs[i]).type));
        for (size_t i = 0; i < child->outputs.size(); ++i) defs[child->outputs[i]] = refs[i].get();
        std::vector<ExprPtr> down;
        for (auto& c : f.conjuncts) down.push_back(substitute(*c, defs));
        add_filter_above(u, std::move(down), ctx, node->id);
      }
      f.conjuncts.clear();
      moved = true;
      break;
    }
    case LogicalKind::Join: {
      auto& j = child->as<LogicalJoin>();
      auto left = output_set(*child->children[0]);
      auto right = output_set(*child->children[1]);
      std::vector<ExprPtr> to_left, to_right;
      for (auto& c : f.conjuncts) {
        bool l = covered_by(*c, left), r = covered_by(*c, right);
        bool left_ok = j.type == LogicalJoinType::Inner || j.type == LogicalJoinType::Left || is_semi_like(j.type);
        bool right_ok = j.type == LogicalJoinType::Inner || j.type == LogicalJoinType::Right;
        if (l && left_ok) to_left.push_back(std::move(c));
        else if (r && right_ok) to_right.push_back(std::move(c));
        else if (j.type == LogicalJoinType::Inner) j.conditions.push_back(std::move(c));
        else stay.push_back(std::move(c));
      }
      moved = stay.size() != f.conjuncts.size();
      add_filter_above(child->children[0], std::move(to_left), ctx, node->id);
      add_filter_above(child->children[1], std::move(to_right), ctx, node->id);
      f.conjuncts = std::move(stay);
      break;
    }
    default: return false;
  }
  if (f.conjuncts.empty()) {
    LogicalPtr c = std::move(node->children[0]);
    if (ctx.on_replace) ctx.on_replace(node->id, c->id, "push_down_filters");
    node = std::move(c);
  }
  return moved;
}

/// Moves one-sided join conditions into the join's inputs where that keeps its meaning.
bool push_join_conditions(LogicalOperator& op, RewriteContext& ctx) {
  auto& j = op.as<LogicalJoin>();
  auto left = output_set(*op.children[0]);
  auto right = output_set(*op.children[1]);
  std::vector<ExprPtr> keep, to_left, to_right;
  for (auto& c : j.conditions) {
    bool l = covered_by(*c, left), r = covered_by(*c, right);
    bool left_ok = j.type == LogicalJoinType::Inner || j.type == LogicalJoinType::Right || j.type == LogicalJoinType::Semi;
    bool right_ok = j.type == LogicalJoinType::Inner || j.type == LogicalJoinType::Left || is_semi_like(j.type);
    if (l && left_ok) to_left.push_back(std::move(c));
    else if (r && right_ok) to_right.push_back(std::move(c));
    else keep.push_back(std::move(c));
  }
  bool moved = !to_left.empty() || !to_right.empty();
  j.conditions = std::move(keep);
  add_filter_above(op.children[0], std::move(to_left), ctx, op.id);
  add_filter_above(op.children[1], std::move(to_right), ctx, op.id);
  return moved;
}

bool push_down(LogicalPtr& node, RewriteContext& ctx) {
  bool changed = false;
  if (node->kind == LogicalKind::Filter) {
    // Repeat while the filter keeps moving (it may pass several nodes).
    while (node->kind == LogicalKind::Filter && push_filter(node, ctx)) changed = true;
  }
  if (node->kind == LogicalKind::Join) changed |= push_join_conditions(*node, ctx);
  for (auto& c : node->children) changed |= push_down(c, ctx);
  refresh_outputs(*node);
  return changed;
}

}  // namespace

bool PushDownFilters::apply(LogicalPtr& plan, RewriteContext& ctx) { return push_down(plan, ctx); }

}  // namespace hindsight
