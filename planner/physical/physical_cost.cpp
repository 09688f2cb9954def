#include "planner/physical/physical_cost.hpp"

#include <algorithm>
#include <cmath>

namespace hindsight {

double type_width(const DataType& type) {
  switch (type.id) {
    case TypeId::Varchar: return 24;
    case TypeId::Boolean: return 1;
    default: return 8;
  }
}

double row_width(const std::vector<ColumnId>& columns, const PlanContext& ctx) {
  double w = 16;  // per-row overhead in hash tables and buffers
  for (ColumnId c : columns) w += type_width(ctx.column(c).type);
  return w;
}

double row_width(const PhysicalOperator& op, const PlanContext& ctx) {
  if (op.observed_row_bytes > 0) return 16 + op.observed_row_bytes;
  return row_width(op.outputs, ctx);
}

double total_cost(PlanCost& c, const CostModelOptions& o) {
  c.total = c.cpu + o.network_byte_weight * c.network_bytes + o.memory_byte_weight * c.memory_bytes;
  const double excess = c.memory_bytes - static_cast<double>(o.memory_limit);
  if (excess > 0) c.total += o.spill ? spill_cost(excess) : o.overflow_penalty;
  return c.total;
}

double spill_cost(double excess_bytes) {
  constexpr double kWrittenPerExcessByte = 2, kCostPerByteWritten = 0.04;
  return std::max(0.0, excess_bytes) * kWrittenPerExcessByte * kCostPerByteWritten;
}

PlanCost hash_join_cost(double probe_rows, double build_rows, double out_rows, double build_width, bool broadcast,
                        const CostModelOptions& o) {
  const double copies = broadcast ? std::max(1, o.workers) : 1;
  PlanCost c;
  c.cpu = probe_rows + out_rows + o.hash_build_row * build_rows * copies;
  c.memory_bytes = build_rows * build_width * copies;
  total_cost(c, o);
  return c;
}

PlanCost hash_aggregate_cost(double in_rows, double out_rows, double out_width, const CostModelOptions& o) {
  PlanCost c;
  c.cpu = in_rows * 1.5 + out_rows;
  c.memory_bytes = out_rows * out_width;
  total_cost(c, o);
  return c;
}

PlanCost exchange_cost(ExchangeKind kind, double rows, double width, const CostModelOptions& o) {
  const double w = std::max(1, o.workers);
  PlanCost c;
  if (kind == ExchangeKind::Broadcast) {
    c.network_bytes = rows * width * w;
    c.cpu = rows + rows * w;
  } else {
    c.network_bytes = rows * width;
    c.cpu = rows;
  }
  total_cost(c, o);
  return c;
}

namespace {

double rows_of(const PhysicalOperator& op) { return std::max(0.0, op.estimated_rows); }

/// The operator alone. `in` = its children's estimated rows.
PlanCost own_cost(const PhysicalOperator& op, const PlanContext& ctx, const CostModelOptions& o) {
  PlanCost c;
  const double out = rows_of(op);
  double in = 0;
  for (auto& ch : op.children) in += rows_of(*ch);
  switch (op.kind) {
    case PhysicalOpKind::TableScan: {
      // Every row of the table is read (and filtered) once, whatever the filters keep.
      auto& s = op.as<PhysicalTableScan>();
      c.cpu = s.table ? static_cast<double>(s.table->row_count) : out;
      c.cpu = std::max(c.cpu, out);
      break;
    }
    case PhysicalOpKind::Filter: c.cpu = in; break;
    case PhysicalOpKind::Project:
      // Pass-through columns are free; each computed expression touches every row once.
      c.cpu = in * (0.2 + static_cast<double>(op.as<PhysicalProject>().exprs.size()) * 0.1);
      break;
    case PhysicalOpKind::HashJoin: {
      const auto& j = op.as<PhysicalHashJoin>();
      const PhysicalOperator& build = *op.children[1];
      return hash_join_cost(rows_of(*op.children[0]), rows_of(build), out, row_width(build, ctx),
                            j.join_distribution == JoinDistribution::Broadcast, o);
    }
    case PhysicalOpKind::NestedLoopJoin:
      // Every probe row meets every build row; the build side is held in memory.
      c.cpu = rows_of(*op.children[0]) * std::max(1.0, rows_of(*op.children[1])) + out;
      c.memory_bytes = rows_of(*op.children[1]) * row_width(op.children[1]->outputs, ctx);
      break;
    case PhysicalOpKind::HashAggregate: return hash_aggregate_cost(in, out, row_width(op.outputs, ctx), o);
    case PhysicalOpKind::Sort:
      c.cpu = in * std::max(1.0, std::log2(std::max(2.0, in)));
      c.memory_bytes = in * row_width(op.outputs, ctx);
      break;
    case PhysicalOpKind::TopN: {
      const auto& t = op.as<PhysicalTopN>();
      double k = std::max<double>(1, static_cast<double>(t.limit + t.offset));
      c.cpu = in * std::max(1.0, std::log2(std::max(2.0, k)));
      c.memory_bytes = std::min(in, k) * row_width(op.outputs, ctx);
      break;
    }
    case PhysicalOpKind::Exchange:
      return exchange_cost(op.as<PhysicalExchange>().exchange, in, row_width(op.outputs, ctx), o);
    case PhysicalOpKind::Limit:
    case PhysicalOpKind::UnionAll:
    case PhysicalOpKind::Values:
    case PhysicalOpKind::CteScan: c.cpu = std::max(in, out); break;
  }
  total_cost(c, o);
  return c;
}

}  // namespace

void annotate_costs(PhysicalOperator& root, const PlanContext& ctx, const CostModelOptions& o) {
  double sub = 0;
  for (auto& c : root.children) {
    annotate_costs(*c, ctx, o);
    sub += c->subtree_cost;
  }
  root.own_cost = own_cost(root, ctx, o);
  root.subtree_cost = root.own_cost.total + sub;
}

}  // namespace hindsight
