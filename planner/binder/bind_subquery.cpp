// Subqueries are decorrelated while binding: EXISTS / IN conjuncts become semi and anti joins,
// scalar subqueries become left joins (uncorrelated: with a one-row input; correlated: with an
// aggregate grouped by the correlation columns).
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "planner/binder/binder.hpp"
#include "planner/binder/type_coercion.hpp"
#include "planner/common/error.hpp"
#include "planner/logical/plan_utils.hpp"

namespace hindsight {

namespace {

void split_ast_conjuncts(const sql::Expr& e, std::vector<const sql::Expr*>& out) {
  if (e.is<sql::BinaryExpr>() && e.as<sql::BinaryExpr>().op == sql::BinaryOp::And) {
    split_ast_conjuncts(*e.as<sql::BinaryExpr>().left, out);
    split_ast_conjuncts(*e.as<sql::BinaryExpr>().right, out);
    return;
  }
  out.push_back(&e);
}

std::set<ColumnId> scope_ids(const Scope& s) {
  std::set<ColumnId> ids;
  for (auto& c : s.columns) ids.insert(c.id);
  return ids;
}

bool references_any(const Expr& e, const std::set<ColumnId>& ids) {
  std::vector<ColumnId> cols;
  e.collect_columns(cols);
  for (ColumnId c : cols)
    if (ids.count(c)) return true;
  return false;
}

void collect_plan_columns(const LogicalOperator& op, std::vector<ColumnId>& out) {
  switch (op.kind) {
    case LogicalKind::Get:
      for (auto& f : op.as<LogicalGet>().filters) f->collect_columns(out);
      break;
    case LogicalKind::Filter:
      for (auto& f : op.as<LogicalFilter>().conjuncts) f->collect_columns(out);
      break;
    case LogicalKind::Project:
      for (auto& f : op.as<LogicalProject>().exprs) f->collect_columns(out);
      break;
    case LogicalKind::Join:
      for (auto& f : op.as<LogicalJoin>().conditions) f->collect_columns(out);
      break;
    case LogicalKind::Aggregate:
      for (auto& a : op.as<LogicalAggregate>().aggs)
        if (a.arg != kInvalidColumn) out.push_back(a.arg);
      break;
    default: break;
  }
  for (auto& c : op.children) collect_plan_columns(*c, out);
}

/// Makes the columns `ids` (produced somewhere below) visible in `op`'s outputs, by passing them
/// through projections; the correlation conditions of a semi/anti join read them.
void expose_columns(LogicalOperator& op, const std::set<ColumnId>& ids) {
  std::set<ColumnId> missing;
  for (ColumnId id : ids)
    if (std::find(op.outputs.begin(), op.outputs.end(), id) == op.outputs.end()) missing.insert(id);
  if (missing.empty()) return;
  switch (op.kind) {
    case LogicalKind::Project: {
      expose_columns(*op.children[0], missing);
      auto& p = op.as<LogicalProject>();
      for (ColumnId id : missing) {
        const auto& below = op.children[0]->outputs;
        if (std::find(below.begin(), below.end(), id) == below.end()) continue;
        p.exprs.push_back(Expr::column(id, DataType::null()));
        p.outputs.push_back(id);
      }
      break;
    }
    case LogicalKind::Filter:
    case LogicalKind::Sort:
    case LogicalKind::Limit:
    case LogicalKind::Join:
      for (auto& c : op.children) expose_columns(*c, missing);
      refresh_outputs(op);
      break;
    default: break;
  }
}

bool is_subquery_predicate(const sql::Expr& e) {
  if (e.is<sql::ExistsExpr>() || e.is<sql::InSubqueryExpr>()) return true;
  if (e.is<sql::UnaryExpr>() && e.as<sql::UnaryExpr>().op == sql::UnaryOp::Not)
    return is_subquery_predicate(*e.as<sql::UnaryExpr>().operand);
  return false;
}

}  // namespace

void Binder::bind_where(const sql::Expr& where, LogicalPtr& plan, const Scope& scope, std::vector<ExprPtr>* siphon,
                        const Scope* outer) {
  std::vector<const sql::Expr*> terms;
  split_ast_conjuncts(where, terms);
  std::set<ColumnId> outer_ids;
  if (siphon && outer) outer_ids = scope_ids(*outer);
  ExprContext ec;
  ec.scope = &scope;
  ec.plan = &plan;
  ec.clause = "WHERE";
  std::vector<ExprPtr> conjuncts;
  std::vector<const sql::Expr*> subquery_terms;
  for (const sql::Expr* t : terms) {
    if (is_subquery_predicate(*t)) {
      subquery_terms.push_back(t);
      continue;
    }
    if (contains_aggregate(*t)) fail(ErrorCode::BIND_ERROR, *t, "aggregate functions are not allowed in WHERE");
    ExprPtr e = bind_expr(*t, ec);
    if (e->type.id != TypeId::Boolean && e->type.id != TypeId::Null)
      fail(ErrorCode::TYPE_ERROR, *t, "WHERE condition must be BOOLEAN, not " + e->type.to_string());
    std::vector<ExprPtr> parts;
    split_conjuncts(std::move(e), parts);
    for (auto& p : parts) {
      if (siphon && references_any(*p, outer_ids)) siphon->push_back(std::move(p));
      else conjuncts.push_back(std::move(p));
    }
  }
  if (!conjuncts.empty()) {
    auto f = make<LogicalFilter>();
    f->conjuncts = std::move(conjuncts);
    f->outputs = plan->outputs;
    f->children.push_back(std::move(plan));
    link(where, *f);
    plan = std::move(f);
  }
  for (const sql::Expr* t : subquery_terms) {
    bool negate = false;
    while (t->is<sql::UnaryExpr>()) {
      negate = !negate;
      t = t->as<sql::UnaryExpr>().operand.get();
    }
    bind_subquery_conjunct(*t, negate, plan, scope);
  }
}

BoundQuery Binder::bind_correlated(const sql::Query& q, const Scope& outer, std::vector<ExprPtr>& correlated) {
  correlation_sinks_.push_back(&correlated);
  correlation_outer_.push_back(&outer);
  correlation_claimed_.push_back(false);
  BoundQuery bq = bind_query(q, &outer);
  correlation_sinks_.pop_back();
  correlation_outer_.pop_back();
  correlation_claimed_.pop_back();
  // Outer references anywhere but in the siphoned WHERE conjuncts would need a dependent join.
  std::vector<ColumnId> used;
  collect_plan_columns(*bq.plan, used);
  std::set<ColumnId> ids;
  for (const Scope* s = &outer; s; s = s->outer)
    for (auto& c : s->columns) ids.insert(c.id);
  for (ColumnId c : used)
    if (ids.count(c))
      fail(ErrorCode::NOT_SUPPORTED, q,
           fmt::format("correlated reference to '{}' outside the subquery's WHERE clause", ctx_.column(c).name));
  std::set<ColumnId> own = scope_ids(outer);
  for (auto& c : correlated) {
    std::vector<ColumnId> cols;
    c->collect_columns(cols);
    for (ColumnId id : cols)
      if (ids.count(id) && !own.count(id))
        fail(ErrorCode::NOT_SUPPORTED, q, "a subquery correlated with a query more than one level out");
  }
  return bq;
}

void Binder::expose_correlated(BoundQuery& sub, const std::vector<ExprPtr>& corr, const Scope& outer, const sql::AstNode& at) {
  std::set<ColumnId> outer_ids = scope_ids(outer), inner;
  for (auto& c : corr)
    for (ColumnId id : columns_of(*c))
      if (!outer_ids.count(id)) inner.insert(id);
  expose_columns(*sub.plan, inner);
  // Pass-through references need the column's type.
  std::function<void(LogicalOperator&)> fix = [&](LogicalOperator& op) {
    if (op.kind == LogicalKind::Project)
      for (auto& e : op.as<LogicalProject>().exprs)
        if (e->kind == ExprKind::ColumnRef && e->type.id == TypeId::Null) e->type = ctx_.column(e->column_id).type;
    for (auto& ch : op.children) fix(*ch);
  };
  fix(*sub.plan);
  for (ColumnId id : inner)
    if (std::find(sub.plan->outputs.begin(), sub.plan->outputs.end(), id) == sub.plan->outputs.end())
      fail(ErrorCode::NOT_SUPPORTED, at,
           fmt::format("correlated column '{}' is not visible at the top of the subquery (aggregated or unioned away)",
                       ctx_.column(id).name));
}

void Binder::bind_subquery_conjunct(const sql::Expr& e, bool negate, LogicalPtr& plan, const Scope& scope) {
  std::vector<ExprPtr> corr;
  auto join = make<LogicalJoin>();
  const sql::Query* q;
  if (e.is<sql::ExistsExpr>()) {
    const auto& ex = e.as<sql::ExistsExpr>();
    q = ex.query.get();
    bool neg = negate != ex.negated;
    BoundQuery sub = bind_correlated(*q, scope, corr);
    expose_correlated(sub, corr, scope, *q);
    join->type = neg ? LogicalJoinType::Anti : LogicalJoinType::Semi;
    join->conditions = std::move(corr);
    join->children.push_back(std::move(plan));
    join->children.push_back(std::move(sub.plan));
  } else {
    const auto& in = e.as<sql::InSubqueryExpr>();
    q = in.query.get();
    bool neg = negate != in.negated;
    ExprContext ec;
    ec.scope = &scope;
    ec.clause = "IN operand";
    ExprPtr x = bind_expr(*in.operand, ec);
    BoundQuery sub = bind_correlated(*q, scope, corr);
    if (sub.outputs.size() != 1)
      fail(ErrorCode::BIND_ERROR, *q, fmt::format("subquery of IN returns {} columns, expected 1", sub.outputs.size()));
    if (neg && !corr.empty()) fail(ErrorCode::NOT_SUPPORTED, e, "NOT IN with a correlated subquery");
    expose_correlated(sub, corr, scope, *q);
    const ColumnInfo& col = ctx_.column(sub.outputs[0]);
    join->conditions.push_back(bind_comparison(ScalarOp::Eq, std::move(x), Expr::column(sub.outputs[0], col.type), e));
    for (auto& c : corr) join->conditions.push_back(std::move(c));
    join->type = neg ? LogicalJoinType::NullAwareAnti : LogicalJoinType::Semi;
    join->children.push_back(std::move(plan));
    join->children.push_back(std::move(sub.plan));
  }
  join->outputs = join->children[0]->outputs;
  link(e, *join);
  plan = std::move(join);
}

namespace {
/// The inner side of a correlation `inner = outer` that can become a grouping key: a column, or an INTEGER
/// column that the comparison widened to BIGINT (lossless, so grouping by the column groups alike).
const Expr* inner_key_column(const Expr& e) {
  if (e.kind == ExprKind::ColumnRef) return &e;
  if (e.kind == ExprKind::Cast && e.type.id == TypeId::BigInt && e.children[0]->kind == ExprKind::ColumnRef &&
      e.children[0]->type.id == TypeId::Integer)
    return e.children[0].get();
  return nullptr;
}

/// Walks Project/Filter/Limit nodes down to the first Aggregate; nullptr if there is none on that path.
LogicalAggregate* find_global_aggregate(LogicalOperator& op, std::vector<LogicalOperator*>& path) {
  LogicalOperator* cur = &op;
  while (cur->kind == LogicalKind::Project || cur->kind == LogicalKind::Filter) {
    path.push_back(cur);
    cur = cur->children[0].get();
  }
  if (cur->kind != LogicalKind::Aggregate) return nullptr;
  auto& agg = cur->as<LogicalAggregate>();
  return agg.groups.empty() ? &agg : nullptr;
}
}  // namespace

ExprPtr Binder::bind_scalar_subquery(const sql::SubqueryExpr& sq, ExprContext& ec) {
  if (!ec.plan) fail(ErrorCode::NOT_SUPPORTED, sq, fmt::format("subquery in the {}", ec.clause));
  std::vector<ExprPtr> corr;
  BoundQuery sub = bind_correlated(*sq.query, *ec.scope, corr);
  if (sub.outputs.size() != 1)
    fail(ErrorCode::BIND_ERROR, sq, fmt::format("scalar subquery returns {} columns, expected 1", sub.outputs.size()));
  ColumnId result = sub.outputs[0];
  DataType type = ctx_.column(result).type;
  auto join = make<LogicalJoin>();
  join->type = LogicalJoinType::Left;

  std::vector<LogicalOperator*> path;
  LogicalAggregate* agg = find_global_aggregate(*sub.plan, path);
  bool count_result = false;
  if (corr.empty()) {
    if (!agg)
      fail(ErrorCode::NOT_SUPPORTED, sq,
           "scalar subqueries must be aggregates without GROUP BY (a subquery returning more than one row is not checked yet)");
  } else {
    if (!agg)
      fail(ErrorCode::NOT_SUPPORTED, sq, "a correlated scalar subquery must be an aggregate without GROUP BY");
    // With no matching row the left join yields NULL where the subquery would yield COUNT's 0:
    // a bare COUNT result is mended with COALESCE; COUNT inside a larger expression is not supported.
    for (size_t i = 0; i < agg->aggs.size(); ++i) {
      const auto& a = agg->aggs[i];
      if (a.kind != AggKind::Count && a.kind != AggKind::CountStar) continue;
      ColumnId count_col = agg->outputs[agg->groups.size() + i];
      bool bare = false;
      if (sub.plan->kind == LogicalKind::Project) {
        auto& p = sub.plan->as<LogicalProject>();
        for (size_t k = 0; k < p.outputs.size(); ++k)
          if (p.outputs[k] == result && p.exprs[k]->kind == ExprKind::ColumnRef && p.exprs[k]->column_id == count_col)
            bare = true;
      }
      if (!bare) fail(ErrorCode::NOT_SUPPORTED, sq, "COUNT inside an expression of a correlated scalar subquery");
      count_result = true;
    }
    std::set<ColumnId> outer_ids;
    for (auto& c : ec.scope->columns) outer_ids.insert(c.id);
    // Each correlation must be inner = outer: the inner side becomes a grouping key of the aggregate.
    std::vector<ColumnId> keys;
    for (auto& c : corr) {
      bool ok = c->kind == ExprKind::Call && c->op == ScalarOp::Eq;
      ExprPtr *inner = nullptr, *outer = nullptr;
      if (ok) {
        for (auto* side : {&c->children[0], &c->children[1]}) {
          std::vector<ColumnId> cols;
          (*side)->collect_columns(cols);
          bool all_outer = !cols.empty(), all_inner = !cols.empty();
          for (ColumnId id : cols) (outer_ids.count(id) ? all_inner : all_outer) = false;
          if (all_outer) outer = side;
          else if (all_inner && inner_key_column(**side)) inner = side;
        }
        ok = inner && outer && inner != outer;
      }
      if (!ok)
        fail(ErrorCode::NOT_SUPPORTED, sq,
             "correlated scalar subqueries support only 'inner column = outer expression' correlations");
      // Grouping by the column itself: the comparison below coerces it again as the binder did.
      ColumnId k = inner_key_column(**inner)->column_id;
      if (std::find(agg->groups.begin(), agg->groups.end(), k) == agg->groups.end()) {
        agg->groups.push_back(k);
        keys.push_back(k);
      }
      join->conditions.push_back(bind_comparison(ScalarOp::Eq, std::move(*outer), Expr::column(k, ctx_.column(k).type), sq));
    }
    // The new grouping keys come first in the aggregate's outputs and pass through the nodes above.
    std::vector<ColumnId> new_outputs = agg->groups;
    new_outputs.insert(new_outputs.end(), agg->outputs.begin(), agg->outputs.end());
    agg->outputs = std::move(new_outputs);
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      LogicalOperator* op = *it;
      if (op->kind == LogicalKind::Project) {
        auto& p = op->as<LogicalProject>();
        for (ColumnId k : keys) {
          p.exprs.push_back(Expr::column(k, ctx_.column(k).type));
          p.outputs.push_back(k);
        }
      } else {
        op->outputs = op->children[0]->outputs;
      }
    }
  }
  join->outputs = (*ec.plan)->outputs;
  join->outputs.insert(join->outputs.end(), sub.plan->outputs.begin(), sub.plan->outputs.end());
  join->children.push_back(std::move(*ec.plan));
  join->children.push_back(std::move(sub.plan));
  link(sq, *join);
  *ec.plan = std::move(join);
  if (count_result) {
    std::vector<ExprPtr> args;
    args.push_back(Expr::column(result, type));
    args.push_back(Expr::constant(Value::bigint(0)));
    return Expr::call(ScalarOp::Coalesce, type, std::move(args));
  }
  return Expr::column(result, type);
}

}  // namespace hindsight
