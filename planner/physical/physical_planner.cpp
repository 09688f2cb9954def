#include "planner/physical/physical_planner.hpp"

#include <algorithm>
#include <set>

#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"

namespace hindsight {

namespace {
/// Output column of a projection that passes input column `id` through unchanged.
ColumnId passthrough_of(const LogicalProject& p, ColumnId id) {
  for (size_t i = 0; i < p.exprs.size(); ++i)
    if (p.exprs[i]->kind == ExprKind::ColumnRef && p.exprs[i]->column_id == id) return p.outputs[i];
  return kInvalidColumn;
}

std::vector<ExprPtr> clone_all(const std::vector<ExprPtr>& v) {
  std::vector<ExprPtr> out;
  for (auto& e : v) out.push_back(e->clone());
  return out;
}
}  // namespace

PhysicalPtr PhysicalPlanner::plan(const LogicalOperator& root) { return gather_if_needed(plan_node(root)); }

PhysicalPtr PhysicalPlanner::exchange(PhysicalPtr child, ExchangeKind kind, std::vector<ColumnId> keys) {
  auto x = make<PhysicalExchange>(nullptr);
  x->exchange = kind;
  x->keys = keys;
  x->outputs = child->outputs;
  x->estimated_rows = child->estimated_rows;
  switch (kind) {
    case ExchangeKind::Gather: x->distribution = Distribution::single(); break;
    case ExchangeKind::Broadcast: x->distribution = Distribution::replicated(); break;
    case ExchangeKind::Repartition: x->distribution = Distribution::hashed(std::move(keys), options_.workers); break;
  }
  x->children.push_back(std::move(child));
  return x;
}

PhysicalPtr PhysicalPlanner::gather_if_needed(PhysicalPtr child) {
  if (child->distribution.is_single_instance()) return child;
  return exchange(std::move(child), ExchangeKind::Gather);
}

PhysicalPtr PhysicalPlanner::plan_node(const LogicalOperator& op) {
  switch (op.kind) {
    case LogicalKind::Get: {
      auto& g = op.as<LogicalGet>();
      auto scan = make<PhysicalTableScan>(&op);
      scan->table = table_(g.table);
      scan->columns = g.columns;
      scan->filters = clone_all(g.filters);
      scan->outputs = g.outputs;
      const TableDef& def = scan->table->def;
      if (def.distribution == DistributionKind::Replicated) {
        scan->distribution = Distribution::replicated();
      } else if (def.distribution == DistributionKind::Hash) {
        std::vector<ColumnId> cols;
        for (auto& name : def.distribution_columns) {
          int idx = def.column_index(name);
          for (size_t i = 0; i < g.columns.size(); ++i)
            if (g.columns[i] == idx) cols.push_back(g.outputs[i]);
        }
        scan->distribution = cols.size() == def.distribution_columns.size() ? Distribution::hashed(cols, def.buckets)
                                                                             : Distribution::any();
      }
      return scan;
    }
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
      auto child = plan_node(*op.children[0]);
      auto p = make<PhysicalProject>(&op);
      p->exprs = clone_all(lp.exprs);
      p->outputs = op.outputs;
      p->distribution = child->distribution;
      if (p->distribution.kind == StreamDistribution::Hashed) {
        for (auto& c : p->distribution.columns) {
          c = passthrough_of(lp, c);
          if (c == kInvalidColumn) {
            p->distribution = Distribution::any();
            break;
          }
        }
      }
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
        if (!all_single && k->distribution.is_single_instance())
          k = exchange(std::move(k), ExchangeKind::Repartition, {k->outputs[0]});
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
    auto t = make<PhysicalTopN>(&op);
    links_.push_back({below.id, t->id});
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
  auto child = plan_node(below);
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
  if (d.kind == StreamDistribution::Hashed && !a.groups.empty()) {
    local = true;
    for (ColumnId c : d.columns) local &= groups.count(c) > 0;
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
