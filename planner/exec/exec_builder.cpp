#include "planner/exec/exec_builder.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/physical/memory_estimate.hpp"
#include "planner/storage/connector/scan_source.hpp"
#include "planner/exec/operators/cte_sink.hpp"
#include "planner/exec/operators/exchange_sink.hpp"
#include "planner/exec/operators/exchange_source.hpp"
#include "planner/exec/operators/filter.hpp"
#include "planner/exec/operators/hash_aggregate.hpp"
#include "planner/exec/operators/hash_join_build.hpp"
#include "planner/exec/operators/hash_join_probe.hpp"
#include "planner/exec/operators/limit.hpp"
#include "planner/exec/operators/nested_loop_join.hpp"
#include "planner/exec/operators/project.hpp"
#include "planner/exec/operators/sort.hpp"
#include "planner/exec/operators/table_scan.hpp"
#include "planner/exec/operators/top_n.hpp"
#include "planner/exec/operators/union_all.hpp"
#include "planner/exec/operators/values.hpp"

namespace hindsight {

namespace {

int position(const std::vector<ColumnId>& layout, ColumnId id) {
  for (size_t i = 0; i < layout.size(); ++i)
    if (layout[i] == id) return static_cast<int>(i);
  throw_internal(__FILE__, __LINE__, fmt::format("column #{} is not in the operator's input", id));
}

ExprPtr resolve(const Expr& e, const std::vector<ColumnId>& layout) {
  ExprPtr out = e.clone();
  std::function<void(Expr&)> walk = [&](Expr& x) {
    if (x.kind == ExprKind::ColumnRef) x.index = position(layout, x.column_id);
    for (auto& c : x.children) walk(*c);
  };
  walk(*out);
  return out;
}

ExprPtr resolve_all(const std::vector<ExprPtr>& conj, const std::vector<ColumnId>& layout) {
  if (conj.empty()) return nullptr;
  ExprPtr all = make_conjunction(conj);
  return resolve(*all, layout);
}

std::vector<SortKey> sort_keys(const std::vector<PhysicalSortKey>& keys, const std::vector<ColumnId>& layout) {
  std::vector<SortKey> out;
  for (auto& k : keys) out.push_back({position(layout, k.column), k.ascending, k.nulls_first});
  return out;
}

std::vector<int> positions(const std::vector<ColumnId>& ids, const std::vector<ColumnId>& layout) {
  std::vector<int> out;
  for (ColumnId id : ids) out.push_back(position(layout, id));
  return out;
}

class Builder {
 public:
  Builder(const PlanContext& ctx, ExecContext* exec_ctx, ExecPlan& plan) : ctx_(ctx), exec_ctx_(exec_ctx), plan_(plan) {}

  void assign_ids(const PhysicalOperator& op) {
    auto add = [&](const char* role) {
      int id = static_cast<int>(plan_.nodes.size());
      plan_.nodes.push_back({id, op.id, role});
      plan_.exec_ids_of[op.id].push_back(id);
    };
    switch (op.kind) {
      case PhysicalOpKind::HashJoin:
        add("HashJoinBuild");
        add("HashJoinProbe");
        break;
      case PhysicalOpKind::Exchange:
        add("ExchangeSink");
        add("ExchangeSource");
        break;
      case PhysicalOpKind::CteScan: add("CteScan"); break;
      default: add(physical_op_name(op.kind));
    }
    for (auto& c : op.children) assign_ids(*c);
  }

  /// Creates the fragment that materializes CTE `index` (plan `root`) into its buffer.
  void cte_fragment(int index, const PhysicalOperator* root) {
    std::vector<DataType> types;
    for (ColumnId c : root->outputs) types.push_back(ctx_.column(c).type);
    auto buffer = std::make_shared<CteBuffer>(types, exec_ctx_->memory);
    plan_.cte_buffers.push_back(buffer);
    cte_roots_.push_back(root);
    int id = static_cast<int>(plan_.fragments.size());
    plan_.fragments.emplace_back();
    int instances = root->distribution.is_single_instance() ? 1 : exec_ctx_->workers;
    std::vector<int> deps;
    collect_exchanges(*root, instances, deps);
    Fragment& f = plan_.fragments[static_cast<size_t>(id)];
    f.id = id;
    f.instances = instances;
    f.depends_on = deps;
    int sink_id = static_cast<int>(plan_.nodes.size());
    plan_.nodes.push_back({sink_id, root->id, "CteSink"});
    f.make = [this, root, buffer, sink_id](int worker) -> std::unique_ptr<ExecOperator> {
      auto s = std::make_unique<CteSinkOp>(exec_ctx_, worker, instantiate(*root, worker), buffer);
      s->exec_id = sink_id;
      return s;
    };
    plan_.cte_fragments.push_back(id);
    (void)index;
  }

  /// Creates the fragment whose root is `root`; returns its id.
  int fragment(const PhysicalOperator* root, std::shared_ptr<ExchangeBuffer> sink) {
    int id = static_cast<int>(plan_.fragments.size());
    plan_.fragments.emplace_back();
    int instances = root->distribution.is_single_instance() ? 1 : exec_ctx_->workers;
    std::vector<int> deps;
    collect_exchanges(*root, instances, deps);
    Fragment& f = plan_.fragments[static_cast<size_t>(id)];
    f.id = id;
    f.instances = instances;
    f.depends_on = deps;
    f.make = [this, root, sink](int worker) -> std::unique_ptr<ExecOperator> {
      auto op = instantiate(*root, worker);
      if (!sink) return op;
      auto s = std::make_unique<ExchangeSinkOp>(exec_ctx_, worker, std::move(op), sink);
      s->exec_id = plan_.exec_ids_of.at(sink_owner_.at(sink.get()))[0];
      return s;
    };
    return id;
  }

 private:
  void collect_exchanges(const PhysicalOperator& op, int consumers, std::vector<int>& deps) {
    if (op.kind == PhysicalOpKind::Exchange) {
      auto& x = op.as<PhysicalExchange>();
      const PhysicalOperator& child = *op.children[0];
      std::vector<DataType> types;
      for (ColumnId c : child.outputs) types.push_back(ctx_.column(c).type);
      auto buffer = std::make_shared<ExchangeBuffer>(x.exchange, consumers, types, exec_ctx_->memory,
                                                     positions(x.keys, child.outputs), x.buckets);
      if (exec_ctx_->spill && exec_ctx_->memory) buffer->enable_spill(exec_ctx_->spill_directory);
      plan_.buffers.push_back(buffer);
      buffers_[op.id] = buffer;
      sink_owner_[buffer.get()] = op.id;
      deps.push_back(fragment(&child, buffer));
      return;
    }
    if (op.kind == PhysicalOpKind::CteScan) instances_of_[op.id] = consumers;
    if (op.kind == PhysicalOpKind::CteScan) deps.push_back(plan_.cte_fragments.at(static_cast<size_t>(op.as<PhysicalCteScan>().cte_index)));
    for (auto& c : op.children) collect_exchanges(*c, consumers, deps);
  }

  std::unique_ptr<ExecOperator> instantiate(const PhysicalOperator& op, int w) {
    const std::vector<int>& ids = plan_.exec_ids_of.at(op.id);
    std::unique_ptr<ExecOperator> out;
    auto child = [&](size_t i) { return instantiate(*op.children[i], w); };
    const std::vector<ColumnId>* in = op.children.empty() ? nullptr : &op.children[0]->outputs;
    switch (op.kind) {
      case PhysicalOpKind::TableScan: {
        auto& s = op.as<PhysicalTableScan>();
        if (s.source)  // the connector's scan, with the pushdowns it accepted
          out = s.source->make_operator(exec_ctx_, w);
        else
          out = std::make_unique<TableScanOp>(exec_ctx_, w, s.table, s.columns, resolve_all(s.filters, s.outputs));
        break;
      }
      case PhysicalOpKind::Filter:
        out = std::make_unique<FilterOp>(exec_ctx_, w, child(0), resolve_all(op.as<PhysicalFilter>().conjuncts, *in));
        break;
      case PhysicalOpKind::Project: {
        std::vector<ExprPtr> exprs;
        for (auto& e : op.as<PhysicalProject>().exprs) exprs.push_back(resolve(*e, *in));
        out = std::make_unique<ProjectOp>(exec_ctx_, w, child(0), std::move(exprs));
        break;
      }
      case PhysicalOpKind::HashJoin: {
        auto& j = op.as<PhysicalHashJoin>();
        const auto& probe_layout = op.children[0]->outputs;
        const auto& build_layout = op.children[1]->outputs;
        auto build = std::make_unique<HashJoinBuildOp>(exec_ctx_, w, child(1), positions(j.build_keys, build_layout));
        build->exec_id = ids[0];
        std::vector<ColumnId> both = probe_layout;
        both.insert(both.end(), build_layout.begin(), build_layout.end());
        out = std::make_unique<HashJoinProbeOp>(exec_ctx_, w, child(0), std::move(build), positions(j.probe_keys, probe_layout),
                                                j.type, resolve_all(j.residual, both));
        out->exec_id = ids[1];
        return out;
      }
      case PhysicalOpKind::NestedLoopJoin: {
        auto& j = op.as<PhysicalNestedLoopJoin>();
        std::vector<ColumnId> both = op.children[0]->outputs;
        both.insert(both.end(), op.children[1]->outputs.begin(), op.children[1]->outputs.end());
        out = std::make_unique<NestedLoopJoinOp>(exec_ctx_, w, child(0), child(1), resolve_all(j.condition, both), j.type);
        break;
      }
      case PhysicalOpKind::HashAggregate: {
        auto& a = op.as<PhysicalHashAggregate>();
        std::vector<int> groups;
        std::vector<AggregateSpec> specs;
        if (a.mode == AggregateMode::Final) {
          for (size_t i = 0; i < a.groups.size(); ++i) groups.push_back(static_cast<int>(i));
        } else {
          groups = positions(a.groups, *in);
        }
        for (auto& c : a.aggs) {
          int arg = -1;
          if (a.mode != AggregateMode::Final && c.arg != kInvalidColumn) arg = position(*in, c.arg);
          specs.push_back({c.kind, arg, c.distinct, c.type});
        }
        out = std::make_unique<HashAggregateOp>(exec_ctx_, w, child(0), std::move(groups), std::move(specs), a.mode);
        break;
      }
      case PhysicalOpKind::Sort:
        out = std::make_unique<SortOp>(exec_ctx_, w, child(0), sort_keys(op.as<PhysicalSort>().keys, *in));
        break;
      case PhysicalOpKind::TopN: {
        auto& t = op.as<PhysicalTopN>();
        out = std::make_unique<TopNOp>(exec_ctx_, w, child(0), sort_keys(t.keys, *in), t.limit, t.offset);
        break;
      }
      case PhysicalOpKind::Limit: {
        auto& l = op.as<PhysicalLimit>();
        out = std::make_unique<LimitOp>(exec_ctx_, w, child(0), l.limit, l.offset);
        break;
      }
      case PhysicalOpKind::UnionAll: {
        std::vector<std::unique_ptr<ExecOperator>> kids;
        for (size_t i = 0; i < op.children.size(); ++i) kids.push_back(child(i));
        out = std::make_unique<UnionAllOp>(exec_ctx_, w, std::move(kids));
        break;
      }
      case PhysicalOpKind::Values: {
        auto& v = op.as<PhysicalValues>();
        Batch b;
        for (ColumnId c : op.outputs) b.columns.emplace_back(ctx_.column(c).type);
        for (auto& row : v.rows)
          for (size_t i = 0; i < row.size(); ++i) b.columns[i].append_value(row[i]);
        b.rows = v.rows.size();
        std::vector<Batch> batches;
        batches.push_back(std::move(b));
        out = std::make_unique<ValuesOp>(exec_ctx_, w, std::move(batches));
        break;
      }
      case PhysicalOpKind::CteScan: {
        auto& c = op.as<PhysicalCteScan>();
        const PhysicalOperator* producer = cte_roots_.at(static_cast<size_t>(c.cte_index));
        out = std::make_unique<CteScanOp>(exec_ctx_, w, instances_of_.at(op.id), plan_.cte_buffers.at(static_cast<size_t>(c.cte_index)),
                                          positions(c.producer_columns, producer->outputs));
        break;
      }
      case PhysicalOpKind::Exchange: {
        out = std::make_unique<ExchangeSourceOp>(exec_ctx_, w, buffers_.at(op.id));
        out->exec_id = ids[1];
        return out;
      }
    }
    out->exec_id = ids[0];
    return out;
  }

  const PlanContext& ctx_;
  ExecContext* exec_ctx_;
  ExecPlan& plan_;
  std::map<NodeId, std::shared_ptr<ExchangeBuffer>> buffers_;
  std::map<const ExchangeBuffer*, NodeId> sink_owner_;
  std::vector<const PhysicalOperator*> cte_roots_;
  std::map<NodeId, int> instances_of_;  ///< CTE scans: instances of the fragment that holds them
};

}  // namespace

std::unique_ptr<ExecPlan> build_exec_plan(const PhysicalOperator& root, const PlanContext& ctx, ExecContext* exec_ctx,
                                          const std::vector<const PhysicalOperator*>& ctes) {
  auto plan = std::make_unique<ExecPlan>();
  // The fragments' factories call back into the builder: the plan owns it.
  auto builder = std::make_shared<Builder>(ctx, exec_ctx, *plan);
  builder->assign_ids(root);
  for (auto* c : ctes) builder->assign_ids(*c);
  // CTEs may read earlier CTEs: produce them in definition order, before the query.
  for (size_t i = 0; i < ctes.size(); ++i) builder->cte_fragment(static_cast<int>(i), ctes[i]);
  plan->root_fragment = builder->fragment(&root, nullptr);
  plan->builder = builder;
  // What each fragment is estimated to hold: the scheduler orders fragments by it, as estimate_peak_memory does.
  std::vector<FragmentFootprint> footprints =
      fragment_footprints(root, ctx, exec_ctx->workers, ctes, true, executor_threads());
  HS_ASSERT(footprints.size() == plan->fragments.size(), "the memory estimate numbers fragments differently");
  for (size_t i = 0; i < footprints.size(); ++i) plan->fragments[i].footprint = footprints[i];
  return plan;
}

}  // namespace hindsight
