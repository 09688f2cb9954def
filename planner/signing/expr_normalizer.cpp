#include "planner/signing/expr_normalizer.hpp"

#include "planner/common/stack_guard.hpp"
#include "planner/rewrite/rules/constant_folding.hpp"

namespace hindsight {

namespace {

void flatten(ExprPtr& e) {
  if (e->kind != ExprKind::And && e->kind != ExprKind::Or) return;
  std::vector<ExprPtr> flat;
  for (auto& c : e->children) {
    if (c->kind == e->kind)
      for (auto& g : c->children) flat.push_back(std::move(g));
    else
      flat.push_back(std::move(c));
  }
  e->children = std::move(flat);
}

bool contains_equal(const std::vector<ExprPtr>& list, const Expr& x) {
  for (auto& c : list)
    if (c->equals(x)) return true;
  return false;
}

void normalize(ExprPtr& e) {
  if (!e->children.empty()) check_stack_depth("signing");
  for (auto& c : e->children) normalize(c);
  if (e->kind == ExprKind::Call) {
    bool cmp = e->op == ScalarOp::Lt || e->op == ScalarOp::Le || e->op == ScalarOp::Gt || e->op == ScalarOp::Ge;
    if (cmp && e->children[0]->is_constant() && !e->children[1]->is_constant()) {
      std::swap(e->children[0], e->children[1]);
      e->op = mirror_comparison(e->op);
    }
    // Only < and <= remain; a constant may end up on the left, which is fine: the form is unique.
    if (e->op == ScalarOp::Gt || e->op == ScalarOp::Ge) {
      std::swap(e->children[0], e->children[1]);
      e->op = mirror_comparison(e->op);
    }
  }
  if (e->kind == ExprKind::InList && e->children.size() == 2) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(e->children[0]));
    args.push_back(std::move(e->children[1]));
    e = Expr::call(e->negated ? ScalarOp::Ne : ScalarOp::Eq, DataType::boolean(), std::move(args));
  }
  flatten(e);
  if (e->kind == ExprKind::And) {
    // Absorption: A AND (A OR B) = A.
    std::vector<bool> absorbed(e->children.size(), false);
    for (size_t i = 0; i < e->children.size(); ++i) {
      const Expr& c = *e->children[i];
      if (c.kind != ExprKind::Or) continue;
      for (size_t j = 0; j < e->children.size() && !absorbed[i]; ++j)
        if (j != i && e->children[j]->kind != ExprKind::Or && contains_equal(c.children, *e->children[j])) absorbed[i] = true;
    }
    std::vector<ExprPtr> kept;
    for (size_t i = 0; i < e->children.size(); ++i)
      if (!absorbed[i]) kept.push_back(std::move(e->children[i]));
    e->children = std::move(kept);
    if (e->children.size() == 1) e = std::move(e->children[0]);
  }
}

}  // namespace

ExprPtr normalize_for_signature(const Expr& in) { return normalize_for_signature(in.clone()); }

ExprPtr normalize_for_signature(ExprPtr e) {
  fold_constants(e);
  normalize(e);
  fold_constants(e);
  return e;
}

bool is_normalized_for_signature(const Expr& e) {
  if (e.kind == ExprKind::ColumnRef || e.kind == ExprKind::Constant) return true;
  // AND/OR may flatten, absorb or fold away boolean constants: always take the full path.
  if (e.kind == ExprKind::And || e.kind == ExprKind::Or) return false;
  if (e.kind == ExprKind::InList && e.children.size() == 2) return false;  // becomes = / <>
  // Comparisons need no rewriting: normalize() turns `x > y` into `y < x` and leaves `x < y` as it
  // is (a constant on the left is swapped right and back), and the signer writes `>` / `>=` mirrored
  // as `<` / `<=`, the same bytes.
  // fold_constants evaluates every other node whose children are all constants (vacuously: none).
  bool any_non_constant = false;
  for (auto& c : e.children) {
    if (!c->is_constant()) any_non_constant = true;
    if (!is_normalized_for_signature(*c)) return false;
  }
  return any_non_constant;
}

}  // namespace hindsight
