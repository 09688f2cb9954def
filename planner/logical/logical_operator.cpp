#include "planner/logical/logical_operator.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"

namespace hindsight {

const char* logical_kind_name(LogicalKind k) {
  switch (k) {
    case LogicalKind::Get: return "Get";
    case LogicalKind::Filter: return "Filter";
    case LogicalKind::Project: return "Project";
    case LogicalKind::Join: return "Join";
    case LogicalKind::Aggregate: return "Aggregate";
    case LogicalKind::Sort: return "Sort";
    case LogicalKind::Limit: return "Limit";
    case LogicalKind::UnionAll: return "UnionAll";
    case LogicalKind::Values: return "Values";
    case LogicalKind::CteRef: return "CteRef";
  }
  return "?";
}

const char* join_type_name(LogicalJoinType t) {
  switch (t) {
    case LogicalJoinType::Inner: return "inner";
    case LogicalJoinType::Left: return "left";
    case LogicalJoinType::Right: return "right";
    case LogicalJoinType::Full: return "full";
    case LogicalJoinType::Semi: return "semi";
    case LogicalJoinType::Anti: return "anti";
    case LogicalJoinType::NullAwareAnti: return "null-aware anti";
  }
  return "?";
}

void LogicalOperator::check_kind(LogicalKind expected) const {
  if (kind != expected)
    throw_internal(__FILE__, __LINE__,
                   fmt::format("bad cast of {} to {}", logical_kind_name(kind), logical_kind_name(expected)));
}

std::string PlanContext::display_name(ColumnId id) const {
  const ColumnInfo& c = column(id);
  if (!c.base_table.empty()) return c.base_column;
  return c.name;
}

std::string expr_text(const Expr& e, const PlanContext& ctx) {
  std::function<std::string(ColumnId)> name_of = [&](ColumnId id) { return ctx.display_name(id); };
  return e.to_string(&name_of);
}

static std::string join_exprs(const std::vector<ExprPtr>& es, const PlanContext& ctx, const char* sep) {
  std::string out;
  for (size_t i = 0; i < es.size(); ++i) out += (i ? sep : "") + expr_text(*es[i], ctx);
  return out;
}

std::vector<OperatorParam> LogicalGet::params(const PlanContext& ctx) const {
  std::vector<OperatorParam> p{{"table", table.name}};
  std::string cols;
  for (size_t i = 0; i < columns.size(); ++i) cols += (i ? ", " : "") + table.columns[columns[i]].name;
  p.push_back({"columns", cols});
  if (!filters.empty()) p.push_back({"filter", join_exprs(filters, ctx, " AND ")});
  return p;
}

std::vector<OperatorParam> LogicalFilter::params(const PlanContext& ctx) const {
  return {{"predicate", join_exprs(conjuncts, ctx, " AND ")}};
}

std::vector<OperatorParam> LogicalProject::params(const PlanContext& ctx) const {
  return {{"exprs", join_exprs(exprs, ctx, ", ")}};
}

std::vector<OperatorParam> LogicalJoin::params(const PlanContext& ctx) const {
  std::vector<OperatorParam> p{{"type", join_type_name(type)}};
  p.push_back({"condition", conditions.empty() ? "true" : join_exprs(conditions, ctx, " AND ")});
  return p;
}

std::vector<OperatorParam> LogicalAggregate::params(const PlanContext& ctx) const {
  std::string g, a;
  for (size_t i = 0; i < groups.size(); ++i) g += (i ? ", " : "") + ctx.display_name(groups[i]);
  for (size_t i = 0; i < aggs.size(); ++i) {
    const auto& c = aggs[i];
    a += (i ? ", " : "") + std::string(agg_kind_name(c.kind)) + "(" + (c.distinct ? "DISTINCT " : "") +
         (c.arg == kInvalidColumn ? "*" : ctx.display_name(c.arg)) + ")";
  }
  return {{"groups", g}, {"aggregates", a}};
}

std::vector<OperatorParam> LogicalSort::params(const PlanContext& ctx) const {
  std::string k;
  for (size_t i = 0; i < keys.size(); ++i)
    k += (i ? ", " : "") + ctx.display_name(keys[i].column) + (keys[i].ascending ? " ASC" : " DESC") +
         (keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  return {{"keys", k}};
}

std::vector<OperatorParam> LogicalLimit::params(const PlanContext&) const {
  return {{"limit", limit < 0 ? "all" : std::to_string(limit)}, {"offset", std::to_string(offset)}};
}

std::vector<OperatorParam> LogicalUnionAll::params(const PlanContext&) const { return {{"inputs", std::to_string(children.size())}}; }

std::vector<OperatorParam> LogicalValues::params(const PlanContext&) const {
  return {{"rows", std::to_string(rows.size())}};
}

std::vector<OperatorParam> LogicalCteRef::params(const PlanContext& ctx) const {
  std::string cols;
  for (size_t i = 0; i < producer_columns.size(); ++i) cols += (i ? ", " : "") + ctx.display_name(producer_columns[i]);
  return {{"cte", cte_name}, {"columns", cols}};
}

void split_conjuncts(ExprPtr e, std::vector<ExprPtr>& out) {
  if (!e) return;
  if (e->kind == ExprKind::And) {
    for (auto& c : e->children) split_conjuncts(std::move(c), out);
    return;
  }
  out.push_back(std::move(e));
}

ExprPtr make_conjunction(const std::vector<ExprPtr>& conjuncts) {
  if (conjuncts.empty()) return nullptr;
  if (conjuncts.size() == 1) return conjuncts[0]->clone();
  std::vector<ExprPtr> kids;
  for (auto& c : conjuncts) kids.push_back(c->clone());
  return Expr::make(ExprKind::And, DataType::boolean(), std::move(kids));
}

}  // namespace hindsight
