#include "planner/rewrite/rules/simplify_outer_joins.hpp"

#include <map>

#include "planner/logical/plan_utils.hpp"

namespace hindsight {

bool is_null_strict(const Expr& e, const std::set<ColumnId>& nulls) {
  auto any_child = [&](size_t from, size_t to) {
    for (size_t i = from; i < to && i < e.children.size(); ++i)
      if (is_null_strict(*e.children[i], nulls)) return true;
    return false;
  };
  auto all_children = [&] {
    if (e.children.empty()) return false;
    for (const auto& c : e.children)
      if (!is_null_strict(*c, nulls)) return false;
    return true;
  };
  switch (e.kind) {
    case ExprKind::ColumnRef: return nulls.count(e.column_id) > 0;
    case ExprKind::Constant: return false;
    case ExprKind::Call:
      // Every scalar operator but COALESCE and NULLIF returns NULL for a NULL operand (the evaluator's rule).
      if (e.op == ScalarOp::Coalesce || e.op == ScalarOp::NullIf) return false;
      return any_child(0, e.children.size());
    case ExprKind::Cast:
    case ExprKind::Not: return any_child(0, 1);
    case ExprKind::Like: return any_child(0, e.children.size());
    // x IN (a, b): NULL when x is; a NULL list element still lets a match make it TRUE.
    case ExprKind::InList: return any_child(0, 1);
    // NULL AND FALSE is FALSE, NULL OR TRUE is TRUE: NULL only when every operand is.
    case ExprKind::And:
    case ExprKind::Or: return all_children();
    case ExprKind::IsNull:
    case ExprKind::Case: return false;
  }
  return false;
}

bool rejects_nulls(const Expr& e, const std::set<ColumnId>& nulls) {
  switch (e.kind) {
    case ExprKind::And:
      for (const auto& c : e.children)
        if (rejects_nulls(*c, nulls)) return true;
      return false;
    case ExprKind::Or:
      if (e.children.empty()) return false;
      for (const auto& c : e.children)
        if (!rejects_nulls(*c, nulls)) return false;
      return true;
    // IS NOT NULL of a strict expression is FALSE on those rows; IS NULL is TRUE.
    case ExprKind::IsNull: return e.negated && !e.children.empty() && is_null_strict(*e.children[0], nulls);
    // NOT x with x strict is NULL; NOT over a rejecting but non-strict x (an AND) may be TRUE.
    default: return is_null_strict(e, nulls);
  }
}

namespace {

using Preds = std::vector<const Expr*>;

bool any_rejects(const Preds& preds, const std::set<ColumnId>& nulls) {
  for (const Expr* p : preds)
    if (rejects_nulls(*p, nulls)) return true;
  return false;
}

/// Visits `op` with the predicates that hold on every row of its output that reaches the result
/// (in terms of column ids valid at `op`). `owned` keeps substituted copies alive.
bool visit(LogicalOperator& op, const Preds& above, std::vector<ExprPtr>& owned) {
  bool changed = false;
  switch (op.kind) {
    case LogicalKind::Filter: {
      Preds preds = above;
      for (const auto& c : op.as<LogicalFilter>().conjuncts) preds.push_back(c.get());
      return visit(*op.children[0], preds, owned);
    }
    case LogicalKind::Sort: return visit(*op.children[0], above, owned);
    case LogicalKind::Project: {
      auto& p = op.as<LogicalProject>();
      std::map<ColumnId, const Expr*> defs;
      for (size_t i = 0; i < p.exprs.size() && i < p.outputs.size(); ++i) defs[p.outputs[i]] = p.exprs[i].get();
      Preds preds;
      for (const Expr* e : above) {
        owned.push_back(substitute(*e, defs));
        preds.push_back(owned.back().get());
      }
      return visit(*op.children[0], preds, owned);
    }
    case LogicalKind::Join: {
      auto& j = op.as<LogicalJoin>();
      if (j.children.size() != 2) break;
      const bool outer = j.type == LogicalJoinType::Left || j.type == LogicalJoinType::Right ||
                         j.type == LogicalJoinType::Full;
      if (outer) {
        const bool left_rejected = any_rejects(above, output_set(*j.children[0]));
        const bool right_rejected = any_rejects(above, output_set(*j.children[1]));
        LogicalJoinType t = j.type;
        if (t == LogicalJoinType::Left && right_rejected) t = LogicalJoinType::Inner;
        else if (t == LogicalJoinType::Right && left_rejected) t = LogicalJoinType::Inner;
        else if (t == LogicalJoinType::Full) {
          // Rejecting the left side's NULLs drops the right-only rows: what is left preserves the left.
          if (left_rejected && right_rejected) t = LogicalJoinType::Inner;
          else if (left_rejected) t = LogicalJoinType::Left;
          else if (right_rejected) t = LogicalJoinType::Right;
        }
        if (t != j.type) {
          j.type = t;
          changed = true;
        }
      }
      Preds conds;
      for (const auto& c : j.conditions) conds.push_back(c.get());
      Preds left, right;
      switch (j.type) {
        case LogicalJoinType::Inner:
          left = above;
          left.insert(left.end(), conds.begin(), conds.end());
          right = left;
          break;
        // The preserved side gets what holds above; the null-producing side's rows matter only where the
        // condition is TRUE on them (a row it rejects is as good as absent).
        case LogicalJoinType::Left:
          left = above;
          right = conds;
          break;
        case LogicalJoinType::Right:
          left = conds;
          right = above;
          break;
        // A semi join outputs a left row only where the condition is TRUE on it; an anti join keeps the
        // others, so only the semi join's condition holds on its left rows.
        case LogicalJoinType::Semi:
          left = above;
          left.insert(left.end(), conds.begin(), conds.end());
          right = conds;
          break;
        case LogicalJoinType::Anti:
          left = above;
          right = conds;
          break;
        // NOT IN: a NULL on the right changes the answer; FULL: both sides preserved.
        case LogicalJoinType::NullAwareAnti: left = above; break;
        case LogicalJoinType::Full: break;
      }
      changed |= visit(*j.children[0], left, owned);
      changed |= visit(*j.children[1], right, owned);
      return changed;
    }
    default: break;
  }
  // Aggregate, Limit, UNION ALL, Values, CteRef, Get: nothing above is known to hold below.
  for (auto& c : op.children) changed |= visit(*c, {}, owned);
  return changed;
}

}  // namespace

bool SimplifyOuterJoins::apply(LogicalPtr& plan, RewriteContext& ctx) {
  (void)ctx;
  std::vector<ExprPtr> owned;
  return visit(*plan, {}, owned);
}

}  // namespace hindsight
