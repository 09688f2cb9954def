#include "planner/rewrite/rules/prune_columns.hpp"

#include "planner/logical/plan_utils.hpp"

namespace hindsight {

namespace {

void add_cols(const Expr& e, std::set<ColumnId>& s) {
  std::vector<ColumnId> v;
  e.collect_columns(v);
  s.insert(v.begin(), v.end());
}

bool prune(LogicalOperator& op, const std::set<ColumnId>& required) {
  bool changed = false;
  std::set<ColumnId> need = required;
  switch (op.kind) {
    case LogicalKind::Get: {
      // A column only the Get's own filters read is not an output: the scan reads it for its filter
      // (PhysicalPlanner::plan_get), and it does not travel through the plan above.
      auto& g = op.as<LogicalGet>();
      std::vector<int> cols;
      std::vector<ColumnId> outs;
      for (size_t i = 0; i < g.outputs.size(); ++i)
        if (need.count(g.outputs[i])) {
          cols.push_back(g.columns[i]);
          outs.push_back(g.outputs[i]);
        }
      if (outs.empty() && !g.outputs.empty()) {  // keep one column so rows can be counted
        cols.push_back(g.columns[0]);
        outs.push_back(g.outputs[0]);
      }
      changed = outs.size() != g.outputs.size();
      g.columns = std::move(cols);
      g.outputs = std::move(outs);
      return changed;
    }
    case LogicalKind::Filter:
      for (auto& c : op.as<LogicalFilter>().conjuncts) add_cols(*c, need);
      changed = prune(*op.children[0], need);
      break;
    case LogicalKind::Project: {
      auto& p = op.as<LogicalProject>();
      std::vector<ExprPtr> exprs;
      std::vector<ColumnId> outs;
      for (size_t i = 0; i < p.exprs.size(); ++i)
        if (required.count(p.outputs[i])) {
          exprs.push_back(std::move(p.exprs[i]));
          outs.push_back(p.outputs[i]);
        }
      if (outs.empty() && !p.exprs.empty()) {
        // Keep the cheapest expression so the row count survives.
        exprs.push_back(std::move(p.exprs[0]));
        outs.push_back(p.outputs[0]);
      }
      changed = outs.size() != p.outputs.size();
      p.exprs = std::move(exprs);
      p.outputs = std::move(outs);
      std::set<ColumnId> child_need;
      for (auto& e : p.exprs) add_cols(*e, child_need);
      changed |= prune(*op.children[0], child_need);
      return changed;
    }
    case LogicalKind::Join: {
      for (auto& c : op.as<LogicalJoin>().conditions) add_cols(*c, need);
      changed |= prune(*op.children[0], need);
      changed |= prune(*op.children[1], need);
      break;
    }
    case LogicalKind::Aggregate: {
      auto& a = op.as<LogicalAggregate>();
      std::vector<AggregateCall> aggs;
      std::vector<ColumnId> outs = a.groups;
      for (size_t i = 0; i < a.aggs.size(); ++i) {
        ColumnId out = a.outputs[a.groups.size() + i];
        if (required.count(out) || (a.groups.empty() && aggs.empty() && i + 1 == a.aggs.size())) {
          aggs.push_back(a.aggs[i]);
          outs.push_back(out);
        }
      }
      changed = outs.size() != a.outputs.size();
      a.aggs = std::move(aggs);
      a.outputs = std::move(outs);
      std::set<ColumnId> child_need(a.groups.begin(), a.groups.end());
      for (auto& c : a.aggs)
        if (c.arg != kInvalidColumn) child_need.insert(c.arg);
      changed |= prune(*op.children[0], child_need);
      return changed;
    }
    case LogicalKind::Sort:
      for (auto& k : op.as<LogicalSort>().keys) need.insert(k.column);
      changed = prune(*op.children[0], need);
      break;
    case LogicalKind::Limit: changed = prune(*op.children[0], need); break;
    case LogicalKind::UnionAll:
      for (auto& c : op.children) changed |= prune(*c, output_set(*c));
      return changed;
    case LogicalKind::Values: return false;
    case LogicalKind::CteRef: {
      auto& r = op.as<LogicalCteRef>();
      std::vector<ColumnId> outs, prod;
      for (size_t i = 0; i < r.outputs.size(); ++i)
        if (required.count(r.outputs[i]) || (i + 1 == r.outputs.size() && outs.empty())) {
          outs.push_back(r.outputs[i]);
          prod.push_back(r.producer_columns[i]);
        }
      changed = outs.size() != r.outputs.size();
      r.outputs = std::move(outs);
      r.producer_columns = std::move(prod);
      return changed;
    }
  }
  refresh_outputs(op);
  return changed;
}

}  // namespace

bool PruneColumns::apply(LogicalPtr& plan, RewriteContext&) { return prune(*plan, output_set(*plan)); }

}  // namespace hindsight
