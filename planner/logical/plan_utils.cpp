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

bool is_semi_member_join(const LogicalOperator& op) {
  if (op.kind != LogicalKind::Join || op.children.size() != 2) return false;
  const auto& j = static_cast<const LogicalJoin&>(op);
  if (j.type != LogicalJoinType::Semi && j.type != LogicalJoinType::Anti && j.type != LogicalJoinType::NullAwareAnti)
    return false;
  const std::vector<ColumnId>& left = op.children[0]->outputs;
  for (auto& c : j.conditions)
    for (ColumnId col : columns_of(*c))
      if (std::find(left.begin(), left.end(), col) != left.end()) return true;
  return false;
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
