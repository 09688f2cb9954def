#pragma once
#include <set>

#include "planner/rewrite/rewrite_rule.hpp"

namespace hindsight {

/// Outer-join simplification: a LEFT join whose null-extended rows a predicate above rejects is an
/// INNER join (RIGHT likewise), and a FULL join becomes LEFT, RIGHT or INNER by which of its sides'
/// null-extended rows are rejected. "Above" is a Filter, an inner join's condition, or the condition
/// of a join whose null-producing (or semi/anti) input holds this join; predicates travel down through
/// Filter, Sort, Project (substituted by their definitions), inner joins and the preserved side of
/// outer, semi and anti joins, and stop at Aggregate, Limit, UNION ALL and everything else.
/// A predicate rejects the rows in which every column of a set is NULL when it can never be TRUE on
/// them (see rejects_nulls). Without this, a LEFT join under a filter on its nullable side is a
/// barrier to the join order and to magic_set_keys (TPC-H Q20's decorrelated aggregate).
class SimplifyOuterJoins : public RewriteRule {
 public:
  const char* name() const override { return "simplify_outer_joins"; }
  bool apply(LogicalPtr& plan, RewriteContext& ctx) override;
};

/// True when `e` evaluates to NULL whenever every column of `nulls` is NULL (whatever the other
/// columns hold): a column of the set, and comparisons, arithmetic, string and date functions, CAST,
/// LIKE, IN (of its tested operand) and NOT over such an expression; AND / OR when all their operands
/// are. Not: constants, IS [NOT] NULL, COALESCE, NULLIF, CASE.
bool is_null_strict(const Expr& e, const std::set<ColumnId>& nulls);

/// True when predicate `e` is never TRUE on a row whose `nulls` columns are all NULL: a strict
/// expression (NULL is not TRUE), IS NOT NULL over a strict expression, NOT over a strict expression,
/// an AND with one rejecting conjunct, an OR whose every branch rejects.
bool rejects_nulls(const Expr& e, const std::set<ColumnId>& nulls);

}  // namespace hindsight
