// Queries: WITH, set operations, SELECT cores, ORDER BY / LIMIT / OFFSET, and FROM clauses.
#include <fmt/format.h>

#include "planner/sql/parser_internal.hpp"

namespace hindsight::sql {

bool Parser::starts_query(size_t k) const { return check_kw("SELECT", k) || check_kw("WITH", k) || check_sym("(", k); }

size_t Parser::skip_parenthesised(size_t k) const {
  int depth = 0;
  for (size_t i = k;; ++i) {
    const Token& t = peek(i);
    if (t.type == TokenType::End) return i;
    if (t.is_symbol("(")) ++depth;
    if (t.is_symbol(")") && --depth == 0) return i + 1;
  }
}

void Parser::reject_unsupported_set_op() {
  if (check_kw("INTERSECT")) not_supported(peek(), "INTERSECT");
  if (check_kw("EXCEPT")) not_supported(peek(), "EXCEPT");
}

QueryPtr Parser::parse_query() {
  DepthGuard guard(*this);
  auto q = make<Query>(peek());
  if (accept_kw("WITH")) {
    if (check_kw("RECURSIVE")) not_supported(peek(), "WITH RECURSIVE");
    do {
      q->with.push_back(parse_cte());
    } while (accept_sym(","));
  }
  q->body = parse_query_body();
  parse_query_tail(*q);
  finish(*q);
  return q;
}

std::unique_ptr<CommonTableExpr> Parser::parse_cte() {
  auto cte = make<CommonTableExpr>(peek());
  cte->name = expect_identifier("a name for the WITH query");
  if (check_sym("(")) cte->column_aliases = parse_column_alias_list();
  expect_kw("AS");
  if (check_kw("MATERIALIZED") || (check_kw("NOT") && check_kw("MATERIALIZED", 1)))
    not_supported(peek(), "a MATERIALIZED hint");
  expect_sym("(");
  cte->query = parse_query();
  expect_sym(")");
  finish(*cte);
  return cte;
}

void Parser::parse_query_tail(Query& q) {
  if (accept_kw("ORDER")) {
    expect_kw("BY");
    do {
      q.order_by.push_back(parse_order_by_item());
    } while (accept_sym(","));
  }
  bool seen_limit = false, seen_offset = false;
  while (true) {
    if (!seen_limit && accept_kw("LIMIT")) {
      seen_limit = true;
      if (!accept_kw("ALL")) q.limit = expect_unsigned_integer("an integer after LIMIT");
    } else if (!seen_offset && accept_kw("OFFSET")) {
      seen_offset = true;
      q.offset = expect_unsigned_integer("an integer after OFFSET");
      if (!accept_kw("ROWS")) accept_kw("ROW");
    } else {
      break;
    }
  }
  if (check_kw("FETCH")) not_supported(peek(), "FETCH FIRST");
}

std::unique_ptr<OrderByItem> Parser::parse_order_by_item() {
  auto item = make<OrderByItem>(peek());
  item->expr = parse_expr();
  if (accept_kw("DESC")) {
    item->descending = true;
  } else {
    accept_kw("ASC");
  }
  if (accept_kw("NULLS")) {
    if (accept_kw("FIRST")) {
      item->nulls = NullsOrder::First;
    } else if (accept_kw("LAST")) {
      item->nulls = NullsOrder::Last;
    } else {
      fail_unexpected("FIRST or LAST");
    }
  }
  finish(*item);
  return item;
}

QueryBodyPtr Parser::parse_query_body() {
  QueryBodyPtr left = parse_query_body_primary();
  ChainGuard chain(*this, ChainGuard::Kind::Relations);
  while (true) {
    reject_unsupported_set_op();
    if (!check_kw("UNION")) {
      note_expected("UNION");
      break;
    }
    advance();
    chain.step();
    SourceSpan start = left->span;
    bool all = accept_kw("ALL");
    if (!all) accept_kw("DISTINCT");
    auto op = make_at<SetOperation>(start);
    op->all = all;
    op->left = std::move(left);
    op->right = parse_query_body_primary();
    finish(*op);
    left = std::move(op);
  }
  return left;
}

QueryBodyPtr Parser::parse_query_body_primary() {
  DepthGuard guard(*this);
  if (check_kw("SELECT")) return parse_select_core();
  if (check_kw("VALUES")) not_supported(peek(), "VALUES");
  if (!check_sym("(")) fail_unexpected("SELECT or '('");
  const Token& open = advance();
  if (check_kw("WITH")) {
    auto nested = make<NestedQuery>(open);
    nested->query = parse_query();
    expect_sym(")");
    finish(*nested);
    return nested;
  }
  // Only a parenthesised query with its own ORDER BY / LIMIT / OFFSET needs a NestedQuery; nodes are
  // created after the body so that no id is allocated and then dropped.
  SourceSpan body_start{peek().line, peek().col, 0, 0};
  QueryBodyPtr body = parse_query_body();
  if (check_kw("ORDER") || check_kw("LIMIT") || check_kw("OFFSET")) {
    auto nested = make<NestedQuery>(open);
    nested->query = make_at<Query>(body_start);
    nested->query->body = std::move(body);
    parse_query_tail(*nested->query);
    finish(*nested->query);
    expect_sym(")");
    finish(*nested);
    return nested;
  }
  expect_sym(")");
  return body;
}

std::unique_ptr<SelectCore> Parser::parse_select_core() {
  auto core = make<SelectCore>(expect_kw("SELECT"));
  if (accept_kw("DISTINCT")) {
    if (check_kw("ON")) not_supported(peek(), "DISTINCT ON");
    core->distinct = true;
  } else {
    accept_kw("ALL");
  }
  do {
    core->select_list.push_back(parse_select_item());
  } while (accept_sym(","));
  if (check_kw("INTO")) not_supported(peek(), "SELECT INTO");
  if (accept_kw("FROM")) {
    ChainGuard chain(*this, ChainGuard::Kind::Relations);  // the binder joins the FROM list left-deep
    do {
      if (!core->from.empty()) chain.step();
      core->from.push_back(parse_table_ref());
    } while (accept_sym(","));
  }
  if (accept_kw("WHERE")) core->where = parse_expr();
  if (accept_kw("GROUP")) {
    expect_kw("BY");
    do {
      if (((check_kw("ROLLUP") || check_kw("CUBE")) && check_sym("(", 1)) ||
          (check_kw("GROUPING") && check_kw("SETS", 1)))
        not_supported(peek(), fmt::format("GROUP BY {}", peek().text));
      core->group_by.push_back(parse_expr());
    } while (accept_sym(","));
  }
  if (accept_kw("HAVING")) core->having = parse_expr();
  if (check_kw("WINDOW")) not_supported(peek(), "a WINDOW clause");
  if (check_kw("QUALIFY")) not_supported(peek(), "QUALIFY");
  finish(*core);
  return core;
}

std::unique_ptr<SelectItem> Parser::parse_select_item() {
  auto item = make<SelectItem>(peek());
  if (accept_sym("*")) {
    item->type = SelectItemType::Star;
  } else if (is_identifier(peek()) && check_sym(".", 1) && check_sym("*", 2)) {
    item->type = SelectItemType::QualifiedStar;
    item->qualifier = advance().value;
    advance();
    advance();
  } else {
    item->type = SelectItemType::Expr;
    item->expr = parse_expr();
    item->alias = parse_optional_alias();
  }
  finish(*item);
  return item;
}

std::string Parser::parse_optional_alias() {
  if (accept_kw("AS")) return expect_identifier("an alias after AS");
  if (is_identifier(peek())) {
    last_bare_alias_ = pos_;
    return advance().value;
  }
  return {};
}

std::vector<std::string> Parser::parse_column_alias_list() {
  std::vector<std::string> names;
  expect_sym("(");
  do {
    names.push_back(expect_identifier("a column name"));
  } while (accept_sym(","));
  expect_sym(")");
  return names;
}

TableRefPtr Parser::parse_table_ref() {
  TableRefPtr left = parse_table_primary();
  ChainGuard chain(*this, ChainGuard::Kind::Relations);
  while (true) {
    JoinType type;
    const Token& at = peek();
    if (accept_kw("CROSS")) {
      expect_kw("JOIN");
      type = JoinType::Cross;
    } else if (accept_kw("INNER")) {
      expect_kw("JOIN");
      type = JoinType::Inner;
    } else if (accept_kw("JOIN")) {
      type = JoinType::Inner;
    } else if (check_kw("LEFT") || check_kw("RIGHT") || check_kw("FULL")) {
      type = check_kw("LEFT") ? JoinType::Left : check_kw("RIGHT") ? JoinType::Right : JoinType::Full;
      advance();
      accept_kw("OUTER");
      expect_kw("JOIN");
    } else if (check_kw("NATURAL")) {
      not_supported(at, "NATURAL JOIN");
    } else {
      note_expected("LEFT");
      note_expected("RIGHT");
      note_expected("FULL");
      break;
    }
    chain.step();
    auto join = make_at<JoinRef>(left->span);
    join->join_type = type;
    join->left = std::move(left);
    join->right = parse_table_primary();
    if (type != JoinType::Cross) {
      if (check_kw("USING")) not_supported(peek(), "JOIN ... USING");
      expect_kw("ON");
      join->condition = parse_expr();
    }
    finish(*join);
    left = std::move(join);
  }
  return left;
}

TableRefPtr Parser::parse_table_primary() {
  DepthGuard guard(*this);
  const Token& start = peek();
  if (check_sym("(")) {
    // "(" opens a derived table when a query starts inside it: "(SELECT", "(WITH", or "((...) UNION ...)".
    bool derived = check_kw("SELECT", 1) || check_kw("WITH", 1);
    if (!derived && check_sym("(", 1)) {
      const Token& after = peek(skip_parenthesised(1));
      derived = after.is_keyword("UNION") || after.is_keyword("INTERSECT") || after.is_keyword("EXCEPT") ||
                after.is_keyword("ORDER") || after.is_keyword("LIMIT") || after.is_keyword("OFFSET") ||
                after.is_symbol(")");
      // "((t JOIN u ON ...))" is a join: look inside the inner group for a query start.
      if (derived && after.is_symbol(")")) {
        size_t k = 1;
        while (check_sym("(", k)) ++k;
        derived = check_kw("SELECT", k) || check_kw("WITH", k);
      }
    }
    if (derived) {
      auto d = make<DerivedTableRef>(start);
      advance();
      d->query = parse_query();
      expect_sym(")");
      d->alias = parse_optional_alias();
      if (!d->alias.empty() && check_sym("(")) d->column_aliases = parse_column_alias_list();
      finish(*d);
      return d;
    }
    advance();
    TableRefPtr inner = parse_table_ref();
    expect_sym(")");
    if (check_kw("AS") || is_identifier(peek())) not_supported(peek(), "an alias on a parenthesised join");
    return inner;
  }
  if (check_kw("LATERAL")) not_supported(start, "LATERAL");
  if (check_kw("VALUES")) not_supported(start, "VALUES");
  if (!is_identifier(start)) fail_unexpected("a table name or '('");
  auto t = make<BaseTableRef>(start);
  t->name = advance().value;
  if (check_sym(".")) not_supported(peek(), "a schema-qualified table name");
  if (check_sym("(")) not_supported(start, "a table function");
  t->alias = parse_optional_alias();
  if (!t->alias.empty() && check_sym("(")) not_supported(peek(), "a column alias list on a base table");
  finish(*t);
  return t;
}

}  // namespace hindsight::sql
