#include "planner/rewrite/rules/constant_folding.hpp"

#include "planner/common/error.hpp"
#include "planner/common/stack_guard.hpp"
#include "planner/expr/evaluator.hpp"
#include "planner/logical/plan_utils.hpp"

namespace hindsight {

namespace {
bool is_bool_constant(const Expr& e, bool value) {
  return e.kind == ExprKind::Constant && !e.value.is_null && e.type.id == TypeId::Boolean && (e.value.i != 0) == value;
}

/// Folds `e` itself, its children being folded already. Kept out of line: fold_constants recurses once per level
/// of the tree (a chain of n operators is n levels), and its frame should stay small.
[[gnu::noinline]] bool fold_node(ExprPtr& e, bool changed) {
  if (e->kind == ExprKind::And || e->kind == ExprKind::Or) {
    bool is_and = e->kind == ExprKind::And;
    std::vector<ExprPtr> kept;
    for (auto& c : e->children) {
      if (is_bool_constant(*c, !is_and)) {  // FALSE in AND, TRUE in OR decides the result
        e = Expr::constant(Value::boolean(!is_and));
        return true;
      }
      if (is_bool_constant(*c, is_and)) {
        changed = true;
        continue;
      }
      kept.push_back(std::move(c));
    }
    if (kept.empty()) {
      e = Expr::constant(Value::boolean(is_and));
      return true;
    }
    if (kept.size() == 1) {
      e = std::move(kept[0]);
      return true;
    }
    e->children = std::move(kept);
    return changed;
  }
  if (e->kind == ExprKind::Constant || e->kind == ExprKind::ColumnRef) return changed;
  for (auto& c : e->children)
    if (c->kind != ExprKind::Constant) return changed;
  try {
    Value v = evaluate_constant(*e);
    v.type = e->type;
    e = Expr::constant(std::move(v));
    return true;
  } catch (const Error&) {
    // Leave it: the error (e.g. division by zero) belongs to execution, and only if a row reaches it.
    return changed;
  }
}

}  // namespace

bool fold_constants(ExprPtr& e) {
  if (!e->children.empty()) check_stack_depth("constant folding");
  bool changed = false;
  for (auto& c : e->children) changed |= fold_constants(c);
  return fold_node(e, changed);
}

bool ConstantFolding::apply(LogicalPtr& plan, RewriteContext& ctx) {
  bool changed = false;
  for (auto& c : plan->children) changed |= apply(c, ctx);
  for_each_expr(*plan, [&](ExprPtr& e) { changed |= fold_constants(e); });
  // Conjunct lists: drop TRUE; a Filter left without conjuncts disappears.
  auto drop_true = [&](std::vector<ExprPtr>& conj) {
    for (size_t i = 0; i < conj.size();) {
      if (is_bool_constant(*conj[i], true)) {
        conj.erase(conj.begin() + static_cast<long>(i));
        changed = true;
      } else {
        ++i;
      }
    }
  };
  if (plan->kind == LogicalKind::Filter) drop_true(plan->as<LogicalFilter>().conjuncts);
  if (plan->kind == LogicalKind::Join) drop_true(plan->as<LogicalJoin>().conditions);
  if (plan->kind == LogicalKind::Get) drop_true(plan->as<LogicalGet>().filters);
  if (plan->kind == LogicalKind::Filter && plan->as<LogicalFilter>().conjuncts.empty()) {
    LogicalPtr child = std::move(plan->children[0]);
    if (ctx.on_replace) ctx.on_replace(plan->id, child->id, name());
    plan = std::move(child);
    changed = true;
  }
  return changed;
}

}  // namespace hindsight
