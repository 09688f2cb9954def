#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "planner/binder/binder.hpp"
#include "planner/binder/type_coercion.hpp"
#include "planner/common/error.hpp"
#include "planner/common/text.hpp"

namespace hindsight {

namespace {

bool is_aggregate_name(const std::string& n) {
  return n == "count" || n == "sum" || n == "avg" || n == "min" || n == "max";
}

template <class Fn>
void for_each_child(const sql::Expr& e, Fn&& fn) {
  using T = sql::ExprType;
  switch (e.type) {
    case T::Unary: fn(*e.as<sql::UnaryExpr>().operand); break;
    case T::Binary:
      fn(*e.as<sql::BinaryExpr>().left);
      fn(*e.as<sql::BinaryExpr>().right);
      break;
    case T::Between: {
      auto& b = e.as<sql::BetweenExpr>();
      fn(*b.operand);
      fn(*b.low);
      fn(*b.high);
      break;
    }
    case T::InList: {
      auto& in = e.as<sql::InListExpr>();
      fn(*in.operand);
      for (auto& x : in.list) fn(*x);
      break;
    }
    case T::InSubquery: fn(*e.as<sql::InSubqueryExpr>().operand); break;
    case T::Like:
      fn(*e.as<sql::LikeExpr>().operand);
      fn(*e.as<sql::LikeExpr>().pattern);
      break;
    case T::IsNull: fn(*e.as<sql::IsNullExpr>().operand); break;
    case T::Case: {
      auto& c = e.as<sql::CaseExpr>();
      if (c.operand) fn(*c.operand);
      for (auto& w : c.whens) {
        fn(*w->when);
        fn(*w->then);
      }
      if (c.else_expr) fn(*c.else_expr);
      break;
    }
    case T::Cast: fn(*e.as<sql::CastExpr>().operand); break;
    case T::FunctionCall:
      for (auto& a : e.as<sql::FunctionCallExpr>().args) fn(*a);
      break;
    case T::Extract: fn(*e.as<sql::ExtractExpr>().operand); break;
    default: break;
  }
}

void collect_aggregates(const sql::Expr& e, std::vector<const sql::FunctionCallExpr*>& out) {
  if (e.is<sql::FunctionCallExpr>() && is_aggregate_name(e.as<sql::FunctionCallExpr>().name)) {
    out.push_back(&e.as<sql::FunctionCallExpr>());
    return;
  }
  for_each_child(e, [&](const sql::Expr& c) { collect_aggregates(c, out); });
}

}  // namespace

bool contains_aggregate(const sql::Expr& e) {
  std::vector<const sql::FunctionCallExpr*> found;
  collect_aggregates(e, found);
  return !found.empty();
}

bool contains_subquery(const sql::Expr& e) {
  if (e.is<sql::SubqueryExpr>() || e.is<sql::ExistsExpr>() || e.is<sql::InSubqueryExpr>()) return true;
  bool any = false;
  for_each_child(e, [&](const sql::Expr& c) { any = any || contains_subquery(c); });
  return any;
}

AggKind Binder::aggregate_kind(const sql::FunctionCallExpr& f) const {
  if (f.name == "count") return f.star ? AggKind::CountStar : AggKind::Count;
  if (f.name == "sum") return AggKind::Sum;
  if (f.name == "avg") return AggKind::Avg;
  if (f.name == "min") return AggKind::Min;
  return AggKind::Max;
}

BoundQuery Binder::bind_select(const sql::SelectCore& core, const sql::Query* order_owner, const Scope* outer) {
  // A correlated subquery's own select core hands its outer-referencing WHERE conjuncts to the caller.
  std::vector<ExprPtr>* siphon = nullptr;
  if (!correlation_outer_.empty() && correlation_outer_.back() == outer && !correlation_claimed_.back()) {
    correlation_claimed_.back() = true;
    siphon = correlation_sinks_.back();
  }

  Scope scope;
  scope.outer = outer;
  LogicalPtr plan;
  if (core.from.empty()) {
    auto v = make<LogicalValues>();
    v->rows.emplace_back();
    plan = std::move(v);
  }
  for (auto& ref : core.from) {
    LogicalPtr p = bind_from(*ref, scope, outer);
    if (!plan) {
      plan = std::move(p);
      continue;
    }
    auto j = make<LogicalJoin>();
    j->type = LogicalJoinType::Inner;
    j->outputs = plan->outputs;
    j->outputs.insert(j->outputs.end(), p->outputs.begin(), p->outputs.end());
    j->children.push_back(std::move(plan));
    j->children.push_back(std::move(p));
    plan = std::move(j);
  }
  if (core.where) bind_where(*core.where, plan, scope, siphon, outer);

  bool has_agg = !core.group_by.empty() || core.having != nullptr;
  for (auto& item : core.select_list)
    if (item->expr && contains_aggregate(*item->expr)) has_agg = true;
  if (order_owner)
    for (auto& o : order_owner->order_by)
      if (contains_aggregate(*o->expr)) has_agg = true;

  ExprContext ec;
  ec.scope = &scope;
  ec.plan = &plan;
  ec.clause = "SELECT list";

  // ---- GROUP BY / aggregates ----
  std::vector<ExprPtr> group_exprs;
  std::vector<ColumnId> group_cols;
  struct AggEntry {
    AggKind kind;
    ExprPtr arg;
    bool distinct;
    ColumnId out;
    DataType type;
  };
  std::vector<AggEntry> aggs;
  ExprContext plain;
  plain.scope = &scope;
  // Aggregate arguments bind against the FROM scope; the post-aggregation intercept re-binds them.
  ExprContext argctx;
  argctx.scope = &scope;
  argctx.clause = "aggregate argument";

  auto find_select_alias = [&](const std::string& name) -> const sql::Expr* {
    for (auto& item : core.select_list)
      if (item->type == sql::SelectItemType::Expr && item->alias == name) return item->expr.get();
    return nullptr;
  };
  auto resolvable = [&](const std::string& name) {
    for (auto& c : scope.columns)
      if (c.name == name) return true;
    return false;
  };

  if (has_agg) {
    plain.clause = "GROUP BY";
    for (auto& g : core.group_by) {
      const sql::Expr* src = g.get();
      if (g->is<sql::IntegerLiteral>()) {
        int64_t v = g->as<sql::IntegerLiteral>().value;
        if (v < 1 || v > static_cast<int64_t>(core.select_list.size()) ||
            core.select_list[v - 1]->type != sql::SelectItemType::Expr)
          fail(ErrorCode::BIND_ERROR, *g, fmt::format("GROUP BY position {} is not in select list", v));
        src = core.select_list[v - 1]->expr.get();
      } else if (g->is<sql::ColumnRefExpr>() && g->as<sql::ColumnRefExpr>().qualifier.empty() &&
                 !resolvable(g->as<sql::ColumnRefExpr>().name)) {
        if (auto* a = find_select_alias(g->as<sql::ColumnRefExpr>().name)) src = a;
      }
      if (contains_aggregate(*src)) fail(ErrorCode::BIND_ERROR, *g, "aggregate functions are not allowed in GROUP BY");
      if (contains_subquery(*src)) fail(ErrorCode::NOT_SUPPORTED, *g, "subquery in GROUP BY");
      group_exprs.push_back(bind_expr(*src, plain));
    }
    std::vector<const sql::FunctionCallExpr*> calls;
    for (auto& item : core.select_list)
      if (item->expr) collect_aggregates(*item->expr, calls);
    if (core.having) collect_aggregates(*core.having, calls);
    if (order_owner)
      for (auto& o : order_owner->order_by) collect_aggregates(*o->expr, calls);

    auto bind_agg = [&](const sql::FunctionCallExpr& f, AggKind& kind, ExprPtr& arg) {
      kind = aggregate_kind(f);
      if (kind != AggKind::CountStar) {
        if (f.args.size() != 1)
          fail(ErrorCode::BIND_ERROR, f, fmt::format("{}() takes exactly one argument", f.name));
        for (auto& a : f.args)
          if (contains_aggregate(*a)) fail(ErrorCode::BIND_ERROR, *a, "aggregate function calls cannot be nested");
        if (contains_subquery(*f.args[0])) fail(ErrorCode::NOT_SUPPORTED, f, "subquery inside an aggregate");
        arg = bind_expr(*f.args[0], argctx);
      }
    };
    for (auto* f : calls) {
      AggKind kind;
      ExprPtr arg;
      bind_agg(*f, kind, arg);
      bool found = false;
      for (auto& a : aggs)
        if (a.kind == kind && a.distinct == f->distinct && ((!a.arg && !arg) || (a.arg && arg && a.arg->equals(*arg))))
          found = true;
      if (found) continue;
      auto t = aggregate_type(kind, arg ? arg->type : DataType::bigint());
      if (!t) fail(ErrorCode::TYPE_ERROR, *f, fmt::format("{}() is not defined for {}", f->name, arg->type.to_string()));
      ColumnId out = new_column(sql::to_string(*f), *t);
      aggs.push_back({kind, std::move(arg), f->distinct, out, *t});
    }

    // Pre-projection: pass every input column through, compute group keys and aggregate arguments.
    auto pre = make<LogicalProject>();
    for (ColumnId id : plan->outputs) {
      pre->exprs.push_back(Expr::column(id, ctx_.column(id).type));
      pre->outputs.push_back(id);
    }
    auto materialize = [&](ExprPtr& e, const std::string& name) -> ColumnId {
      if (e->kind == ExprKind::ColumnRef) return e->column_id;
      ColumnId id = new_column(name, e->type);
      pre->exprs.push_back(e->clone());
      pre->outputs.push_back(id);
      return id;
    };
    for (size_t i = 0; i < group_exprs.size(); ++i) group_cols.push_back(materialize(group_exprs[i], expr_text(*group_exprs[i], ctx_)));
    auto agg = make<LogicalAggregate>();
    for (auto& a : aggs) {
      ColumnId arg = a.arg ? materialize(a.arg, expr_text(*a.arg, ctx_)) : kInvalidColumn;
      agg->aggs.push_back({a.kind, arg, a.distinct, a.type});
    }
    // Duplicate group keys (GROUP BY a, a) group once.
    for (ColumnId g : group_cols)
      if (std::find(agg->groups.begin(), agg->groups.end(), g) == agg->groups.end()) agg->groups.push_back(g);
    agg->outputs = agg->groups;
    for (auto& a : aggs) agg->outputs.push_back(a.out);
    pre->children.push_back(std::move(plan));
    agg->children.push_back(std::move(pre));
    // Not linked to the select core: the core is its final projection (a different schema).
    plan = std::move(agg);

    ec.intercept = [&, bind_agg](const sql::Expr& e) -> ExprPtr {
      if (e.is<sql::FunctionCallExpr>() && is_aggregate_name(e.as<sql::FunctionCallExpr>().name)) {
        const auto& f = e.as<sql::FunctionCallExpr>();
        AggKind kind;
        ExprPtr arg;
        bind_agg(f, kind, arg);
        for (auto& a : aggs)
          if (a.kind == kind && a.distinct == f.distinct && ((!a.arg && !arg) || (a.arg && arg && a.arg->equals(*arg))))
            return Expr::column(a.out, a.type);
        HS_ASSERT(false, "aggregate not collected");
      }
      if (group_exprs.empty() || contains_aggregate(e) || contains_subquery(e)) return nullptr;
      ExprPtr b;
      try {
        b = bind_expr(e, plain);
      } catch (const Error&) {
        return nullptr;
      }
      for (size_t i = 0; i < group_exprs.size(); ++i)
        if (b->equals(*group_exprs[i])) return Expr::column(group_cols[i], group_exprs[i]->type);
      return nullptr;
    };
    ec.on_column = [&](const sql::ColumnRefExpr& ref, const ScopeColumn& sc) {
      if (std::find(group_cols.begin(), group_cols.end(), sc.id) == group_cols.end())
        fail(ErrorCode::BIND_ERROR, ref,
             fmt::format("column '{}' must appear in the GROUP BY clause or be used in an aggregate function",
                         printable(ref.qualifier.empty() ? ref.name : ref.qualifier + "." + ref.name)));
    };
    if (core.having) {
      ec.clause = "HAVING";
      ExprPtr h = bind_expr(*core.having, ec);
      if (h->type.id != TypeId::Boolean && h->type.id != TypeId::Null)
        fail(ErrorCode::TYPE_ERROR, *core.having, "HAVING must be BOOLEAN, not " + h->type.to_string());
      auto f = make<LogicalFilter>();
      split_conjuncts(std::move(h), f->conjuncts);
      f->outputs = plan->outputs;
      f->children.push_back(std::move(plan));
      plan = std::move(f);
    }
    ec.clause = "SELECT list";
  }

  // ---- SELECT list ----
  std::vector<ExprPtr> select_exprs;
  std::vector<std::string> names;
  for (auto& item : core.select_list) {
    if (item->type == sql::SelectItemType::Expr) {
      select_exprs.push_back(bind_expr(*item->expr, ec));
      if (!item->alias.empty()) names.push_back(item->alias);
      else if (item->expr->is<sql::ColumnRefExpr>()) names.push_back(item->expr->as<sql::ColumnRefExpr>().name);
      else names.push_back(sql::to_string(*item->expr));
      continue;
    }
    bool any = false;
    for (auto& c : scope.columns) {
      if (item->type == sql::SelectItemType::QualifiedStar && c.qualifier != item->qualifier) continue;
      any = true;
      if (ec.on_column) {
        sql::ColumnRefExpr fake;
        fake.span = item->span;
        fake.name = c.name;
        ec.on_column(fake, c);
      }
      select_exprs.push_back(Expr::column(c.id, c.type));
      names.push_back(c.name);
    }
    if (!any)
      fail(ErrorCode::BIND_ERROR, *item,
           item->type == sql::SelectItemType::Star ? "SELECT * with no tables specified"
                                                   : fmt::format("missing FROM-clause entry for table '{}'", printable(item->qualifier)));
  }
  size_t visible = select_exprs.size();

  // ---- ORDER BY (may add hidden columns) ----
  std::vector<std::pair<size_t, const sql::OrderByItem*>> order;
  if (order_owner) {
    ec.clause = "ORDER BY";
    for (auto& o : order_owner->order_by) {
      long idx = -1;
      if (o->expr->is<sql::IntegerLiteral>()) {
        int64_t v = o->expr->as<sql::IntegerLiteral>().value;
        if (v < 1 || v > static_cast<int64_t>(visible))
          fail(ErrorCode::BIND_ERROR, *o->expr, fmt::format("ORDER BY position {} is not in select list", v));
        idx = v - 1;
      } else if (o->expr->is<sql::ColumnRefExpr>() && o->expr->as<sql::ColumnRefExpr>().qualifier.empty()) {
        const auto& n = o->expr->as<sql::ColumnRefExpr>().name;
        for (size_t i = 0; i < visible; ++i)
          if (names[i] == n && (idx < 0 || !resolvable(n))) {
            if (idx >= 0 && !select_exprs[idx]->equals(*select_exprs[i]))
              fail(ErrorCode::BIND_ERROR, *o->expr, fmt::format("ORDER BY '{}' is ambiguous", printable(n)));
            idx = static_cast<long>(i);
          }
      }
      if (idx < 0) {
        ExprPtr e = bind_expr(*o->expr, ec);
        for (size_t i = 0; i < select_exprs.size() && idx < 0; ++i)
          if (select_exprs[i]->equals(*e)) idx = static_cast<long>(i);
        if (idx < 0) {
          if (core.distinct)
            fail(ErrorCode::BIND_ERROR, *o->expr, "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
          select_exprs.push_back(std::move(e));
          names.push_back(sql::to_string(*o->expr));
          idx = static_cast<long>(select_exprs.size() - 1);
        }
      }
      order.emplace_back(static_cast<size_t>(idx), o.get());
    }
  }

  auto proj = make<LogicalProject>();
  for (size_t i = 0; i < select_exprs.size(); ++i) {
    const ColumnInfo* lineage = select_exprs[i]->kind == ExprKind::ColumnRef ? &ctx_.column(select_exprs[i]->column_id) : nullptr;
    ColumnInfo copy = lineage ? *lineage : ColumnInfo{};
    proj->outputs.push_back(new_column(names[i], select_exprs[i]->type, lineage ? &copy : nullptr));
  }
  proj->exprs = std::move(select_exprs);
  proj->children.push_back(std::move(plan));
  link(core, *proj);
  plan = std::move(proj);

  if (core.distinct) {
    auto d = make<LogicalAggregate>();
    d->groups = plan->outputs;
    d->outputs = plan->outputs;
    d->children.push_back(std::move(plan));
    plan = std::move(d);
  }
  if (!order.empty()) {
    auto sort = make<LogicalSort>();
    for (auto& [idx, o] : order) {
      SortKeyRef k{plan->outputs[idx], !o->descending, false};
      k.nulls_first = o->nulls == sql::NullsOrder::Default ? o->descending : o->nulls == sql::NullsOrder::First;
      sort->keys.push_back(k);
    }
    sort->outputs = plan->outputs;
    sort->children.push_back(std::move(plan));
    plan = std::move(sort);
  }
  BoundQuery bq;
  bq.outputs.assign(plan->outputs.begin(), plan->outputs.begin() + static_cast<long>(visible));
  names.resize(visible);
  bq.names = std::move(names);
  if (plan->outputs.size() != visible) {
    auto strip = make<LogicalProject>();
    for (ColumnId id : bq.outputs) {
      strip->exprs.push_back(Expr::column(id, ctx_.column(id).type));
      strip->outputs.push_back(id);
    }
    strip->children.push_back(std::move(plan));
    plan = std::move(strip);
  }
  bq.plan = std::move(plan);
  return bq;
}

}  // namespace hindsight
