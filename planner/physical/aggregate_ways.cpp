#include "planner/physical/aggregate_ways.hpp"

#include <algorithm>

namespace hindsight {

bool aggregate_is_local(const Distribution& d, const std::vector<ColumnId>& groups) {
  if (d.is_single_instance()) return true;
  if (d.kind != StreamDistribution::Hashed || groups.empty()) return false;
  auto within_groups = [&](const std::vector<ColumnId>& cols) {
    if (cols.empty()) return false;
    for (ColumnId c : cols)
      if (std::find(groups.begin(), groups.end(), c) == groups.end()) return false;
    return true;
  };
  bool local = within_groups(d.columns);
  for (const MappedKey& m : d.mapped) local |= within_groups(m.columns);
  return local;
}

AggregateShape aggregate_shape(const Distribution& input, const std::vector<ColumnId>& groups, bool distinct) {
  if (aggregate_is_local(input, groups)) return AggregateShape::Local;
  return distinct ? AggregateShape::Moved : AggregateShape::PartialFinal;
}

double partial_aggregate_rows(double input_rows, double out_rows, int workers) {
  return std::min(input_rows, out_rows * workers);
}

double partial_aggregate_width(const LogicalAggregate& a, const PlanContext& ctx) {
  double w = row_width(a.groups, ctx);
  for (const AggregateCall& c : a.aggs) w += c.kind == AggKind::Avg ? 2 * type_width(DataType::bigint()) : type_width(c.type);
  return w;
}

double aggregate_cost(AggregateShape shape, const AggregateCostInputs& in, const CostModelOptions& o) {
  const double rows = std::max(0.0, in.input_rows), out = std::max(0.0, in.out_rows);
  const ExchangeKind move = in.has_groups ? ExchangeKind::Repartition : ExchangeKind::Gather;
  switch (shape) {
    case AggregateShape::Local: return hash_aggregate_cost(rows, out, in.out_width, o).total;
    case AggregateShape::Moved:
      return exchange_cost(move, rows, in.input_width, o).total + hash_aggregate_cost(rows, out, in.out_width, o).total;
    case AggregateShape::PartialFinal: {
      const double partial = std::max(0.0, partial_aggregate_rows(rows, out, o.workers));
      return hash_aggregate_cost(rows, partial, in.partial_width, o).total +
             exchange_cost(move, partial, in.partial_width, o).total +
             hash_aggregate_cost(partial, out, in.out_width, o).total;
    }
  }
  return 0;
}

}  // namespace hindsight
