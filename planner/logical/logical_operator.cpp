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

std::vector<OperatorParam> LogicalOperator::params(const PlanContext& ctx) const {
  ExplainParamWriter w(ctx);
  write_params(w);
  std::vector<OperatorParam> out;
  for (auto& [k, v] : w.params) out.push_back({k, v});
  return out;
}

void LogicalGet::write_params(ParamWriter& w) const {
  w.text("table", table.name);
  if (w.wants_display()) {
    std::string cols;
    for (size_t i = 0; i < columns.size(); ++i) cols += (i ? ", " : "") + table.columns[columns[i]].name;
    w.display("columns", cols);
  }
  if (!filters.empty()) w.conjuncts("filter", filters);
}

void LogicalFilter::write_params(ParamWriter& w) const { w.conjuncts("predicate", conjuncts); }

void LogicalProject::write_params(ParamWriter& w) const { w.exprs("exprs", exprs); }

void LogicalJoin::write_params(ParamWriter& w) const {
  w.text("type", join_type_name(type));
  w.conjuncts("condition", conditions);
}

void LogicalAggregate::write_params(ParamWriter& w) const {
  w.columns("groups", groups, false);
  w.aggregates("aggregates", aggs);
}

void LogicalSort::write_params(ParamWriter& w) const { w.sort_keys("keys", keys); }

void LogicalLimit::write_params(ParamWriter& w) const {
  w.number("limit", limit);
  w.number("offset", offset);
}

void LogicalUnionAll::write_params(ParamWriter& w) const { w.number("inputs", static_cast<int64_t>(children.size())); }

void LogicalValues::write_params(ParamWriter& w) const {
  w.number("rows", static_cast<int64_t>(rows.size()));
  std::string text;
  for (auto& row : rows)
    for (auto& v : row) text += v.to_sql() + ";";
  w.text("values", text);
}

void LogicalCteRef::write_params(ParamWriter& w) const {
  w.display("cte", cte_name);
  // Which of the producer's columns a reference reads is not part of its signature (its columns
  // sign by the producer's lineage, as a scan's by table and column): pruning must not change it.
  if (w.wants_display()) w.columns("columns", producer_columns, true);
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
