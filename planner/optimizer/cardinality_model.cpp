#include "planner/optimizer/cardinality_model.hpp"

#include <algorithm>
#include <cmath>

namespace hindsight {

double CardinalityModel::selectivity(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Call:
      switch (e.op) {
        case ScalarOp::Eq: return 0.1;
        case ScalarOp::Ne: return 0.9;
        case ScalarOp::Lt:
        case ScalarOp::Le:
        case ScalarOp::Gt:
        case ScalarOp::Ge: return 0.3;
        default: return 0.5;
      }
    case ExprKind::Like: return e.negated ? 0.75 : 0.25;
    case ExprKind::InList: {
      double s = std::min(0.5, 0.1 * static_cast<double>(e.children.size() - 1));
      return e.negated ? 1 - s : s;
    }
    case ExprKind::And: {
      double s = 1;
      for (auto& c : e.children) s *= selectivity(*c);
      return s;
    }
    case ExprKind::Or: {
      double miss = 1;
      for (auto& c : e.children) miss *= 1 - selectivity(*c);
      return 1 - miss;
    }
    case ExprKind::Not: return 1 - selectivity(*e.children[0]);
    case ExprKind::IsNull: return e.negated ? 0.95 : 0.05;
    default: return 0.5;
  }
}

double CardinalityModel::estimate(LogicalOperator& op) {
  std::vector<double> in;
  for (auto& c : op.children) in.push_back(estimate(*c));
  double rows = 1;
  auto conj_sel = [](const std::vector<ExprPtr>& conj) {
    double s = 1;
    for (auto& c : conj) s *= selectivity(*c);
    return s;
  };
  switch (op.kind) {
    case LogicalKind::Get: {
      auto& g = op.as<LogicalGet>();
      rows = table_rows_(g.table) * conj_sel(g.filters);
      break;
    }
    case LogicalKind::Filter: rows = in[0] * conj_sel(op.as<LogicalFilter>().conjuncts); break;
    case LogicalKind::Project:
    case LogicalKind::Sort: rows = in[0]; break;
    case LogicalKind::Join: {
      auto& j = op.as<LogicalJoin>();
      bool equi = false;
      for (auto& c : j.conditions) equi |= c->kind == ExprKind::Call && c->op == ScalarOp::Eq;
      switch (j.type) {
        case LogicalJoinType::Semi:
        case LogicalJoinType::Anti:
        case LogicalJoinType::NullAwareAnti: rows = in[0] * 0.5; break;
        default: {
          double inner = j.conditions.empty() ? in[0] * in[1] : equi ? std::max(in[0], in[1]) : in[0] * in[1] * 0.3;
          if (j.type == LogicalJoinType::Left) inner = std::max(inner, in[0]);
          if (j.type == LogicalJoinType::Right) inner = std::max(inner, in[1]);
          if (j.type == LogicalJoinType::Full) inner = std::max(inner, in[0] + in[1]);
          rows = inner;
        }
      }
      break;
    }
    case LogicalKind::Aggregate: {
      auto& a = op.as<LogicalAggregate>();
      rows = a.groups.empty() ? 1 : std::max(1.0, in[0] * 0.1);
      break;
    }
    case LogicalKind::Limit: {
      auto& l = op.as<LogicalLimit>();
      rows = std::max(0.0, in[0] - static_cast<double>(l.offset));
      if (l.limit >= 0) rows = std::min(rows, static_cast<double>(l.limit));
      break;
    }
    case LogicalKind::UnionAll:
      rows = 0;
      for (double r : in) rows += r;
      break;
    case LogicalKind::Values: rows = static_cast<double>(op.as<LogicalValues>().rows.size()); break;
    case LogicalKind::CteRef: rows = cte_rows_ ? cte_rows_(op.as<LogicalCteRef>().cte_index) : 1000; break;
  }
  op.estimated_rows = std::max(0.0, std::round(rows));
  return op.estimated_rows;
}

}  // namespace hindsight
