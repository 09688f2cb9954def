// for_each_node(): a pre-order walk over every AST node kind.
#include "planner/common/stack_guard.hpp"
#include "planner/sql/ast.hpp"

namespace hindsight::sql {

namespace {

using Visit = std::function<void(const AstNode&)>;

void walk(const Query& q, const Visit& fn);
void walk(const Expr& e, const Visit& fn);

void walk_all(const std::vector<ExprPtr>& list, const Visit& fn) {
  for (const ExprPtr& e : list) walk(*e, fn);
}

void walk(const Expr& e, const Visit& fn) {
  check_stack_depth("walking the syntax tree");
  fn(e);
  switch (e.type) {
    case ExprType::Unary: walk(*e.as<UnaryExpr>().operand, fn); return;
    case ExprType::Binary:
      walk(*e.as<BinaryExpr>().left, fn);
      walk(*e.as<BinaryExpr>().right, fn);
      return;
    case ExprType::Between: {
      const auto& b = e.as<BetweenExpr>();
      walk(*b.operand, fn);
      walk(*b.low, fn);
      walk(*b.high, fn);
      return;
    }
    case ExprType::InList:
      walk(*e.as<InListExpr>().operand, fn);
      walk_all(e.as<InListExpr>().list, fn);
      return;
    case ExprType::InSubquery:
      walk(*e.as<InSubqueryExpr>().operand, fn);
      walk(*e.as<InSubqueryExpr>().query, fn);
      return;
    case ExprType::Exists: walk(*e.as<ExistsExpr>().query, fn); return;
    case ExprType::Subquery: walk(*e.as<SubqueryExpr>().query, fn); return;
    case ExprType::Like:
      walk(*e.as<LikeExpr>().operand, fn);
      walk(*e.as<LikeExpr>().pattern, fn);
      return;
    case ExprType::IsNull: walk(*e.as<IsNullExpr>().operand, fn); return;
    case ExprType::Case: {
      const auto& c = e.as<CaseExpr>();
      if (c.operand) walk(*c.operand, fn);
      for (const auto& w : c.whens) {
        fn(*w);
        walk(*w->when, fn);
        walk(*w->then, fn);
      }
      if (c.else_expr) walk(*c.else_expr, fn);
      return;
    }
    case ExprType::Cast: walk(*e.as<CastExpr>().operand, fn); return;
    case ExprType::FunctionCall: walk_all(e.as<FunctionCallExpr>().args, fn); return;
    case ExprType::Extract: walk(*e.as<ExtractExpr>().operand, fn); return;
    default: return;  // literals and column references have no children
  }
}

void walk(const TableRef& t, const Visit& fn) {
  fn(t);
  if (t.is<DerivedTableRef>()) {
    walk(*t.as<DerivedTableRef>().query, fn);
  } else if (t.is<JoinRef>()) {
    const auto& j = t.as<JoinRef>();
    walk(*j.left, fn);
    walk(*j.right, fn);
    if (j.condition) walk(*j.condition, fn);
  }
}

void walk(const QueryBody& b, const Visit& fn) {
  fn(b);
  switch (b.type) {
    case QueryBodyType::Select: {
      const auto& s = b.as<SelectCore>();
      for (const auto& item : s.select_list) {
        fn(*item);
        if (item->expr) walk(*item->expr, fn);
      }
      for (const auto& t : s.from) walk(*t, fn);
      if (s.where) walk(*s.where, fn);
      walk_all(s.group_by, fn);
      if (s.having) walk(*s.having, fn);
      return;
    }
    case QueryBodyType::SetOp:
      walk(*b.as<SetOperation>().left, fn);
      walk(*b.as<SetOperation>().right, fn);
      return;
    case QueryBodyType::Nested: walk(*b.as<NestedQuery>().query, fn); return;
  }
}

void walk(const Query& q, const Visit& fn) {
  fn(q);
  for (const auto& cte : q.with) {
    fn(*cte);
    walk(*cte->query, fn);
  }
  walk(*q.body, fn);
  for (const auto& item : q.order_by) {
    fn(*item);
    walk(*item->expr, fn);
  }
}

}  // namespace

void for_each_node(const Statement& stmt, const Visit& fn) {
  fn(stmt);
  switch (stmt.type) {
    case StatementType::Select: walk(*stmt.as<SelectStatement>().query, fn); return;
    case StatementType::Explain: walk(*stmt.as<ExplainStatement>().query, fn); return;
    case StatementType::Set: return;
    case StatementType::Analyze: return;
  }
}

void for_each_node(const Query& query, const Visit& fn) { walk(query, fn); }

void for_each_node(const Expr& expr, const Visit& fn) { walk(expr, fn); }

}  // namespace hindsight::sql
