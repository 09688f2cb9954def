#include "planner/physical/physical_operator.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"

namespace hindsight {

const char* physical_op_name(PhysicalOpKind k) {
  switch (k) {
    case PhysicalOpKind::TableScan: return "TableScan";
    case PhysicalOpKind::Filter: return "Filter";
    case PhysicalOpKind::Project: return "Project";
    case PhysicalOpKind::HashJoin: return "HashJoin";
    case PhysicalOpKind::NestedLoopJoin: return "NestedLoopJoin";
    case PhysicalOpKind::HashAggregate: return "HashAggregate";
    case PhysicalOpKind::Sort: return "Sort";
    case PhysicalOpKind::TopN: return "TopN";
    case PhysicalOpKind::Limit: return "Limit";
    case PhysicalOpKind::UnionAll: return "UnionAll";
    case PhysicalOpKind::Values: return "Values";
    case PhysicalOpKind::Exchange: return "Exchange";
    case PhysicalOpKind::CteScan: return "CteScan";
  }
  return "?";
}

const char* join_distribution_name(JoinDistribution d) {
  switch (d) {
    case JoinDistribution::Colocated: return "colocated";
    case JoinDistribution::Reference: return "reference";
    case JoinDistribution::Broadcast: return "broadcast";
    case JoinDistribution::Partitioned: return "partitioned";
    case JoinDistribution::Single: return "single";
  }
  return "?";
}

void PhysicalOperator::check_kind(PhysicalOpKind k) const {
  if (kind != k)
    throw_internal(__FILE__, __LINE__, fmt::format("bad cast of {} to {}", physical_op_name(kind), physical_op_name(k)));
}

std::string Distribution::to_string() const {
  switch (kind) {
    case StreamDistribution::Any: return "any";
    case StreamDistribution::Single: return "single";
    case StreamDistribution::Replicated: return "replicated";
    case StreamDistribution::Hashed: return fmt::format("hashed({} cols, {} buckets)", columns.size(), buckets);
  }
  return "?";
}

namespace {
std::string exprs_text(const std::vector<ExprPtr>& es, const PlanContext& ctx, const char* sep) {
  std::string out;
  for (size_t i = 0; i < es.size(); ++i) out += (i ? sep : "") + expr_text(*es[i], ctx);
  return out;
}
std::string cols(const std::vector<ColumnId>& ids, const PlanContext& ctx) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + ctx.display_name(ids[i]);
  return out;
}
std::string sort_keys_text(const std::vector<PhysicalSortKey>& ks, const PlanContext& ctx) {
  std::string out;
  for (size_t i = 0; i < ks.size(); ++i)
    out += (i ? ", " : "") + ctx.display_name(ks[i].column) + (ks[i].ascending ? " ASC" : " DESC") +
           (ks[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  return out;
}
std::string aggs_text(const std::vector<AggregateCall>& as, const PlanContext& ctx) {
  std::string out;
  for (size_t i = 0; i < as.size(); ++i)
    out += (i ? ", " : "") + std::string(agg_kind_name(as[i].kind)) + "(" + (as[i].distinct ? "DISTINCT " : "") +
           (as[i].arg == kInvalidColumn ? "*" : ctx.display_name(as[i].arg)) + ")";
  return out;
}
}  // namespace

std::vector<OperatorParam> PhysicalTableScan::params(const PlanContext& ctx) const {
  std::vector<OperatorParam> p{{"table", table->def.name}};
  std::string c;
  for (size_t i = 0; i < columns.size(); ++i) c += (i ? ", " : "") + table->def.columns[columns[i]].name;
  p.push_back({"columns", c});
  if (!filters.empty()) p.push_back({"filter", exprs_text(filters, ctx, " AND ")});
  return p;
}
std::vector<OperatorParam> PhysicalFilter::params(const PlanContext& ctx) const {
  return {{"predicate", exprs_text(conjuncts, ctx, " AND ")}};
}
std::vector<OperatorParam> PhysicalProject::params(const PlanContext& ctx) const { return {{"exprs", exprs_text(exprs, ctx, ", ")}}; }
std::vector<OperatorParam> PhysicalHashJoin::params(const PlanContext& ctx) const {
  std::string k;
  for (size_t i = 0; i < probe_keys.size(); ++i)
    k += (i ? ", " : "") + ctx.display_name(probe_keys[i]) + " = " + ctx.display_name(build_keys[i]);
  std::vector<OperatorParam> p{{"type", join_type_name(type)}, {"distribution", join_distribution_name(join_distribution)}, {"keys", k}};
  if (!residual.empty()) p.push_back({"residual", exprs_text(residual, ctx, " AND ")});
  return p;
}
std::vector<OperatorParam> PhysicalNestedLoopJoin::params(const PlanContext& ctx) const {
  return {{"type", join_type_name(type)}, {"condition", condition.empty() ? "true" : exprs_text(condition, ctx, " AND ")}};
}
std::vector<OperatorParam> PhysicalHashAggregate::params(const PlanContext& ctx) const {
  return {{"mode", aggregate_mode_name(mode)}, {"groups", cols(groups, ctx)}, {"aggregates", aggs_text(aggs, ctx)}};
}
std::vector<OperatorParam> PhysicalSort::params(const PlanContext& ctx) const { return {{"keys", sort_keys_text(keys, ctx)}}; }
std::vector<OperatorParam> PhysicalTopN::params(const PlanContext& ctx) const {
  return {{"keys", sort_keys_text(keys, ctx)}, {"limit", std::to_string(limit)}, {"offset", std::to_string(offset)}};
}
std::vector<OperatorParam> PhysicalLimit::params(const PlanContext&) const {
  return {{"limit", limit < 0 ? "all" : std::to_string(limit)}, {"offset", std::to_string(offset)}};
}
std::vector<OperatorParam> PhysicalUnionAll::params(const PlanContext&) const {
  return {{"inputs", std::to_string(children.size())}};
}
std::vector<OperatorParam> PhysicalValues::params(const PlanContext&) const { return {{"rows", std::to_string(rows.size())}}; }
std::vector<OperatorParam> PhysicalCteScan::params(const PlanContext& ctx) const {
  return {{"cte", cte_name}, {"columns", cols(producer_columns, ctx)}};
}
std::vector<OperatorParam> PhysicalExchange::params(const PlanContext& ctx) const {
  std::vector<OperatorParam> p{{"kind", exchange_kind_name(exchange)}};
  if (!keys.empty()) p.push_back({"keys", cols(keys, ctx)});
  return p;
}

}  // namespace hindsight
