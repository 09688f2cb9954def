#include "planner/rewrite/rules/simplify_predicates.hpp"

#include "planner/common/stack_guard.hpp"
#include "planner/logical/plan_utils.hpp"
#include "planner/logical/logical_operator.hpp"

namespace hindsight {

namespace {
/// (A AND B) OR (A AND C) -> A AND (B OR C): a conjunct common to every branch of an OR (often
/// a join condition, as in TPC-H Q19) becomes a conjunct of its own that joins can use.
bool factor_or(ExprPtr& e) {
  if (e->kind != ExprKind::Or) return false;
  std::vector<std::vector<ExprPtr>> branches;
  for (auto& c : e->children) {
    branches.emplace_back();
    split_conjuncts(c->clone(), branches.back());
  }
  std::vector<ExprPtr> common;
  for (auto& cand : branches[0]) {
    bool everywhere = true;
    for (size_t b = 1; b < branches.size() && everywhere; ++b) {
      bool found = false;
      for (auto& x : branches[b]) found = found || x->equals(*cand);
      everywhere = found;
    }
    bool dup = false;
    for (auto& c : common) dup = dup || c->equals(*cand);
    if (everywhere && !dup) common.push_back(cand->clone());
  }
  if (common.empty()) return false;
  std::vector<ExprPtr> rest;
  bool some_branch_empty = false;
  for (auto& br : branches) {
    std::vector<ExprPtr> left;
    for (auto& x : br) {
      bool is_common = false;
      for (auto& c : common) is_common = is_common || c->equals(*x);
      if (!is_common) left.push_back(std::move(x));
    }
    if (left.empty()) some_branch_empty = true;
    else if (left.size() == 1) rest.push_back(std::move(left[0]));
    else rest.push_back(Expr::make(ExprKind::And, DataType::boolean(), std::move(left)));
  }
  std::vector<ExprPtr> out = std::move(common);
  // A branch that was only common conjuncts makes the remaining OR true.
  if (!some_branch_empty) out.push_back(rest.size() == 1 ? std::move(rest[0]) : Expr::make(ExprKind::Or, DataType::boolean(), std::move(rest)));
  e = out.size() == 1 ? std::move(out[0]) : Expr::make(ExprKind::And, DataType::boolean(), std::move(out));
  return true;
}

bool normalize(ExprPtr& e) {
  if (!e->children.empty()) check_stack_depth("simplifying predicates");
  bool changed = false;
  for (auto& c : e->children) changed |= normalize(c);
  changed |= factor_or(e);
  if (e->kind == ExprKind::Call && is_comparison_op(e->op) && e->children[0]->is_constant() &&
      !e->children[1]->is_constant()) {
    std::swap(e->children[0], e->children[1]);
    e->op = mirror_comparison(e->op);
    changed = true;
  }
  return changed;
}

bool simplify_list(std::vector<ExprPtr>& conj) {
  bool changed = false;
  std::vector<ExprPtr> flat;
  for (auto& c : conj) {
    if (c->kind == ExprKind::And) changed = true;
    split_conjuncts(std::move(c), flat);
  }
  std::vector<ExprPtr> out;
  for (auto& c : flat) {
    changed |= normalize(c);
    bool dup = false;
    for (auto& o : out) dup = dup || o->equals(*c);
    if (dup) {
      changed = true;
      continue;
    }
    out.push_back(std::move(c));
  }
  conj = std::move(out);
  return changed;
}
}  // namespace

bool SimplifyPredicates::apply(LogicalPtr& plan, RewriteContext& ctx) {
  bool changed = false;
  for (auto& c : plan->children) changed |= apply(c, ctx);
  switch (plan->kind) {
    case LogicalKind::Filter: changed |= simplify_list(plan->as<LogicalFilter>().conjuncts); break;
    case LogicalKind::Join: changed |= simplify_list(plan->as<LogicalJoin>().conditions); break;
    case LogicalKind::Get: changed |= simplify_list(plan->as<LogicalGet>().filters); break;
    case LogicalKind::Project:
      for (auto& e : plan->as<LogicalProject>().exprs) changed |= normalize(e);
      break;
    default: break;
  }
  return changed;
}

}  // namespace hindsight
