#pragma once
#include <functional>
#include <map>
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
/// A copy of `e` in which every column `defs` maps is replaced by a copy of its definition (a projection's
/// expressions: a predicate above it read in terms of its input).
ExprPtr substitute(const Expr& e, const std::map<ColumnId, const Expr*>& defs);
/// True when every column of `e` is in `available`.
bool covered_by(const Expr& e, const std::set<ColumnId>& available);
std::set<ColumnId> output_set(const LogicalOperator& op);

/// A semi, anti or null-aware anti join whose conditions read its left input: the join enumerator
/// takes it into the join tree below it (its right input a semi member of the join graph), and
/// signing names it, with that tree, by one join set (docs/join-order.md, docs/signatures.md).
bool is_semi_member_join(const LogicalOperator& op);

/// A LEFT join whose conditions read its left input: signing names it, with the tree below its left input, by one
/// join set holding its right input as a LEFT member (docs/join-order.md, "LEFT members").
bool is_left_member_join(const LogicalOperator& op);

/// is_semi_member_join or is_left_member_join: a join that signing names by a join set with a member.
bool is_member_join(const LogicalOperator& op);

/// Whether the join enumerator takes member join `op` into its region, met under the conditions of the region's
/// joins above it, which read the columns `read_above`: a semi member join always; a LEFT member join when no such
/// condition reads its null-producing side (one that does must stay above the LEFT join: the LEFT join is then a
/// relation of the region, ordered on its own). The enumerator and the oracle flatten regions by this one rule.
bool is_region_member_join(const LogicalOperator& op, const std::set<ColumnId>& read_above);

/// Adds the columns the conditions of join `join` read to `out`.
void add_condition_columns(const LogicalOperator& join, std::set<ColumnId>& out);

/// Renders the plan as an indented tree (one operator a line), for tests and debugging.
std::string plan_to_string(const LogicalOperator& op, const PlanContext& ctx, int indent = 0);

}  // namespace hindsight
