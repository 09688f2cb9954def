#include "planner/physical/physical_planner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "planner/common/error.hpp"
#include "planner/storage/connector/connector.hpp"
#include "planner/logical/plan_utils.hpp"
#include "planner/physical/aggregate_ways.hpp"
#include "planner/physical/join_ways.hpp"

namespace hindsight {

namespace {
std::vector<ExprPtr> clone_all(const std::vector<ExprPtr>& v) {
  std::vector<ExprPtr> out;
  for (auto& e : v) out.push_back(e->clone());
  return out;
}
}  // namespace

PhysicalPtr PhysicalPlanner::plan_get(const LogicalGet& g, int64_t limit_hint) {
  TablePtr table = table_(g.table);
  auto builder = connector_for(table->def).scan_builder(table, options_.load_guard);
  // The columns only the filters read (column pruning keeps them out of the Get's outputs) are offered after the
  // outputs: the scan reads them for its filter and, when the connector can, does not produce them.
  std::vector<int> columns = g.columns;
  std::vector<ColumnId> read = g.outputs;
  for (auto& f : g.filters) {
    std::vector<ColumnId> ids;
    f->collect_columns(ids);
    for (ColumnId id : ids) {
      if (std::find(read.begin(), read.end(), id) != read.end()) continue;
      const ColumnInfo& info = ctx_.column(id);
      const int idx = info.base_table == g.table.name ? table->def.column_index(info.base_column) : -1;
      HS_ASSERT(idx >= 0, fmt::format("the filter of the scan of '{}' reads column #{}, not one of the table's",
                                      g.table.name, id));
      columns.push_back(idx);
      read.push_back(id);
    }
  }
  const size_t filter_only = read.size() - g.outputs.size();
  builder->offer_projection(columns, read);
  std::vector<ExprPtr> accepted, refused;
  for (auto& f : g.filters) (builder->offer_filter(*f) ? accepted : refused).push_back(f->clone());
  // Hidden: the scan produces the Get's outputs only. Otherwise a projection above drops the filter-only columns.
  const bool hidden = filter_only == 0 || (refused.empty() && builder->offer_filter_only(filter_only));
  // A limit is offered only when the scan alone produces the Get's rows (no filter left above it).
  const bool limited = refused.empty() && limit_hint >= 0 && builder->offer_limit(limit_hint);
  // The scan implements the Get only when it produces exactly its rows; otherwise the scan is a group of its own
  // (the Filter or Project above implements the Get), so that what it observes is never taken for the Get's rows.
  const bool exact = refused.empty() && !limited && hidden;
  auto scan = make<PhysicalTableScan>(exact ? &g : nullptr);
  scan->table = table;
  scan->columns = hidden ? g.columns : columns;
  scan->filters = std::move(accepted);
  scan->outputs = hidden ? g.outputs : read;
  scan->source = builder->build();
  scan->distribution = scan->source->distribution().value_or(scan_distribution(table->def, scan->columns, scan->outputs));
  if (!refused.empty()) {
    // At least the Get's rows: all of the table's when no conjunct was accepted.
    scan->estimated_rows = scan->filters.empty() ? static_cast<double>(table->row_count) : g.estimated_rows;
  } else if (limited) {
    const int instances = scan->distribution.kind == StreamDistribution::Any ||
                                  scan->distribution.kind == StreamDistribution::Hashed
                              ? options_.workers
                              : 1;
    scan->estimated_rows = g.estimated_rows < 0 ? -1 : std::min(g.estimated_rows, static_cast<double>(limit_hint) * instances);
  } else if (!hidden) {
    scan->estimated_rows = g.estimated_rows;
  }
  PhysicalPtr out = std::move(scan);
  if (!refused.empty()) {
    auto f = make<PhysicalFilter>(hidden ? &g : nullptr);
    f->conjuncts = std::move(refused);
    f->outputs = out->outputs;
    f->distribution = out->distribution;
    f->estimated_rows = hidden ? f->estimated_rows : g.estimated_rows;
    f->children.push_back(std::move(out));
    out = std::move(f);
  }
  if (hidden) return out;
  auto p = make<PhysicalProject>(limited ? nullptr : &g);
  for (size_t i = 0; i < g.outputs.size(); ++i)
    p->exprs.push_back(Expr::column(g.outputs[i], ctx_.column(g.outputs[i]).type));
  p->outputs = g.outputs;
  p->estimated_rows = out->estimated_rows;
  // The same rows in the same places: the input's distribution, less what the dropped columns described.
  auto produced = [&](ColumnId c) { return std::find(g.outputs.begin(), g.outputs.end(), c) != g.outputs.end(); };
  Distribution d = out->distribution;
  if (d.kind == StreamDistribution::Hashed) {
    if (!std::all_of(d.columns.begin(), d.columns.end(), produced)) d.columns.clear();
    std::erase_if(d.mapped, [&](const MappedKey& k) { return !std::all_of(k.columns.begin(), k.columns.end(), produced); });
    if (d.columns.empty() && d.mapped.empty()) d = Distribution::any();
  }
  p->distribution = std::move(d);
  p->children.push_back(std::move(out));
  return p;
}

PhysicalPtr PhysicalPlanner::plan(const LogicalOperator& root) { return gather_if_needed(plan_node(root)); }

PhysicalPtr PhysicalPlanner::exchange(PhysicalPtr child, ExchangeKind kind, std::vector<ColumnId> keys, int buckets) {
  auto x = make<PhysicalExchange>(nullptr);
  x->exchange = kind;
  x->keys = keys;
  x->buckets = kind == ExchangeKind::Repartition && buckets != options_.workers ? buckets : 0;
  x->outputs = child->outputs;
  x->estimated_rows = child->estimated_rows;
  x->observed_row_bytes = child->observed_row_bytes;
  switch (kind) {
    case ExchangeKind::Gather: x->distribution = Distribution::single(); break;
    case ExchangeKind::Broadcast: x->distribution = Distribution::replicated(); break;
    case ExchangeKind::Repartition:
      x->distribution = Distribution::hashed(std::move(keys), buckets > 0 ? buckets : options_.workers);
      break;
  }
  x->children.push_back(std::move(child));
  return x;
}

PhysicalPtr PhysicalPlanner::gather_if_needed(PhysicalPtr child) {
  if (child->distribution.is_single_instance()) return child;
  return exchange(std::move(child), ExchangeKind::Gather);
}

PhysicalPtr PhysicalPlanner::plan_node(const LogicalOperator& op, int64_t limit_hint) {
  switch (op.kind) {
    case LogicalKind::Get: return plan_get(op.as<LogicalGet>(), limit_hint);
    case LogicalKind::Filter: {
      auto child = plan_node(*op.children[0]);
      auto f = make<PhysicalFilter>(&op);
      f->conjuncts = clone_all(op.as<LogicalFilter>().conjuncts);
      f->outputs = child->outputs;  // joins may have put their inputs in another order than the logical plan
      f->distribution = child->distribution;
      f->children.push_back(std::move(child));
      return f;
    }
    case LogicalKind::Project: {
      auto& lp = op.as<LogicalProject>();
      auto child = plan_node(*op.children[0], limit_hint);  // a projection keeps every row: the limit still holds
      auto p = make<PhysicalProject>(&op);
      p->exprs = clone_all(lp.exprs);
      p->outputs = op.outputs;
      p->distribution = child->distribution;
      if (p->distribution.kind == StreamDistribution::Hashed) p->distribution = project_distribution(lp, p->distribution);
      p->children.push_back(std::move(child));
      return p;
    }
    case LogicalKind::Join: return plan_join(op);
    case LogicalKind::Aggregate: return plan_aggregate(op);
    case LogicalKind::Sort:
    case LogicalKind::Limit: return plan_sort_limit(op);
    case LogicalKind::UnionAll: {
      auto u = make<PhysicalUnionAll>(&op);
      bool all_single = true;
      std::vector<PhysicalPtr> kids;
      for (auto& c : op.children) {
        kids.push_back(plan_node(*c));
        all_single &= kids.back()->distribution.kind == StreamDistribution::Replicated;
      }
      for (auto& k : kids) {
        // A replicated input would be read on every worker: spread it once instead.
        if (!all_single && k->distribution.is_single_instance()) {
          // The key is read before k is moved from (argument evaluation order is unspecified).
          ColumnId key = k->outputs[0];
          k = exchange(std::move(k), ExchangeKind::Repartition, {key});
        }
        u->children.push_back(std::move(k));
      }
      u->outputs = op.outputs;
      u->distribution = all_single ? Distribution::replicated() : Distribution::any();
      return u;
    }
    case LogicalKind::CteRef: {
      auto& r = op.as<LogicalCteRef>();
      auto scan = make<PhysicalCteScan>(&op);
      scan->cte_index = r.cte_index;
      scan->cte_name = r.cte_name;
      scan->producer_columns = r.producer_columns;
      scan->outputs = op.outputs;
      scan->distribution = Distribution::any();
      return scan;
    }
    case LogicalKind::Values: {
      auto v = make<PhysicalValues>(&op);
      v->rows = op.as<LogicalValues>().rows;
      v->outputs = op.outputs;
      // Constant rows exist once, on one worker (ValuesOp produces them on worker 0 only): a
      // join broadcasts them rather than reading them as a reference table on every worker.
      v->distribution = Distribution::single();
      return v;
    }
  }
  HS_ASSERT(false, "unknown logical operator");
}

PhysicalPtr PhysicalPlanner::plan_sort_limit(const LogicalOperator& op) {
  if (op.kind == LogicalKind::Sort) {
    auto child = gather_if_needed(plan_node(*op.children[0]));
    auto s = make<PhysicalSort>(&op);
    for (auto& k : op.as<LogicalSort>().keys) s->keys.push_back({k.column, k.ascending, k.nulls_first});
    s->outputs = child->outputs;
    s->distribution = child->distribution;
    s->children.push_back(std::move(child));
    return s;
  }
  auto& l = op.as<LogicalLimit>();
  // ORDER BY with a hidden sort column has a projection between the limit and the sort.
  const LogicalOperator* strip = nullptr;
  const LogicalOperator* below_ptr = op.children[0].get();
  if (below_ptr->kind == LogicalKind::Project && below_ptr->children[0]->kind == LogicalKind::Sort && l.limit >= 0) {
    strip = below_ptr;
    below_ptr = below_ptr->children[0].get();
  }
  const LogicalOperator& below = *below_ptr;
  if (below.kind == LogicalKind::Sort && l.limit >= 0) {
    // ORDER BY + LIMIT: a top-N per worker, then a final top-N over what they kept.
    auto child = plan_node(*below.children[0]);
    std::vector<PhysicalSortKey> keys;
    for (auto& k : below.as<LogicalSort>().keys) keys.push_back({k.column, k.ascending, k.nulls_first});
    if (!child->distribution.is_single_instance()) {
      auto local = make<PhysicalTopN>(nullptr);
      local->keys = keys;
      local->limit = l.limit + l.offset;
      local->outputs = child->outputs;
      local->distribution = child->distribution;
      local->estimated_rows = op.estimated_rows;
      local->children.push_back(std::move(child));
      child = exchange(std::move(local), ExchangeKind::Gather);
    }
    // The top-N implements the limit, not the sort below it (whose output is every row): no link to the sort.
    auto t = make<PhysicalTopN>(&op);
    t->keys = keys;
    t->limit = l.limit;
    t->offset = l.offset;
    t->outputs = child->outputs;
    t->distribution = child->distribution;
    t->children.push_back(std::move(child));
    if (!strip) return t;
    auto p = make<PhysicalProject>(strip);
    p->exprs = clone_all(strip->as<LogicalProject>().exprs);
    p->outputs = strip->outputs;
    p->distribution = t->distribution;
    p->estimated_rows = t->estimated_rows;
    p->children.push_back(std::move(t));
    return p;
  }
  int64_t enough = -1;  // rows a scan right below may stop after (limit + offset), if that fits
  if (l.limit >= 0 && __builtin_add_overflow(l.limit, l.offset, &enough)) enough = -1;
  auto child = plan_node(below, enough);
  if (!child->distribution.is_single_instance()) {
    if (l.limit >= 0) {
      auto local = make<PhysicalLimit>(nullptr);
      local->limit = l.limit + l.offset;
      local->outputs = child->outputs;
      local->distribution = child->distribution;
      local->estimated_rows = op.estimated_rows;
      local->children.push_back(std::move(child));
      child = std::move(local);
    }
    child = exchange(std::move(child), ExchangeKind::Gather);
  }
  auto lim = make<PhysicalLimit>(&op);
  lim->limit = l.limit;
  lim->offset = l.offset;
  lim->outputs = child->outputs;
  lim->distribution = child->distribution;
  lim->children.push_back(std::move(child));
  return lim;
}

PhysicalPtr PhysicalPlanner::plan_aggregate(const LogicalOperator& op) {
  auto& a = op.as<LogicalAggregate>();
  auto child = plan_node(*op.children[0]);
  bool distinct = false;
  for (auto& c : a.aggs) distinct |= c.distinct;
  // The shape (and its price, for the join order below an aggregate) is aggregate_ways' one definition.
  const AggregateShape shape = aggregate_shape(child->distribution, a.groups, distinct);
  auto single = [&](PhysicalPtr in) {
    auto agg = make<PhysicalHashAggregate>(&op);
    agg->mode = AggregateMode::Single;
    agg->groups = a.groups;
    agg->aggs = a.aggs;
    agg->outputs = op.outputs;
    agg->distribution = in->distribution;
    agg->children.push_back(std::move(in));
    return agg;
  };
  if (shape == AggregateShape::Local) return single(std::move(child));
  if (shape == AggregateShape::Moved) {
    // DISTINCT aggregates run in one phase, after moving each group to one worker.
    auto moved = a.groups.empty() ? exchange(std::move(child), ExchangeKind::Gather)
                                  : exchange(std::move(child), ExchangeKind::Repartition, a.groups);
    return single(std::move(moved));
  }
  // The partial aggregate computes per-worker partial states, not the aggregate's rows: it
  // forms a group of its own.
  auto partial = make<PhysicalHashAggregate>(nullptr);
  partial->mode = AggregateMode::Partial;
  partial->groups = a.groups;
  partial->aggs = a.aggs;
  partial->outputs = a.groups;
  for (auto& c : a.aggs) {
    DataType arg = c.arg == kInvalidColumn ? DataType::bigint() : ctx_.column(c.arg).type;
    if (c.kind == AggKind::Avg) {
      DataType sum = arg.id == TypeId::Double ? DataType::float64()
                   : arg.id == TypeId::Decimal ? DataType::decimal(18, arg.scale) : DataType::bigint();
      partial->outputs.push_back(ctx_.add_column({"partial_sum", sum, "", ""}));
      partial->outputs.push_back(ctx_.add_column({"partial_count", DataType::bigint(), "", ""}));
    } else {
      partial->outputs.push_back(ctx_.add_column({"partial", c.type, "", ""}));
    }
  }
  partial->distribution = child->distribution;
  partial->estimated_rows = partial_aggregate_rows(child->estimated_rows, op.estimated_rows, options_.workers);
  partial->children.push_back(std::move(child));
  auto moved = a.groups.empty() ? exchange(std::move(partial), ExchangeKind::Gather)
                                : exchange(std::move(partial), ExchangeKind::Repartition, a.groups);
  auto fin = make<PhysicalHashAggregate>(&op);
  fin->mode = AggregateMode::Final;
  fin->groups = a.groups;
  fin->aggs = a.aggs;
  fin->outputs = op.outputs;
  fin->distribution = moved->distribution;
  fin->children.push_back(std::move(moved));
  return fin;
}

}  // namespace hindsight
