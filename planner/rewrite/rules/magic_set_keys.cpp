#include "planner/rewrite/rules/magic_set_keys.hpp"

#include <algorithm>
#include <map>

#include "planner/logical/plan_context.hpp"

namespace hindsight {

namespace {

std::vector<ColumnId> columns_of(const Expr& e) {
  std::vector<ColumnId> v;
  e.collect_columns(v);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

bool contains(const std::vector<ColumnId>& v, ColumnId id) { return std::find(v.begin(), v.end(), id) != v.end(); }

void remap(Expr& e, const std::map<ColumnId, ColumnId>& m) {
  if (e.kind == ExprKind::ColumnRef) {
    auto it = m.find(e.column_id);
    if (it != m.end()) e.column_id = it->second;
  }
  for (auto& c : e.children) remap(*c, m);
}

/// Walks Project/Filter nodes from `op` down to an Aggregate with grouping columns, checking that
/// each Project passes `k`-candidates through unchanged; nullptr if the path holds anything else.
LogicalAggregate* aggregate_below(LogicalOperator& op, std::vector<LogicalProject*>& projects) {
  LogicalOperator* cur = &op;
  while (true) {
    if (cur->kind == LogicalKind::Aggregate) {
      auto& a = cur->as<LogicalAggregate>();
      return a.groups.empty() || a.children.size() != 1 ? nullptr : &a;
    }
    if (cur->kind == LogicalKind::Project) projects.push_back(&cur->as<LogicalProject>());
    else if (cur->kind != LogicalKind::Filter) return nullptr;
    if (cur->children.size() != 1) return nullptr;
    cur = cur->children[0].get();
  }
}

/// `k` reaches the top of the path unchanged: every Project on it outputs k as a reference to k.
bool passes_through(const std::vector<LogicalProject*>& projects, ColumnId k) {
  for (auto* p : projects) {
    bool found = false;
    for (size_t i = 0; i < p->outputs.size() && i < p->exprs.size(); ++i)
      if (p->outputs[i] == k && p->exprs[i]->kind == ExprKind::ColumnRef && p->exprs[i]->column_id == k) found = true;
    if (!found) return false;
  }
  return true;
}

void find_gets(LogicalOperator& op, ColumnId id, std::vector<LogicalGet*>& out) {
  if (op.kind == LogicalKind::Get && contains(op.outputs, id)) out.push_back(&op.as<LogicalGet>());
  for (auto& c : op.children) find_gets(*c, id, out);
}

/// The aggregate's input is already restricted by a semi join on this key: one of the semi joins
/// stacked directly on its input (this rule's, or the query's own) reads k.
bool already_restricted(const LogicalAggregate& agg, ColumnId k) {
  const LogicalOperator* in = agg.children[0].get();
  while (in->kind == LogicalKind::Join && in->as<LogicalJoin>().type == LogicalJoinType::Semi &&
         in->children.size() == 2) {
    for (const auto& c : in->as<LogicalJoin>().conditions)
      if (contains(columns_of(*c), k)) return true;
    in = in->children[0].get();
  }
  return false;
}

/// `o = k` as two bare column references, either way round: the outer column (in `left`) and the other.
bool column_equality(const Expr& cond, const std::vector<ColumnId>& left, ColumnId& o, ColumnId& k) {
  if (cond.kind != ExprKind::Call || cond.op != ScalarOp::Eq || cond.children.size() != 2) return false;
  const Expr& a = *cond.children[0];
  const Expr& b = *cond.children[1];
  if (a.kind != ExprKind::ColumnRef || b.kind != ExprKind::ColumnRef) return false;
  if (contains(left, a.column_id) && !contains(left, b.column_id)) {
    o = a.column_id;
    k = b.column_id;
    return true;
  }
  if (contains(left, b.column_id) && !contains(left, a.column_id)) {
    o = b.column_id;
    k = a.column_id;
    return true;
  }
  return false;
}

/// A copy of a chain of Project / Filter over a Get with fresh column ids (`fresh` maps old to new);
/// nullptr when the subplan holds anything else, or a scan filter reads a column the scan does not output.
LogicalPtr copy_subplan(const LogicalOperator& op, PlanContext& pc, std::map<ColumnId, ColumnId>& fresh) {
  auto fresh_id = [&](ColumnId id) {
    auto it = fresh.find(id);
    if (it != fresh.end()) return it->second;
    ColumnId n = pc.add_column(pc.column(id));
    fresh[id] = n;
    return n;
  };
  auto copy_expr = [&](const Expr& e) {
    ExprPtr c = e.clone();
    remap(*c, fresh);
    return c;
  };
  switch (op.kind) {
    case LogicalKind::Get: {
      const auto& g = op.as<LogicalGet>();
      for (const auto& f : g.filters)
        for (ColumnId c : columns_of(*f))
          if (!contains(g.outputs, c)) return nullptr;
      auto copy = std::make_unique<LogicalGet>(pc.next_node_id());
      copy->table = g.table;
      copy->alias = g.alias;
      copy->columns = g.columns;
      for (ColumnId c : g.outputs) copy->outputs.push_back(fresh_id(c));
      for (const auto& f : g.filters) copy->filters.push_back(copy_expr(*f));
      return copy;
    }
    case LogicalKind::Filter: {
      if (op.children.size() != 1) return nullptr;
      LogicalPtr child = copy_subplan(*op.children[0], pc, fresh);
      if (!child) return nullptr;
      auto copy = std::make_unique<LogicalFilter>(pc.next_node_id());
      for (const auto& c : op.as<LogicalFilter>().conjuncts) copy->conjuncts.push_back(copy_expr(*c));
      copy->outputs = child->outputs;
      copy->children.push_back(std::move(child));
      return copy;
    }
    case LogicalKind::Project: {
      if (op.children.size() != 1) return nullptr;
      LogicalPtr child = copy_subplan(*op.children[0], pc, fresh);
      if (!child) return nullptr;
      const auto& p = op.as<LogicalProject>();
      auto copy = std::make_unique<LogicalProject>(pc.next_node_id());
      for (const auto& e : p.exprs) copy->exprs.push_back(copy_expr(*e));
      for (ColumnId c : p.outputs) copy->outputs.push_back(fresh_id(c));  // a passed-through column keeps its copy
      copy->children.push_back(std::move(child));
      return copy;
    }
    default: return nullptr;
  }
}

/// The aggregate's input semi-joined with `keys` on `on`: only the rows whose groups can match are aggregated.
void restrict_input(LogicalAggregate& agg, ExprPtr on, LogicalPtr keys, PlanContext& pc) {
  auto semi = std::make_unique<LogicalJoin>(pc.next_node_id());
  semi->type = LogicalJoinType::Semi;
  semi->conditions.push_back(std::move(on));
  semi->outputs = agg.children[0]->outputs;
  semi->children.push_back(std::move(agg.children[0]));
  semi->children.push_back(std::move(keys));
  agg.children[0] = std::move(semi);
}

bool try_join(LogicalJoin& j, RewriteContext& ctx) {
  if (j.type != LogicalJoinType::Inner && j.type != LogicalJoinType::Left && j.type != LogicalJoinType::Semi)
    return false;
  if (j.children.size() != 2) return false;
  std::vector<LogicalProject*> projects;
  LogicalAggregate* agg = aggregate_below(*j.children[1], projects);
  if (!agg) return false;
  const auto& left_outputs = j.children[0]->outputs;
  for (const auto& cond : j.conditions) {
    if (cond->kind != ExprKind::Call || cond->op != ScalarOp::Eq || cond->children.size() != 2) continue;
    for (int side = 0; side < 2; ++side) {
      auto outer_cols = columns_of(*cond->children[static_cast<size_t>(side)]);
      auto inner_cols = columns_of(*cond->children[static_cast<size_t>(1 - side)]);
      if (outer_cols.size() != 1 || inner_cols.size() != 1) continue;
      const ColumnId o = outer_cols[0], k = inner_cols[0];
      if (!contains(left_outputs, o) || !contains(agg->groups, k) || !contains(j.children[1]->outputs, k) ||
          !passes_through(projects, k))
        continue;
      // Column ids name one producer: every value of o the join sees comes from this scan's rows.
      std::vector<LogicalGet*> gets;
      find_gets(*j.children[0], o, gets);
      if (gets.size() != 1 || gets[0]->filters.empty()) continue;
      const LogicalGet& g = *gets[0];
      if (already_restricted(*agg, k)) continue;
      PlanContext& pc = *ctx.plan_ctx;
      auto copy = std::make_unique<LogicalGet>(pc.next_node_id());
      copy->table = g.table;
      copy->alias = g.alias;
      std::map<ColumnId, ColumnId> fresh;
      auto fresh_id = [&](ColumnId id) {
        auto it = fresh.find(id);
        if (it != fresh.end()) return it->second;
        ColumnId n = pc.add_column(pc.column(id));
        fresh[id] = n;
        return n;
      };
      // Outputs: every column of the scan its filters or the key read (PruneColumns trims them).
      std::vector<ColumnId> needed{o};
      for (const auto& f : g.filters)
        for (ColumnId c : columns_of(*f))
          if (!contains(needed, c)) needed.push_back(c);
      bool ok = true;
      for (ColumnId c : needed) {
        auto pos = std::find(g.outputs.begin(), g.outputs.end(), c);
        if (pos == g.outputs.end()) {
          ok = false;  // a filter-only column (pruned earlier): its table index is not at hand here
          break;
        }
        copy->columns.push_back(g.columns[static_cast<size_t>(pos - g.outputs.begin())]);
        copy->outputs.push_back(fresh_id(c));
      }
      if (!ok) continue;
      for (const auto& f : g.filters) {
        ExprPtr e = f->clone();
        remap(*e, fresh);
        copy->filters.push_back(std::move(e));
      }
      ExprPtr on = cond->clone();
      remap(*on, fresh);
      restrict_input(*agg, std::move(on), std::move(copy), pc);
      return true;
    }
  }
  return false;
}

/// The grouped aggregate a join `j` (inner, left or semi, the aggregate on its right) equates outer column
/// `o` with: its grouping column in `k`; nullptr when there is none.
LogicalAggregate* aggregate_keyed_by(LogicalJoin& j, ColumnId o, ColumnId& k) {
  if (j.type != LogicalJoinType::Inner && j.type != LogicalJoinType::Left && j.type != LogicalJoinType::Semi)
    return nullptr;
  if (j.children.size() != 2 || !contains(j.children[0]->outputs, o)) return nullptr;
  std::vector<LogicalProject*> projects;
  LogicalAggregate* agg = aggregate_below(*j.children[1], projects);
  if (!agg) return nullptr;
  for (const auto& cond : j.conditions) {
    ColumnId a = kInvalidColumn, b = kInvalidColumn;
    if (!column_equality(*cond, j.children[0]->outputs, a, b) || a != o) continue;
    if (contains(agg->groups, b) && contains(j.children[1]->outputs, b) && passes_through(projects, b)) {
      k = b;
      return agg;
    }
  }
  return nullptr;
}

/// A semi join `o = r` with a subplan R it can copy restricts the rows above it to values of o that R
/// produces. Below it, on the path its left input's rows take (Filter, Sort, Project passing o on, either
/// input of an inner join, the left input of a left, semi or anti join: every row there reaches the semi
/// join with its o unchanged, or not at all), a join that equates o with the grouping column k of an
/// aggregate on its right (not preserved) loses only rows the semi join drops anyway when that aggregate's
/// input is restricted to k IN R (a semi join with a copy of R). TPC-H Q20: ps_partkey IN ('forest%' parts)
/// restricts the per (part, supplier) sums of lineitem to those parts.
bool try_semi(LogicalJoin& s, RewriteContext& ctx) {
  if (s.type != LogicalJoinType::Semi || s.children.size() != 2) return false;
  for (const auto& cond : s.conditions) {
    ColumnId o = kInvalidColumn, r = kInvalidColumn;
    if (!column_equality(*cond, s.children[0]->outputs, o, r) || !contains(s.children[1]->outputs, r)) continue;
    LogicalOperator* cur = s.children[0].get();
    LogicalAggregate* agg = nullptr;
    ColumnId k = kInvalidColumn;
    while (cur && !agg) {
      LogicalOperator* next = nullptr;
      switch (cur->kind) {
        case LogicalKind::Filter:
        case LogicalKind::Sort: next = cur->children[0].get(); break;
        case LogicalKind::Project: {
          std::vector<LogicalProject*> one{&cur->as<LogicalProject>()};
          if (passes_through(one, o)) next = cur->children[0].get();
          break;
        }
        case LogicalKind::Join: {
          auto& j = cur->as<LogicalJoin>();
          if (j.children.size() != 2) break;
          agg = aggregate_keyed_by(j, o, k);
          if (agg) break;
          const bool in_left = contains(j.children[0]->outputs, o);
          if (j.type == LogicalJoinType::Inner) next = (in_left ? j.children[0] : j.children[1]).get();
          else if (in_left && (j.type == LogicalJoinType::Left || j.type == LogicalJoinType::Semi ||
                               j.type == LogicalJoinType::Anti || j.type == LogicalJoinType::NullAwareAnti))
            next = j.children[0].get();
          break;
        }
        default: break;
      }
      if (next && !contains(next->outputs, o)) next = nullptr;
      if (!agg) cur = next;
    }
    if (!agg || already_restricted(*agg, k)) continue;
    PlanContext& pc = *ctx.plan_ctx;
    std::map<ColumnId, ColumnId> fresh;
    LogicalPtr copy = copy_subplan(*s.children[1], pc, fresh);
    if (!copy || !fresh.count(r)) continue;
    std::vector<ExprPtr> args;
    args.push_back(Expr::column(k, pc.column_type(k)));
    args.push_back(Expr::column(fresh.at(r), pc.column_type(r)));
    restrict_input(*agg, Expr::call(ScalarOp::Eq, cond->type, std::move(args)), std::move(copy), pc);
    return true;
  }
  return false;
}

bool visit(LogicalOperator& op, RewriteContext& ctx) {
  bool changed = false;
  for (auto& c : op.children) changed |= visit(*c, ctx);
  if (op.kind == LogicalKind::Join) {
    changed |= try_join(op.as<LogicalJoin>(), ctx);
    changed |= try_semi(op.as<LogicalJoin>(), ctx);
  }
  return changed;
}

}  // namespace

bool MagicSetKeys::apply(LogicalPtr& plan, RewriteContext& ctx) { return visit(*plan, ctx); }

}  // namespace hindsight
