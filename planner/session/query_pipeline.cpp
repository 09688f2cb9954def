#include "planner/session/query_pipeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <set>

#include "planner/common/elapsed.hpp"
#include "planner/exec/spill_file.hpp"
#include "planner/common/error.hpp"
#include "planner/optimizer/cardinality_model.hpp"
#include "planner/optimizer/cost_based_join_order.hpp"
#include "planner/optimizer/stats/filter_sample.hpp"
#include "planner/optimizer/stats/table_statistics_store.hpp"
#include "planner/physical/memory_estimate.hpp"
#include "planner/session/query_limits.hpp"

namespace hindsight {

std::unique_ptr<CompiledQuery> compile_query(Database& db, const sql::Query& q, const std::string& sql,
                                             const Settings& settings, bool sign_plans,
                                             const StatsProvider& observed, QueryLimits* limits) {
  auto t0 = std::chrono::steady_clock::now();
  auto cq = std::make_unique<CompiledQuery>();
  cq->sql = sql;
  Binder binder(db.catalog(), cq->ctx, sql, settings.cte_materialization == "always");
  BoundQuery bq = binder.bind_query(q);
  cq->names = bq.names;
  cq->outputs = bq.outputs;
  cq->ast_links = binder.ast_links();
  cq->logical = std::move(bq.plan);

  RewriteContext rctx;
  rctx.plan_ctx = &cq->ctx;
  rctx.on_replace = [&](NodeId a, NodeId b, const char* rule) { cq->rewrite_links.push_back({a, b, rule}); };
  RuleDriver driver(settings.disabled_rules);
  for (auto& m : binder.materialized_ctes()) {
    CompiledCte c;
    c.name = m.name;
    c.logical = std::move(m.plan);
    driver.run(c.logical, rctx);
    cq->ctes.push_back(std::move(c));
  }
  cq->rules = driver.run(cq->logical, rctx);

  // One snapshot of each table for the whole compilation: the same data for estimates and plan,
  // and one freshness check (a stat of its file) per table instead of one per use.
  std::map<std::string, TablePtr> tables;
  auto table = [&](const std::string& name) -> const TablePtr& {
    auto it = tables.find(name);
    if (it == tables.end()) {
      LoadInfo info;
      it = tables.emplace(name, db.table(name, info, limits)).first;
    }
    return it->second;
  };
  CardinalityModel model([&](const TableDef& def) { return static_cast<double>(table(def.name)->row_count); });
  model.set_cte_rows([&](int i) { return cq->ctes.at(static_cast<size_t>(i)).logical->estimated_rows; });
  std::map<std::string, std::shared_ptr<const TableStatistics>> table_stats;  // keeps them alive while planning
  const bool cost_based = settings.optimizer != "foundation";
  auto statistics_of = [&](const std::string& name) -> const TableStatistics* {
    auto it = table_stats.find(name);
    if (it == table_stats.end()) {
      it = table_stats.emplace(name, table_statistics(db, *table(name), limits)).first;
      if (limits) limits->check_deadline("analyzing table '" + name + "'");
    }
    return it->second.get();
  };
  if (cost_based) model.set_column_stats([&](ColumnId id) -> const ColumnStatistics* {
    const ColumnInfo& info = cq->ctx.column(id);
    if (info.base_table.empty()) return nullptr;
    const TableStatistics* ts = statistics_of(info.base_table);
    return ts ? ts->column(info.base_column) : nullptr;
  });
  if (cost_based && settings.filter_sample) model.set_filter_sample([&](const LogicalGet& g) -> std::optional<double> {
    const TableStatistics* ts = statistics_of(g.table.name);
    if (!ts) return std::nullopt;
    return sampled_filter_share(*ts, g.filters, [&](ColumnId id) {
      const ColumnInfo& info = cq->ctx.column(id);
      return info.base_table == g.table.name ? g.table.column_index(info.base_column) : -1;
    });
  });
  if (cost_based) model.set_key_distinct([&](const std::vector<ColumnId>& ids) -> std::optional<double> {
    std::vector<std::string> names;
    for (ColumnId id : ids) names.push_back(cq->ctx.column(id).base_column);
    const std::string& base = cq->ctx.column(ids.at(0)).base_table;
    if (base.empty()) return std::nullopt;
    std::optional<double> distinct = column_set_distinct(db, *table(base), names, limits);
    if (limits) limits->check_deadline("counting distinct keys of table '" + base + "'");
    return distinct;
  });
  // The base tables the query reads, loaded now (the estimates need them anyway), as the stats
  // provider and the collection of this query's statistics know them.
  std::set<std::string> table_names;
  std::function<void(const LogicalOperator&)> collect_tables = [&](const LogicalOperator& op) {
    if (op.kind == LogicalKind::Get) table_names.insert(op.as<LogicalGet>().table.name);
    for (auto& c : op.children) collect_tables(*c);
  };
  for (auto& c : cq->ctes) collect_tables(*c.logical);
  collect_tables(*cq->logical);
  for (const std::string& name : table_names) {
    const TablePtr& t = table(name);
    cq->tables.push_back({name, fmt::format("{:016x}", t->data_version), t->row_count});
  }
  if (observed) cq->observed = observed(cq->tables);
  model.set_stats_source(cq->observed.get(), &cq->ctx, [&](PlanSigner& s) {
    for (size_t i = 0; i < cq->ctes.size(); ++i) s.set_cte(static_cast<int>(i), *cq->ctes[i].logical);
  });
  for (auto& c : cq->ctes) model.estimate(*c.logical);
  model.estimate(*cq->logical);
  PhysicalPlannerOptions opts;
  opts.workers = settings.effective_workers();
  cq->workers = opts.workers;
  opts.memory_limit = settings.memory_limit;
  opts.spill = settings.spill;
  opts.cost_based = cost_based;
  opts.load_guard = limits;
  if (cost_based && !settings.disabled_rules.count("cost_based_join_order")) {
    // With more than one worker the join order prices the exchanges too, as this physical planner will.
    for (auto& c : cq->ctes)
      if (order_joins_by_cost(c.logical, model, cq->ctx, opts)) model.estimate(*c.logical);
    if (order_joins_by_cost(cq->logical, model, cq->ctx, opts)) model.estimate(*cq->logical);
  }
  PhysicalPlanner planner(cq->ctx, opts, [&](const TableDef& def) { return table(def.name); });
  for (auto& c : cq->ctes) c.physical = planner.plan_cte(*c.logical);
  cq->physical = planner.plan(*cq->logical);
  cq->physical_links = planner.links();
  const CostModelOptions costs = planner.cost_options();
  for (auto& c : cq->ctes) annotate_costs(*c.physical, cq->ctx, costs);
  annotate_costs(*cq->physical, cq->ctx, costs);
  cq->signer = std::make_unique<PlanSigner>(cq->ctx);
  if (!sign_plans) {
    cq->plan_ms = ms_since(t0);
    return cq;
  }
  // Exact and join-set signatures, what the mapper links; a template that differs from the exact
  // signature is computed when first asked for (EXPLAIN, stats look-ups).
  for (size_t i = 0; i < cq->ctes.size(); ++i) cq->signer->set_cte(static_cast<int>(i), *cq->ctes[i].logical);
  for (auto& c : cq->ctes) cq->signer->sign_exact(*c.logical);
  cq->signer->sign_exact(*cq->logical);
  for (auto& c : cq->ctes) cq->signer->sign_exact(*c.physical);
  cq->signer->sign_exact(*cq->physical);
  cq->plan_ms = ms_since(t0);
  return cq;
}

size_t ExecutedQuery::row_count() const {
  size_t n = 0;
  for (auto& b : batches) n += b.rows;
  return n;
}

ExecutedQuery execute_query(const CompiledQuery& cq, const Settings& settings, QueryLimits* limits) {
  std::vector<const PhysicalOperator*> ctes;
  for (auto& c : cq.ctes) ctes.push_back(c.physical.get());
  if (!settings.fault_injection.active()) return execute_plan(*cq.physical, cq.ctx, ctes, cq.outputs, settings, limits);
  FaultInjection fault(settings.fault_injection);
  ExecutedQuery out = execute_plan(*cq.physical, cq.ctx, ctes, cq.outputs, settings, limits, &fault);
  out.fault_fired = fault.fired();
  return out;
}

namespace {

void add_stats(std::map<int, OperatorStats>& to, int exec_id, const OperatorStats& st) {
  auto it = to.find(exec_id);
  if (it == to.end()) to.emplace(exec_id, st);
  else it->second.merge(st);
}

/// Spilling for the rest of the run: where the files go and the budget's reserve for their buffers, then the flag
/// the operators read (`buffers`: the exchange buffers built so far; the exec builder enables those it builds
/// afterwards). At the start of a `spill = on` run, or in place.
void start_spilling(ExecContext& ctx, MemoryTracker& memory, const Settings& settings,
                    const std::vector<std::shared_ptr<ExchangeBuffer>>& buffers) {
  ctx.spill_directory = spill_directory(settings);
  memory.set_spill_reserve(spill_reserve_for(memory.limit(), ctx.workers));
  for (auto& b : buffers) b->enable_spill(ctx.spill_directory);
  ctx.spill.store(true, std::memory_order_release);
}

/// ExecContext::spill_in_place of a run whose limits ask for it: what the run observed so far goes to
/// QueryLimits::spill_in_place; on yes, spilling turns on for the rest of the run as `spill = on` would have set
/// it up at the start (the directory, the reserve, every exchange buffer), and fail early stops (the overflow it
/// foresees now spills).
bool spill_in_place(const ExecOperator& overflowing, QueryLimits& limits, const Settings& settings,
                    const FragmentScheduler& scheduler, ExecContext& ctx, ExecutedQuery& out) {
  if (!out.exec) return false;
  MemoryTracker& memory = limits.memory();
  ExecutedQuery seen;
  seen.exec = out.exec;
  seen.workers = ctx.workers;
  // The fragments that finished, and the instances of the running one that ran to their end (on 2 cores a
  // 4-worker fragment runs two instances at a time: the third one to overflow finds the first two done).
  scheduler.visit_finished([&](const ExecOperator& op) {
    if (op.exec_id >= 0) add_stats(seen.stats, op.exec_id, op.stats());
  });
  // The overflowing instance's own operators (this thread runs them): lower bounds. The instances of its fragment
  // still running on other threads are not read.
  std::function<void(const ExecOperator&)> cut_short = [&](const ExecOperator& op) {
    if (op.exec_id >= 0) {
      OperatorStats st = op.stats();
      st.complete = false;
      add_stats(seen.stats, op.exec_id, st);
    }
    for (const auto& c : op.children()) cut_short(*c);
  };
  cut_short(overflowing);
  // Refused a charge, or foreseen to (fail early): either way it overflows.
  const std::string where = fmt::format("{} overflows memory_limit ({} in use of {})", overflowing.label(),
                                        format_bytes(memory.used()), format_bytes(memory.limit()));
  seen.error = Error(ErrorCode::MEMORY_LIMIT_EXCEEDED, where);
  std::string why;
  bool yes = false;
  try {
    yes = limits.spill_in_place(seen, why);
  } catch (...) {
    why = "deciding failed: " + current_exception_as_error().message();
  }
  out.spill_in_place = why.empty() ? where : where + ": " + why;
  if (!yes) return false;
  memory.set_fail_early(false);
  out.spilled_in_place = true;
  start_spilling(ctx, memory, settings, out.exec->buffers);
  return true;
}

}  // namespace

ExecutedQuery execute_plan(const PhysicalOperator& root, const PlanContext& plan_ctx,
                           const std::vector<const PhysicalOperator*>& ctes, const std::vector<ColumnId>& outputs,
                           const Settings& settings, QueryLimits* limits, FaultInjection* fault) {
  ExecutedQuery out;
  std::optional<QueryLimits> own;
  if (!limits) limits = &own.emplace(settings);
  MemoryTracker& memory = limits->memory();
  ExecContext ctx;
  ctx.memory = &memory;
  ctx.workers = settings.effective_workers();
  out.workers = ctx.workers;
  ctx.fault = fault;
  memory.set_spill_reserve(0);
  if (settings.spill) start_spilling(ctx, memory, settings, {});
  auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_ms();
  ctx.deadline = limits->deadline();
  FragmentScheduler scheduler(&ctx);
  if (limits->spill_in_place && !ctx.spill && ctx.memory)
    ctx.spill_in_place = [&](const ExecOperator& overflowing) {
      return spill_in_place(overflowing, *limits, settings, scheduler, ctx, out);
    };
  try {
    out.exec = build_exec_plan(root, plan_ctx, &ctx, ctes);
    out.batches = scheduler.run(out.exec->fragments, out.exec->root_fragment);
  } catch (const Error& e) {
    out.error = e;
  } catch (const std::bad_alloc&) {
    out.error = Error(ErrorCode::MEMORY_LIMIT_EXCEEDED, "the process ran out of memory");
  } catch (const std::exception& e) {
    out.error = Error(ErrorCode::INTERNAL, e.what());
  }
  out.elapsed_ms = ms_since(t0);
  out.cpu_ms = process_cpu_ms() - cpu0;
  for (ColumnId c : outputs) out.types.push_back(plan_ctx.column(c).type);
  scheduler.visit_operators([&](const ExecOperator& op) {
    if (op.exec_id >= 0) add_stats(out.stats, op.exec_id, op.stats());
  });
  out.peak_memory = memory.peak();
  out.peak_memory_live = memory.live_at_peak();
  // The buffers hold memory charged to the tracker that dies here: release them first.
  if (out.exec) {
    out.exec->buffers.clear();
    out.exec->cte_buffers.clear();
    out.exec->fragments.clear();
    out.exec->builder.reset();
  }
  if (ctx.spill) release_pooled_spill_files();  // the finished spill files kept for reuse (spill_file.cpp)
  return out;
}

double plan_cost(const CompiledQuery& cq) {
  double total = cq.physical ? std::max(0.0, cq.physical->subtree_cost) : 0;
  for (auto& c : cq.ctes) total += c.physical ? std::max(0.0, c.physical->subtree_cost) : 0;
  return total;
}

namespace {

/// A node's rows re-estimated from its children's re-estimates, as the model's independence assumption scales
/// them: a join's output by the product of its inputs' corrections (a semi or anti join's, NOT IN's included, by
/// its probe side's: more build rows can only remove probe rows), a
/// node of one input by its input's, an aggregate or a top-N no larger than its input; a leaf keeps its estimate.
double rescaled_rows(const PhysicalOperator& op, const std::vector<double>& old_children) {
  auto ratio = [&](size_t i) {
    return old_children[i] > 0 ? std::max(0.0, op.children[i]->estimated_rows) / old_children[i] : 1.0;
  };
  const double old = std::max(0.0, op.estimated_rows);
  if (op.children.empty()) return old;
  const double first = std::max(0.0, op.children[0]->estimated_rows);
  switch (op.kind) {
    case PhysicalOpKind::HashJoin:
    case PhysicalOpKind::NestedLoopJoin: {
      const JoinType t = op.kind == PhysicalOpKind::HashJoin ? op.as<PhysicalHashJoin>().type
                                                             : op.as<PhysicalNestedLoopJoin>().type;
      if (join_outputs_probe_only(t)) return std::min(first, old * ratio(0));
      return old * ratio(0) * (op.children.size() > 1 ? ratio(1) : 1.0);
    }
    case PhysicalOpKind::UnionAll: {
      double now = 0, before = 0;
      for (size_t i = 0; i < op.children.size(); ++i) {
        now += std::max(0.0, op.children[i]->estimated_rows);
        before += old_children[i];
      }
      return before > 0 ? old * now / before : old;
    }
    case PhysicalOpKind::HashAggregate:
    case PhysicalOpKind::TopN:
    case PhysicalOpKind::Limit: return std::min(first, old * ratio(0));
    default: return old * ratio(0);
  }
}

}  // namespace

PlanProgress plan_progress(CompiledQuery& cq, const ExecutedQuery* run, const Settings& settings) {
  struct Saved {
    PhysicalOperator* op;
    double rows;
    PlanCost own;
    double subtree;
  };
  std::vector<Saved> saved;
  // How far each node that ran got, from 0 to 1.
  std::map<const PhysicalOperator*, double> progress;
  // Bottom-up: a node's rows are what it produced when it ran to exhaustion, else the larger of what its count so
  // far extrapolates to and its estimate rescaled by its children's corrections (rescaled_rows).
  std::function<void(PhysicalOperator&)> observe = [&](PhysicalOperator& op) {
    saved.push_back({&op, op.estimated_rows, op.own_cost, op.subtree_cost});
    std::vector<double> old_children;
    for (auto& c : op.children) {
      old_children.push_back(std::max(0.0, c->estimated_rows));
      observe(*c);
    }
    std::optional<ObservedOutput> a;
    if (run) a = observed_output(*run, op);
    const double rescaled = rescaled_rows(op, old_children);
    if (!a) {
      op.estimated_rows = rescaled;
      return;
    }
    const double rows = static_cast<double>(a->rows);
    if (a->complete) {
      op.estimated_rows = rows;
      progress[&op] = 1;
      return;
    }
    // Cut short: the whole count is at least what it extrapolates to.
    op.estimated_rows = std::max(rescaled, rows * extrapolation(*run, op));
    // What it did: the share of its output produced, or of its input consumed (a join build that is done, its
    // probe not started), whichever says more.
    double seen = 0, expected = 0;
    for (auto& c : op.children) {
      if (auto ca = observed_output(*run, *c)) seen += static_cast<double>(ca->rows);
      expected += std::max(0.0, c->estimated_rows);
    }
    double share = op.estimated_rows > 0 ? rows / op.estimated_rows : 0;
    if (expected > 0) share = std::max(share, seen / expected);
    progress[&op] = std::clamp(share, 0.0, 1.0);
  };
  for (auto& c : cq.ctes) observe(*c.physical);
  observe(*cq.physical);
  CostModelOptions costs;
  costs.workers = settings.effective_workers();
  costs.memory_limit = std::numeric_limits<int64_t>::max();  // no overflow penalty: what the work is, not whether it fits
  for (auto& c : cq.ctes) annotate_costs(*c.physical, cq.ctx, costs);
  annotate_costs(*cq.physical, cq.ctx, costs);
  PlanProgress out;
  out.total = plan_cost(cq);
  for (auto& [op, share] : progress) out.done += share * std::max(0.0, op->own_cost.total);
  std::vector<const PhysicalOperator*> ctes;
  for (auto& c : cq.ctes) ctes.push_back(c.physical.get());
  out.peak_bytes = estimate_peak_memory(*cq.physical, cq.ctx, costs.workers, ctes, true, executor_threads()).total;
  for (auto& s : saved) {
    s.op->estimated_rows = s.rows;
    s.op->own_cost = s.own;
    s.op->subtree_cost = s.subtree;
  }
  return out;
}

double plan_cost_observed(CompiledQuery& cq, const ExecutedQuery& run, const Settings& settings) {
  return plan_progress(cq, &run, settings).total;
}

std::map<NodeId, const PhysicalOperator*> implementing_operators(const CompiledQuery& cq) {
  std::map<NodeId, const PhysicalOperator*> out;
  std::function<void(const PhysicalOperator&)> walk = [&](const PhysicalOperator& op) {
    if (op.logical_id != 0) out.emplace(op.logical_id, &op);  // pre-order: the top-most one stays
    for (auto& c : op.children) walk(*c);
  };
  for (auto& c : cq.ctes) walk(*c.physical);
  walk(*cq.physical);
  return out;
}

std::optional<ObservedOutput> observed_output(const ExecutedQuery& run, const PhysicalOperator& node) {
  if (!run.exec) return std::nullopt;
  auto it = run.exec->exec_ids_of.find(node.id);
  if (it == run.exec->exec_ids_of.end()) return std::nullopt;
  const bool exchange = node.kind == PhysicalOpKind::Exchange;
  auto s = run.stats.find(exchange ? it->second.front() : it->second.back());
  if (s == run.stats.end()) return std::nullopt;
  const OperatorStats& st = s->second;
  if (exchange) return ObservedOutput{st.rows_in, st.complete, st.instances};
  // A replicated stream is complete on every worker that computed it: each instance produced
  // all of its rows, so the sum over instances counts them once per worker.
  if (node.distribution.kind == StreamDistribution::Replicated && st.instances > 1)
    return ObservedOutput{st.rows_out / st.instances, st.complete, st.instances};
  return ObservedOutput{st.rows_out, st.complete, st.instances};
}

double scan_progress(const ExecutedQuery& run, const PhysicalOperator& node) {
  if (!run.exec) return 0;
  double progress = 0;
  std::function<void(const PhysicalOperator&)> walk = [&](const PhysicalOperator& p) {
    if (p.kind == PhysicalOpKind::Exchange) return;
    if (p.kind == PhysicalOpKind::TableScan) {
      auto ids = run.exec->exec_ids_of.find(p.id);
      if (ids != run.exec->exec_ids_of.end() && !ids->second.empty()) {
        auto s = run.stats.find(ids->second.front());
        if (s != run.stats.end() && !s->second.complete && s->second.rows_to_read > 0 && s->second.rows_read > 0)
          progress = std::max(progress, static_cast<double>(s->second.rows_read) /
                                            static_cast<double>(s->second.rows_to_read));
      }
    }
    for (auto& c : p.children) walk(*c);
  };
  if (node.kind == PhysicalOpKind::Exchange) {
    for (auto& c : node.children) walk(*c);
  } else {
    walk(node);
  }
  return progress;
}

double extrapolation(const ExecutedQuery& run, const PhysicalOperator& node) {
  if (!run.error) return 1;
  const std::optional<ObservedOutput> out = observed_output(run, node);
  if (!out || out->complete) return 1;
  double factor = 1;
  const double scanned = scan_progress(run, node);
  if (scanned > 0 && scanned < 1) factor = 1 / scanned;
  const PhysicalOperator& runs_in =
      node.kind == PhysicalOpKind::Exchange && !node.children.empty() ? *node.children[0] : node;
  const StreamDistribution spread = runs_in.distribution.kind;
  if ((spread == StreamDistribution::Any || spread == StreamDistribution::Hashed) &&
      static_cast<int>(out->instances) < run.workers)
    factor *= static_cast<double>(run.workers) / out->instances;
  return factor;
}

}  // namespace hindsight
