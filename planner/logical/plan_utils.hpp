#pragma once
#include <functional>
#include <set>

#include "planner/logical/logical_operator.hpp"

namespace hindsight {

/// Recomputes `outputs` of operators whose outputs derive from their children
/// (Filter, Sort, Limit: the child's; Join: left ++ right, or left for semi/anti).
void refresh_outputs(LogicalOperator& op);

/// Calls fn on every expression owned by the operator (not its children).
void for_each_expr(LogicalOperator& op, const std::function<void(ExprPtr&)>& fn);

/// The ColumnIds an expression reads.
std::set<ColumnId> columns_of(const Expr& e);
/// True when every column of `e` is in `available`.
bool covered_by(const Expr& e, const std::set<ColumnId>& available);
std::set<ColumnId> output_set(const LogicalOperator& op);

/// A semi, anti or null-aware anti join whose conditions read its left input: the join enumerator
/// takes it into the join tree below it (its right input a semi member of the join graph), and
/// signing names it, with that tree, by one join set (docs/join-order.md, docs/signatures.md).
bool is_semi_member_join(const LogicalOperator& op);

/// Renders the plan as an indented tree (one operator a line), for tests and debugging.
std::string plan_to_string(const LogicalOperator& op, const PlanContext& ctx, int indent = 0);

}  // namespace hindsight
