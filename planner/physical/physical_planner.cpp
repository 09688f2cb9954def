#include "planner/physical/physical_planner.hpp"

#include <algorithm>
#include <set>

#include "planner/common/error.hpp"
#include "planner/storage/connector/connector.hpp"
#include "planner/logical/plan_utils.hpp"
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
  auto builder = connector_for(table->def).scan_builder(table);
  builder->offer_projection(g.columns, g.outputs);
  std::vector<ExprPtr> accepted, refused;
  for (auto& f : g.filters) (builder->offer_filter(*f) ? accepted : refused).push_back(f->clone());
  // A limit is offered only when the scan alone produces the Get's rows (no filter left above it).
  const bool limited = refused.empty() && limit_hint >= 0 && builder->offer_limit(limit_hint);
  // The scan implements the Get only when it produces exactly its rows; otherwise the scan is a group of its own
  // (the Filter above implements the Get), so that what it observes is never taken for the Get's rows.
  const bool exact = refused.empty() && !limited;
  auto scan = make<PhysicalTableScan>(exact ? &g : nullptr);
  scan->table = table;
  scan->columns = g.columns;
  scan->filters = std::move(accepted);
  scan->outputs = g.outputs;
  scan->source = builder->build();
  scan->distribution = scan->source->distribution().value_or(scan_distribution(table->def, g.columns, g.outputs));
  if (!refused.empty()) {
    // At least the Get's rows: all of the table's when no conjunct was accepted.
    scan->estimated_rows = scan->filters.empty() ? static_cast<double>(table->row_count) : g.estimated_rows;
  } else if (limited) {
    const int instances = scan->distribution.kind == StreamDistribution::Any ||
                                  scan->distribution.kind == StreamDistribution::Hashed
                              ? options_.workers
                              : 1;
    scan->estimated_rows = g.estimated_rows < 0 ? -1 : std::min(g.estimated_rows, static_cast<double>(limit_hint) * instances);
  }
  if (refused.empty()) return scan;
  auto f = make<PhysicalFilter>(&g);
  f->conjuncts = std::move(refused);
  f->outputs = scan->outputs;
  f->distribution = scan->distribution;
  f->children.push_back(std::move(scan));
  return f;
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
  std::set<ColumnId> groups(a.groups.begin(), a.groups.end());
  const Distribution& d = child->distribution;
  bool local = d.is_single_instance();
  // Every group on one worker already: the stream is hashed on (a subset of) the grouping keys,
  // by its own key or by a co-location mapping.
  auto within_groups = [&](const std::vector<ColumnId>& cols) {
    if (cols.empty()) return false;
    for (ColumnId c : cols)
      if (!groups.count(c)) return false;
    return true;
  };
  if (d.kind == StreamDistribution::Hashed && !a.groups.empty()) {
    local = within_groups(d.columns);
    for (auto& m : d.mapped) local |= within_groups(m.columns);
  }
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
  if (local) return single(std::move(child));
  if (distinct) {
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
  partial->estimated_rows = std::min(child->estimated_rows, op.estimated_rows * options_.workers);
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
