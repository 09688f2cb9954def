#include "planner/physical/physical_operator.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/storage/connector/scan_source.hpp"

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

std::string Distribution::describe(const std::function<std::string(ColumnId)>& name) const {
  if (kind != StreamDistribution::Hashed) return to_string();
  auto names = [&](const std::vector<ColumnId>& cols) {
    std::string out;
    for (ColumnId c : cols) out += (out.empty() ? "" : ", ") + name(c);
    return out;
  };
  std::string out = fmt::format("hashed({}; {} buckets", names(columns), buckets);
  for (auto& m : mapped) out += fmt::format("; mapping {}({})", m.mapping, names(m.columns));
  return out + ")";
}

std::vector<OperatorParam> PhysicalOperator::params(const PlanContext& ctx) const {
  ExplainParamWriter w(ctx);
  write_params(w);
  std::vector<OperatorParam> out;
  for (auto& [k, v] : w.params) out.push_back({k, v});
  return out;
}

void PhysicalTableScan::write_params(ParamWriter& w) const {
  w.text("table", table->def.name);
  if (w.wants_display()) {
    std::string c;
    for (size_t i = 0; i < columns.size(); ++i) c += (i ? ", " : "") + table->def.columns[columns[i]].name;
    w.display("columns", c);
  }
  if (!filters.empty()) w.conjuncts("filter", filters);
  if (source) source->write_params(w);  // the connector's pushdowns: limit, "pushdown: ...", its query
}
void PhysicalFilter::write_params(ParamWriter& w) const { w.conjuncts("predicate", conjuncts); }
void PhysicalProject::write_params(ParamWriter& w) const { w.exprs("exprs", exprs); }
void PhysicalHashJoin::write_params(ParamWriter& w) const {
  w.text("type", join_type_name(type));
  w.text("distribution", join_distribution_name(join_distribution));
  w.key_pairs("keys", probe_keys, build_keys);
  if (!residual.empty()) w.conjuncts("residual", residual);
}
void PhysicalNestedLoopJoin::write_params(ParamWriter& w) const {
  w.text("type", join_type_name(type));
  w.conjuncts("condition", condition);
}
void PhysicalHashAggregate::write_params(ParamWriter& w) const {
  w.text("mode", aggregate_mode_name(mode));
  w.columns("groups", groups, false);
  w.aggregates("aggregates", aggs);
}
void PhysicalSort::write_params(ParamWriter& w) const { w.sort_keys("keys", keys); }
void PhysicalTopN::write_params(ParamWriter& w) const {
  w.sort_keys("keys", keys);
  w.number("limit", limit);
  w.number("offset", offset);
}
void PhysicalLimit::write_params(ParamWriter& w) const {
  w.number("limit", limit);
  w.number("offset", offset);
}
void PhysicalUnionAll::write_params(ParamWriter& w) const { w.number("inputs", static_cast<int64_t>(children.size())); }
void PhysicalValues::write_params(ParamWriter& w) const {
  w.number("rows", static_cast<int64_t>(rows.size()));
  std::string text;
  for (auto& row : rows)
    for (auto& v : row) text += v.to_sql() + ";";
  w.text("values", text);
}
void PhysicalCteScan::write_params(ParamWriter& w) const {
  w.display("cte", cte_name);
  // Which of the producer's columns a reference reads is not part of its signature (its columns
  // sign by the producer's lineage, as a scan's by table and column): pruning must not change it.
  if (w.wants_display()) w.columns("columns", producer_columns, true);
}
void PhysicalExchange::write_params(ParamWriter& w) const {
  w.text("kind", exchange_kind_name(exchange));
  if (!keys.empty()) w.columns("keys", keys, true);
  if (buckets > 0) w.number("buckets", buckets);
}

}  // namespace hindsight
