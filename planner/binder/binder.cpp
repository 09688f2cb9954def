#include "planner/binder/binder.hpp"

#include <fmt/format.h>
#include <iterator>

#include "planner/binder/type_coercion.hpp"
#include "planner/common/error.hpp"
#include "planner/common/text.hpp"

namespace hindsight {

Binder::Binder(const Catalog& catalog, PlanContext& ctx, const std::string& sql, bool materialize_ctes)
    : catalog_(catalog), ctx_(ctx), sql_(sql), materialize_ctes_(materialize_ctes) {}

void Binder::fail(ErrorCode code, const sql::AstNode& at, const std::string& message) const {
  throw Error(code, message, SourcePos{"", at.span.line, at.span.col}, caret_excerpt(sql_, at.span.line, at.span.col));
}

ColumnId Binder::new_column(std::string name, DataType t, const ColumnInfo* lineage) {
  ColumnInfo info{std::move(name), t, "", ""};
  if (lineage) {
    info.base_table = lineage->base_table;
    info.base_column = lineage->base_column;
  }
  return ctx_.add_column(std::move(info));
}

BoundQuery Binder::bind_query(const sql::Query& q, const Scope* outer) {
  cte_scopes_.emplace_back();
  for (auto& cte : q.with) {
    if (cte_scopes_.back().count(cte->name))
      fail(ErrorCode::BIND_ERROR, *cte, fmt::format("WITH query name '{}' specified more than once", printable(cte->name)));
    cte_scopes_.back()[cte->name] = Cte{cte.get()};
  }
  BoundQuery bq;
  if (q.body->type == sql::QueryBodyType::Select) {
    bq = bind_select(q.body->as<sql::SelectCore>(), &q, outer);
  } else {
    bq = bind_body(*q.body, outer);
    if (!q.order_by.empty()) bq.plan = order_set_operation(q, bq);
  }
  if (q.limit || q.offset) {
    auto lim = make<LogicalLimit>();
    lim->limit = q.limit ? *q.limit : -1;
    lim->offset = q.offset ? *q.offset : 0;
    lim->outputs = bq.plan->outputs;
    lim->children.push_back(std::move(bq.plan));
    link(q, *lim);
    bq.plan = std::move(lim);
  }
  cte_scopes_.pop_back();
  return bq;
}

BoundQuery Binder::bind_body(const sql::QueryBody& body, const Scope* outer) {
  switch (body.type) {
    case sql::QueryBodyType::Select: return bind_select(body.as<sql::SelectCore>(), nullptr, outer);
    case sql::QueryBodyType::Nested: return bind_query(*body.as<sql::NestedQuery>().query, outer);
    case sql::QueryBodyType::SetOp: break;
  }
  const auto& so = body.as<sql::SetOperation>();
  BoundQuery l = bind_body(*so.left, outer);
  BoundQuery r = bind_body(*so.right, outer);
  if (l.outputs.size() != r.outputs.size())
    fail(ErrorCode::BIND_ERROR, so,
         fmt::format("each UNION query must have the same number of columns ({} vs {})", l.outputs.size(),
                     r.outputs.size()));
  auto u = make<LogicalUnionAll>();
  // Each side is projected onto the common column types, then unioned positionally.
  std::vector<DataType> types;
  for (size_t i = 0; i < l.outputs.size(); ++i) {
    auto t = unify(ctx_.column(l.outputs[i]).type, ctx_.column(r.outputs[i]).type, so, fmt::format("UNION column {}", i + 1));
    types.push_back(t);
  }
  for (BoundQuery* side : {&l, &r}) {
    bool need_cast = false;
    for (size_t i = 0; i < types.size(); ++i) need_cast |= ctx_.column(side->outputs[i]).type != types[i];
    if (need_cast) {
      auto p = make<LogicalProject>();
      for (size_t i = 0; i < types.size(); ++i) {
        const ColumnInfo& src = ctx_.column(side->outputs[i]);
        p->exprs.push_back(coerce(Expr::column(side->outputs[i], src.type), types[i]));
        p->outputs.push_back(new_column(src.name, types[i]));
      }
      p->children.push_back(std::move(side->plan));
      side->outputs = p->outputs;
      side->plan = std::move(p);
    }
  }
  BoundQuery out;
  out.names = l.names;
  for (size_t i = 0; i < types.size(); ++i) u->outputs.push_back(new_column(l.names[i], types[i]));
  u->children.push_back(std::move(l.plan));
  u->children.push_back(std::move(r.plan));
  link(so, *u);
  out.outputs = u->outputs;
  out.plan = std::move(u);
  if (!so.all) {
    auto d = make<LogicalAggregate>();
    d->groups = out.outputs;
    d->outputs = out.outputs;
    d->children.push_back(std::move(out.plan));
    out.plan = std::move(d);
  }
  return out;
}

LogicalPtr Binder::order_set_operation(const sql::Query& q, BoundQuery& bq) {
  // ORDER BY over a set operation: output ordinals or output names only.
  auto sort = make<LogicalSort>();
  for (auto& item : q.order_by) {
    int idx = -1;
    if (item->expr->is<sql::IntegerLiteral>()) {
      int64_t v = item->expr->as<sql::IntegerLiteral>().value;
      if (v < 1 || v > static_cast<int64_t>(bq.outputs.size()))
        fail(ErrorCode::BIND_ERROR, *item->expr, fmt::format("ORDER BY position {} is not in select list", v));
      idx = static_cast<int>(v - 1);
    } else if (item->expr->is<sql::ColumnRefExpr>() && item->expr->as<sql::ColumnRefExpr>().qualifier.empty()) {
      const auto& name = item->expr->as<sql::ColumnRefExpr>().name;
      for (size_t i = 0; i < bq.names.size(); ++i)
        if (bq.names[i] == name) idx = static_cast<int>(i);
    }
    if (idx < 0)
      fail(ErrorCode::BIND_ERROR, *item->expr, "ORDER BY of a UNION must name an output column or position");
    SortKeyRef k{bq.outputs[idx], !item->descending, false};
    k.nulls_first = item->nulls == sql::NullsOrder::Default ? item->descending : item->nulls == sql::NullsOrder::First;
    sort->keys.push_back(k);
  }
  sort->outputs = bq.plan->outputs;
  sort->children.push_back(std::move(bq.plan));
  return sort;
}

LogicalPtr Binder::bind_from(const sql::TableRef& ref, Scope& scope, const Scope* outer) {
  switch (ref.type) {
    case sql::TableRefType::BaseTable: return bind_table(ref.as<sql::BaseTableRef>(), scope, outer);
    case sql::TableRefType::Derived: {
      const auto& d = ref.as<sql::DerivedTableRef>();
      // A derived table sees no columns of its FROM siblings (no LATERAL), but may correlate outward.
      BoundQuery bq = bind_query(*d.query, outer);
      if (!d.column_aliases.empty() && d.column_aliases.size() != bq.outputs.size())
        fail(ErrorCode::BIND_ERROR, d, fmt::format("derived table '{}' has {} columns but {} aliases", d.alias,
                                                   bq.outputs.size(), d.column_aliases.size()));
      for (size_t i = 0; i < bq.outputs.size(); ++i) {
        std::string name = d.column_aliases.empty() ? bq.names[i] : d.column_aliases[i];
        scope.columns.push_back({d.alias, name, bq.outputs[i], ctx_.column(bq.outputs[i]).type});
      }
      return std::move(bq.plan);
    }
    case sql::TableRefType::Join: break;
  }
  const auto& j = ref.as<sql::JoinRef>();
  Scope both;
  both.outer = outer;
  LogicalPtr left = bind_from(*j.left, both, outer);
  LogicalPtr right = bind_from(*j.right, both, outer);
  auto join = make<LogicalJoin>();
  switch (j.join_type) {
    case sql::JoinType::Inner:
    case sql::JoinType::Cross: join->type = LogicalJoinType::Inner; break;
    case sql::JoinType::Left: join->type = LogicalJoinType::Left; break;
    case sql::JoinType::Right: join->type = LogicalJoinType::Right; break;
    case sql::JoinType::Full: join->type = LogicalJoinType::Full; break;
  }
  if (j.condition) {
    if (contains_subquery(*j.condition)) fail(ErrorCode::NOT_SUPPORTED, *j.condition, "subquery in a JOIN condition");
    ExprContext ec;
    ec.scope = &both;
    ec.clause = "JOIN condition";
    ExprPtr cond = bind_expr(*j.condition, ec);
    if (cond->type.id != TypeId::Boolean && cond->type.id != TypeId::Null)
      fail(ErrorCode::TYPE_ERROR, *j.condition, "JOIN condition must be BOOLEAN, not " + cond->type.to_string());
    split_conjuncts(std::move(cond), join->conditions);
  }
  join->outputs = left->outputs;
  join->outputs.insert(join->outputs.end(), right->outputs.begin(), right->outputs.end());
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  link(j, *join);
  scope.columns.insert(scope.columns.end(), both.columns.begin(), both.columns.end());
  return join;
}

BoundQuery Binder::bind_cte_body(const sql::CommonTableExpr& def,
                                  std::vector<std::map<std::string, Cte>>::reverse_iterator level_it,
                                  const Scope* outer) {
  // The body sees only the CTEs defined before it, at its own level and outside.
  size_t level = cte_scopes_.size() - 1 - static_cast<size_t>(std::distance(cte_scopes_.rbegin(), level_it));
  auto saved = cte_scopes_;
  cte_scopes_.resize(level + 1);
  std::map<std::string, Cte> visible;
  for (auto& [n, c] : cte_scopes_.back())
    if (c.def->id < def.id) visible[n] = c;
  cte_scopes_.back() = std::move(visible);
  BoundQuery bq = bind_query(*def.query, outer);
  cte_scopes_ = std::move(saved);
  if (!def.column_aliases.empty() && def.column_aliases.size() != bq.outputs.size())
    fail(ErrorCode::BIND_ERROR, def, fmt::format("WITH query '{}' has {} columns but {} aliases", def.name,
                                                 bq.outputs.size(), def.column_aliases.size()));
  return bq;
}

LogicalPtr Binder::bind_materialized_cte(const sql::BaseTableRef& ref, const sql::CommonTableExpr& def,
                                         std::vector<std::map<std::string, Cte>>::reverse_iterator level_it,
                                         Scope& scope, const std::string& qualifier) {
  auto found = materialized_index_.find(&def);
  int index;
  if (found != materialized_index_.end()) {
    index = found->second;
  } else {
    // Planned once, uncorrelated.
    BoundQuery bq = bind_cte_body(def, level_it, nullptr);
    MaterializedCte m;
    m.name = def.name;
    m.outputs = bq.outputs;
    m.names = def.column_aliases.empty() ? bq.names : def.column_aliases;
    m.plan = std::move(bq.plan);
    index = static_cast<int>(materialized_.size());
    materialized_.push_back(std::move(m));
    materialized_index_[&def] = index;
  }
  const MaterializedCte& m = materialized_[static_cast<size_t>(index)];
  auto r = make<LogicalCteRef>();
  r->cte_index = index;
  r->cte_name = m.name;
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    // A copy: adding a column may move the context's column records.
    ColumnInfo copy = ctx_.column(m.outputs[i]);
    copy.name = m.names[i];
    const DataType type = copy.type;
    ColumnId id = ctx_.add_column(std::move(copy));
    r->outputs.push_back(id);
    r->producer_columns.push_back(m.outputs[i]);
    scope.columns.push_back({qualifier, m.names[i], id, type});
  }
  link(ref, *r);
  return r;
}

LogicalPtr Binder::bind_table(const sql::BaseTableRef& ref, Scope& scope, const Scope* outer) {
  std::string qualifier = ref.alias.empty() ? ref.name : ref.alias;
  // CTEs shadow tables; the innermost WITH wins.
  for (auto it = cte_scopes_.rbegin(); it != cte_scopes_.rend(); ++it) {
    auto found = it->find(ref.name);
    if (found == it->end()) continue;
    const sql::CommonTableExpr* def = found->second.def;
    if (materialize_ctes_) return bind_materialized_cte(ref, *def, it, scope, qualifier);
    // Inline: every reference binds the body afresh (its own column ids).
    BoundQuery bq = bind_cte_body(*def, it, outer);
    for (size_t i = 0; i < bq.outputs.size(); ++i) {
      std::string name = def->column_aliases.empty() ? bq.names[i] : def->column_aliases[i];
      scope.columns.push_back({qualifier, name, bq.outputs[i], ctx_.column(bq.outputs[i]).type});
    }
    link(ref, *bq.plan);
    return std::move(bq.plan);
  }
  const TableDef* def = catalog_.find(ref.name);
  if (!def) fail(ErrorCode::BIND_ERROR, ref, fmt::format("table '{}' does not exist", printable(ref.name)));
  auto get = make<LogicalGet>();
  get->table = *def;
  get->alias = qualifier;
  for (size_t i = 0; i < def->columns.size(); ++i) {
    const ColumnDef& c = def->columns[i];
    ColumnId id = ctx_.add_column(ColumnInfo{c.name, c.type, def->name, c.name});
    get->columns.push_back(static_cast<int>(i));
    get->outputs.push_back(id);
    scope.columns.push_back({qualifier, c.name, id, c.type});
  }
  link(ref, *get);
  return get;
}

}  // namespace hindsight

namespace hindsight {
DataType Binder::unify(DataType a, DataType b, const sql::AstNode& at, const std::string& what) const {
  auto t = common_type(a, b);
  if (!t) fail(ErrorCode::TYPE_ERROR, at, fmt::format("{}: types {} and {} cannot be matched", what, a.to_string(), b.to_string()));
  return *t;
}
}  // namespace hindsight
