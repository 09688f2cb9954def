#include "planner/logical/plan_utils.hpp"

#include <algorithm>

namespace hindsight {

void refresh_outputs(LogicalOperator& op) {
  switch (op.kind) {
    case LogicalKind::Filter:
    case LogicalKind::Sort:
    case LogicalKind::Limit: op.outputs = op.children[0]->outputs; break;
    case LogicalKind::Join: {
      auto& j = op.as<LogicalJoin>();
      op.outputs = op.children[0]->outputs;
      if (j.type != LogicalJoinType::Semi && j.type != LogicalJoinType::Anti && j.type != LogicalJoinType::NullAwareAnti)
        op.outputs.insert(op.outputs.end(), op.children[1]->outputs.begin(), op.children[1]->outputs.end());
      break;
    }
    default: break;
  }
}

namespace {

/// Whether a condition of join `op` reads a column of its left input.
bool conditions_read_left(const LogicalOperator& op) {
  const std::vector<ColumnId>& left = op.children[0]->outputs;
  for (auto& c : op.as<LogicalJoin>().conditions)
    for (ColumnId col : columns_of(*c))
      if (std::find(left.begin(), left.end(), col) != left.end()) return true;
  return false;
}

}  // namespace

bool is_semi_member_join(const LogicalOperator& op) {
  if (op.kind != LogicalKind::Join || op.children.size() != 2) return false;
  const auto& j = static_cast<const LogicalJoin&>(op);
  if (j.type != LogicalJoinType::Semi && j.type != LogicalJoinType::Anti && j.type != LogicalJoinType::NullAwareAnti)
    return false;
  return conditions_read_left(op);
}

bool is_left_member_join(const LogicalOperator& op) {
  if (op.kind != LogicalKind::Join || op.children.size() != 2) return false;
  return static_cast<const LogicalJoin&>(op).type == LogicalJoinType::Left && conditions_read_left(op);
}

bool is_member_join(const LogicalOperator& op) { return is_semi_member_join(op) || is_left_member_join(op); }

bool is_region_member_join(const LogicalOperator& op, const std::set<ColumnId>& read_above) {
  if (is_semi_member_join(op)) return true;
  if (!is_left_member_join(op) || read_above.empty()) return is_left_member_join(op);
  for (ColumnId c : op.children[1]->outputs)
    if (read_above.count(c)) return false;
  return true;
}

void add_condition_columns(const LogicalOperator& join, std::set<ColumnId>& out) {
  for (auto& c : join.as<LogicalJoin>().conditions)
    for (ColumnId col : columns_of(*c)) out.insert(col);
}

void for_each_expr(LogicalOperator& op, const std::function<void(ExprPtr&)>& fn) {
  switch (op.kind) {
    case LogicalKind::Get:
      for (auto& e : op.as<LogicalGet>().filters) fn(e);
      break;
    case LogicalKind::Filter:
      for (auto& e : op.as<LogicalFilter>().conjuncts) fn(e);
      break;
    case LogicalKind::Project:
      for (auto& e : op.as<LogicalProject>().exprs) fn(e);
      break;
    case LogicalKind::Join:
      for (auto& e : op.as<LogicalJoin>().conditions) fn(e);
      break;
    default: break;
  }
}

ExprPtr substitute(const Expr& e, const std::map<ColumnId, const Expr*>& defs) {
  if (e.kind == ExprKind::ColumnRef) {
    auto it = defs.find(e.column_id);
    if (it != defs.end()) return it->second->clone();
  }
  ExprPtr out = e.clone();
  for (size_t i = 0; i < out->children.size(); ++i) out->children[i] = substitute(*e.children[i], defs);
  return out;
}

std::set<ColumnId> columns_of(const Expr& e) {
  std::vector<ColumnId> v;
  e.collect_columns(v);
  return {v.begin(), v.end()};
}

bool covered_by(const Expr& e, const std::set<ColumnId>& available) {
  std::vector<ColumnId> v;
  e.collect_columns(v);
  for (ColumnId c : v)
    if (!available.count(c)) return false;
  return true;
}

std::set<ColumnId> output_set(const LogicalOperator& op) { return {op.outputs.begin(), op.outputs.end()}; }

std::string plan_to_string(const LogicalOperator& op, const PlanContext& ctx, int indent) {
  std::string out(static_cast<size_t>(indent) * 2, ' ');
  out += logical_kind_name(op.kind);
  for (auto& p : op.params(ctx)) out += " " + p.key + "=[" + p.value + "]";
  out += "\n";
  for (auto& c : op.children) out += plan_to_string(*c, ctx, indent + 1);
  return out;
}

}  // namespace hindsight
