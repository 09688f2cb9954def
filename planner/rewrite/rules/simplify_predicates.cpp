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

// `column = constant` or `column IN (constants)`: the column and its constants, else null.
const Expr* column_constants(const Expr& e, std::vector<const Expr*>& constants) {
  if (e.kind == ExprKind::Call && e.op == ScalarOp::Eq && e.children.size() == 2 &&
      e.children[0]->kind == ExprKind::ColumnRef && e.children[1]->is_constant() && !e.children[1]->value.is_null &&
      e.children[0]->type == e.children[1]->type) {
    constants.push_back(e.children[1].get());
    return e.children[0].get();
  }
  if (e.kind == ExprKind::InList && !e.negated && e.children.size() >= 2 && e.children[0]->kind == ExprKind::ColumnRef) {
    for (size_t i = 1; i < e.children.size(); ++i) {
      if (!e.children[i]->is_constant() || e.children[i]->value.is_null) return nullptr;
      constants.push_back(e.children[i].get());
    }
    return e.children[0].get();
  }
  return nullptr;
}

/// What an OR implies about single columns: when every branch requires `c = k` or `c IN (...)` of one column c,
/// the OR implies `c IN (every branch's constants)`. TPC-H Q7's (n1 = 'FRANCE' AND n2 = 'GERMANY') OR
/// (n1 = 'GERMANY' AND n2 = 'FRANCE') implies n1.n_name IN ('FRANCE', 'GERMANY') and the same of n2: filters
/// on one table each, which reach the scans and tell the join order how few rows the nations keep. The OR itself
/// stays (the derived conjuncts are implied by it, so adding them changes no result).
std::vector<ExprPtr> implied_in_lists(const Expr& e) {
  std::vector<ExprPtr> out;
  if (e.kind != ExprKind::Or || e.children.size() < 2) return out;
  // Per branch: column id -> its constants (a column constrained twice in one branch keeps the first).
  std::vector<std::vector<std::pair<const Expr*, std::vector<const Expr*>>>> branches;
  for (auto& b : e.children) {
    branches.emplace_back();
    std::vector<const Expr*> conjuncts;
    if (b->kind == ExprKind::And) {
      for (auto& c : b->children) conjuncts.push_back(c.get());
    } else {
      conjuncts.push_back(b.get());
    }
    for (const Expr* c : conjuncts) {
      std::vector<const Expr*> constants;
      const Expr* col = column_constants(*c, constants);
      if (!col) continue;
      bool seen = false;
      for (auto& [have, _] : branches.back()) seen = seen || have->column_id == col->column_id;
      if (!seen) branches.back().emplace_back(col, std::move(constants));
    }
  }
  for (auto& [col, constants] : branches[0]) {
    std::vector<const Expr*> all = constants;
    bool everywhere = true;
    for (size_t b = 1; b < branches.size() && everywhere; ++b) {
      bool found = false;
      for (auto& [other, ks] : branches[b])
        if (other->column_id == col->column_id && other->type == col->type) {
          found = true;
          all.insert(all.end(), ks.begin(), ks.end());
        }
      everywhere = found;
    }
    if (!everywhere) continue;
    std::vector<ExprPtr> children;
    children.push_back(col->clone());
    for (const Expr* k : all) {
      bool dup = false;
      for (size_t i = 1; i < children.size(); ++i) dup = dup || children[i]->equals(*k);
      if (!dup) children.push_back(k->clone());
    }
    if (children.size() == 2) {
      out.push_back(Expr::call(ScalarOp::Eq, DataType::boolean(), std::move(children)));
    } else {
      out.push_back(Expr::make(ExprKind::InList, DataType::boolean(), std::move(children)));
    }
  }
  return out;
}

bool simplify_list(std::vector<ExprPtr>& conj, bool derive = false) {
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
  if (derive) {
    // Only over a WHERE clause's Filter: it is pushed away in the same pass, so each OR is read once (its
    // derived conjuncts go down to the scans while the OR becomes a join condition, where nothing derives again).
    const size_t n = out.size();
    for (size_t i = 0; i < n; ++i)
      for (auto& d : implied_in_lists(*out[i])) {
        // Nothing to add about a column the list already holds to constants (then the OR is weaker, or absorbed).
        bool present = false;
        for (auto& o : out) {
          std::vector<const Expr*> ks;
          const Expr* c = column_constants(*o, ks);
          present = present || (c && c->column_id == d->children[0]->column_id);
        }
        if (present) continue;
        out.push_back(std::move(d));
        changed = true;
      }
  }
  conj = std::move(out);
  return changed;
}
}  // namespace

bool SimplifyPredicates::apply(LogicalPtr& plan, RewriteContext& ctx) {
  bool changed = false;
  for (auto& c : plan->children) changed |= apply(c, ctx);
  switch (plan->kind) {
    case LogicalKind::Filter: changed |= simplify_list(plan->as<LogicalFilter>().conjuncts, true); break;
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
