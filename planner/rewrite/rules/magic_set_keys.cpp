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

/// The aggregate's input is already restricted by a semi join on this condition's key.
bool already_restricted(const LogicalAggregate& agg, ColumnId k, const std::string& table) {
  const LogicalOperator& in = *agg.children[0];
  if (in.kind != LogicalKind::Join) return false;
  const auto& j = in.as<LogicalJoin>();
  if (j.type != LogicalJoinType::Semi || j.children[1]->kind != LogicalKind::Get) return false;
  if (j.children[1]->as<LogicalGet>().table.name != table) return false;
  for (const auto& c : j.conditions)
    if (contains(columns_of(*c), k)) return true;
  return false;
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
      if (already_restricted(*agg, k, g.table.name)) continue;
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
      auto semi = std::make_unique<LogicalJoin>(pc.next_node_id());
      semi->type = LogicalJoinType::Semi;
      semi->conditions.push_back(std::move(on));
      semi->outputs = agg->children[0]->outputs;
      semi->children.push_back(std::move(agg->children[0]));
      semi->children.push_back(std::move(copy));
      agg->children[0] = std::move(semi);
      return true;
    }
  }
  return false;
}

bool visit(LogicalOperator& op, RewriteContext& ctx) {
  bool changed = false;
  for (auto& c : op.children) changed |= visit(*c, ctx);
  if (op.kind == LogicalKind::Join) changed |= try_join(op.as<LogicalJoin>(), ctx);
  return changed;
}

}  // namespace

bool MagicSetKeys::apply(LogicalPtr& plan, RewriteContext& ctx) { return visit(*plan, ctx); }

}  // namespace hindsight
