#include "planner/sql/parser.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "planner/common/error.hpp"

namespace hindsight::sql {
namespace {

/// Parses one SELECT statement and returns its query (kept alive in `holder`).
const Query& query_of(const std::string& sql, StatementPtr& holder) {
  holder = parse_statement(sql);
  return *holder->as<SelectStatement>().query;
}

const SelectCore& core_of(const Query& q) { return q.body->as<SelectCore>(); }

/// The WHERE expression of a single-core query.
struct Parsed {
  StatementPtr stmt;
  const SelectCore& core() const { return core_of(*stmt->as<SelectStatement>().query); }
  const Expr& where() const { return *core().where; }
  const Expr& item(size_t i) const { return *core().select_list.at(i)->expr; }
};

Parsed parse(const std::string& sql) { return Parsed{parse_statement(sql)}; }

/// Parses a standalone expression; the tree stays alive until the test binary exits.
const Expr& expr(const std::string& sql) {
  static std::vector<ExprPtr> keep;
  keep.push_back(parse_expression(sql));
  return *keep.back();
}

TEST(ParserTest, SelectListItemsAliasesAndStars) {
  auto p = parse("SELECT a, b AS x, c y, *, t.*, \"Q\" FROM t");
  const auto& items = p.core().select_list;
  ASSERT_EQ(items.size(), 6u);
  EXPECT_EQ(items[0]->type, SelectItemType::Expr);
  EXPECT_EQ(items[0]->alias, "");
  EXPECT_EQ(items[1]->alias, "x");
  EXPECT_EQ(items[2]->alias, "y");
  EXPECT_EQ(items[3]->type, SelectItemType::Star);
  EXPECT_EQ(items[4]->type, SelectItemType::QualifiedStar);
  EXPECT_EQ(items[4]->qualifier, "t");
  EXPECT_EQ(items[5]->expr->as<ColumnRefExpr>().name, "Q");
  EXPECT_FALSE(p.core().distinct);
  EXPECT_TRUE(parse("select distinct a from t").core().distinct);
}

TEST(ParserTest, IdentifiersAreLowerCasedUnlessQuoted) {
  auto p = parse("SELECT T1.Col_A AS Alias, \"MiXed\".\"Name\" FROM My_Table T1");
  const auto& c = p.item(0).as<ColumnRefExpr>();
  EXPECT_EQ(c.qualifier, "t1");
  EXPECT_EQ(c.name, "col_a");
  EXPECT_EQ(p.core().select_list[0]->alias, "alias");
  EXPECT_EQ(p.item(1).as<ColumnRefExpr>().qualifier, "MiXed");
  EXPECT_EQ(p.item(1).as<ColumnRefExpr>().name, "Name");
  const auto& t = p.core().from[0]->as<BaseTableRef>();
  EXPECT_EQ(t.name, "my_table");
  EXPECT_EQ(t.alias, "t1");
}

TEST(ParserTest, FromListJoinsAndDerivedTables) {
  auto p = parse(
      "select * from a, b x join c on x.k = c.k left outer join d on true right join e on 1 = 1 "
      "full join f on false cross join g, (select 1 as one) as s (uno), ((h inner join i on h.a = i.a))");
  const auto& from = p.core().from;
  ASSERT_EQ(from.size(), 4u);
  EXPECT_EQ(from[0]->as<BaseTableRef>().name, "a");
  // b JOIN c LEFT JOIN d RIGHT JOIN e FULL JOIN f CROSS JOIN g is left-deep.
  const JoinRef* j = &from[1]->as<JoinRef>();
  std::vector<JoinType> types;
  while (true) {
    types.push_back(j->join_type);
    if (!j->left->is<JoinRef>()) break;
    j = &j->left->as<JoinRef>();
  }
  EXPECT_EQ(types, (std::vector<JoinType>{JoinType::Cross, JoinType::Full, JoinType::Right, JoinType::Left,
                                          JoinType::Inner}));
  EXPECT_EQ(j->left->as<BaseTableRef>().alias, "x");
  EXPECT_EQ(to_string(*j->condition), "x.k = c.k");
  EXPECT_EQ(from[1]->as<JoinRef>().condition, nullptr);  // CROSS JOIN
  const auto& d = from[2]->as<DerivedTableRef>();
  EXPECT_EQ(d.alias, "s");
  EXPECT_EQ(d.column_aliases, std::vector<std::string>{"uno"});
  EXPECT_EQ(core_of(*d.query).select_list[0]->alias, "one");
  EXPECT_EQ(from[3]->as<JoinRef>().join_type, JoinType::Inner);
}

TEST(ParserTest, WhereGroupByHavingOrderByLimitOffset) {
  StatementPtr s;
  const Query& q = query_of(
      "select a, count(*) from t where a > 1 group by 1, b having count(*) > 2 "
      "order by 2 desc nulls first, a asc, b nulls last limit 10 offset 5",
      s);
  const SelectCore& c = core_of(q);
  EXPECT_EQ(to_string(*c.where), "a > 1");
  ASSERT_EQ(c.group_by.size(), 2u);
  EXPECT_EQ(c.group_by[0]->as<IntegerLiteral>().value, 1);
  EXPECT_EQ(to_string(*c.having), "count(*) > 2");
  ASSERT_EQ(q.order_by.size(), 3u);
  EXPECT_TRUE(q.order_by[0]->descending);
  EXPECT_EQ(q.order_by[0]->nulls, NullsOrder::First);
  EXPECT_EQ(q.order_by[0]->expr->as<IntegerLiteral>().value, 2);
  EXPECT_FALSE(q.order_by[1]->descending);
  EXPECT_EQ(q.order_by[1]->nulls, NullsOrder::Default);
  EXPECT_EQ(q.order_by[2]->nulls, NullsOrder::Last);
  EXPECT_EQ(q.limit, 10);
  EXPECT_EQ(q.offset, 5);

  StatementPtr s2;
  const Query& only_offset = query_of("select 1 offset 3 rows", s2);
  EXPECT_FALSE(only_offset.limit.has_value());
  EXPECT_EQ(only_offset.offset, 3);
  StatementPtr s3;
  const Query& swapped = query_of("select 1 offset 3 limit 4", s3);
  EXPECT_EQ(swapped.limit, 4);
  EXPECT_EQ(swapped.offset, 3);
  StatementPtr s4;
  EXPECT_FALSE(query_of("select 1 limit all", s4).limit.has_value());
}

TEST(ParserTest, SelectWithoutFrom) {
  auto p = parse("select 1 + 1");
  EXPECT_TRUE(p.core().from.empty());
  EXPECT_EQ(to_string(p.item(0)), "1 + 1");
}

TEST(ParserTest, WithClauseAndColumnAliases) {
  StatementPtr s;
  const Query& q = query_of("with a (x, y) as (select 1, 2), b as (select * from a) select * from b", s);
  ASSERT_EQ(q.with.size(), 2u);
  EXPECT_EQ(q.with[0]->name, "a");
  EXPECT_EQ(q.with[0]->column_aliases, (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(q.with[1]->column_aliases.empty());
  EXPECT_EQ(core_of(*q.with[1]->query).from[0]->as<BaseTableRef>().name, "a");
  EXPECT_EQ(core_of(q).from[0]->as<BaseTableRef>().name, "b");
}

TEST(ParserTest, UnionIsLeftAssociativeAndOrderByAppliesToTheWholeQuery) {
  StatementPtr s;
  const Query& q = query_of("select 1 union all select 2 union select 3 order by 1 limit 2", s);
  const auto& top = q.body->as<SetOperation>();
  EXPECT_FALSE(top.all);
  EXPECT_EQ(top.op, SetOpType::Union);
  const auto& left = top.left->as<SetOperation>();
  EXPECT_TRUE(left.all);
  EXPECT_EQ(to_string(*left.left->as<SelectCore>().select_list[0]->expr), "1");
  EXPECT_EQ(to_string(*top.right->as<SelectCore>().select_list[0]->expr), "3");
  EXPECT_EQ(q.order_by.size(), 1u);
  EXPECT_EQ(q.limit, 2);
}

TEST(ParserTest, ParenthesisedUnionBodies) {
  StatementPtr s;
  const Query& q = query_of("select 1 union (select 2 union all select 3)", s);
  const auto& top = q.body->as<SetOperation>();
  EXPECT_TRUE(top.left->is<SelectCore>());
  EXPECT_TRUE(top.right->as<SetOperation>().all);

  // A parenthesised body with its own ORDER BY / LIMIT keeps them in a NestedQuery.
  StatementPtr s2;
  const Query& q2 = query_of("(select a from t order by a limit 1) union all (select b from u) order by 1", s2);
  const auto& op = q2.body->as<SetOperation>();
  const Query& inner = *op.left->as<NestedQuery>().query;
  EXPECT_EQ(inner.limit, 1);
  EXPECT_EQ(inner.order_by.size(), 1u);
  EXPECT_TRUE(op.right->is<SelectCore>());
  EXPECT_EQ(q2.order_by.size(), 1u);
  EXPECT_EQ(to_string(q2), "(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL SELECT b FROM u ORDER BY 1");
}

TEST(ParserTest, OperatorPrecedence) {
  auto shape = [](const std::string& e) { return to_string(expr(e)); };
  auto top_op = [](const std::string& e) { return parse_expression(e)->as<BinaryExpr>().op; };
  EXPECT_EQ(top_op("1 + 2 * 3"), BinaryOp::Add);
  EXPECT_EQ(top_op("1 * 2 + 3"), BinaryOp::Add);
  EXPECT_EQ(top_op("a or b and c"), BinaryOp::Or);
  EXPECT_EQ(top_op("a and b or c"), BinaryOp::Or);
  EXPECT_EQ(top_op("a || b = c"), BinaryOp::Eq);
  EXPECT_EQ(top_op("a = b + c"), BinaryOp::Eq);
  EXPECT_EQ(top_op("a + b || c"), BinaryOp::Concat);
  EXPECT_EQ(top_op("-a * b"), BinaryOp::Mul);
  EXPECT_EQ(top_op("a % b - c"), BinaryOp::Sub);
  // Left associativity.
  const auto& sub = expr("a - b - c").as<BinaryExpr>();
  EXPECT_EQ(to_string(*sub.left), "a - b");
  EXPECT_EQ(shape("a - (b - c)"), "a - (b - c)");
  EXPECT_EQ(shape("(a + b) * c"), "(a + b) * c");
  // NOT binds looser than comparison, tighter than AND.
  auto n = parse_expression("not a = b and c");
  EXPECT_EQ(n->as<BinaryExpr>().op, BinaryOp::And);
  const auto& not_expr = n->as<BinaryExpr>().left->as<UnaryExpr>();
  EXPECT_EQ(not_expr.op, UnaryOp::Not);
  EXPECT_EQ(not_expr.operand->as<BinaryExpr>().op, BinaryOp::Eq);
  // BETWEEN consumes its own AND.
  auto b = parse_expression("x between 1 and 2 and y");
  EXPECT_EQ(b->as<BinaryExpr>().op, BinaryOp::And);
  EXPECT_TRUE(b->as<BinaryExpr>().left->is<BetweenExpr>());
  EXPECT_EQ(shape("a <> b and a != c"), "a <> b AND a <> c");
}

TEST(ParserTest, UnaryOperators) {
  auto e = parse_expression("- - 5");
  const auto& outer = e->as<UnaryExpr>();
  EXPECT_EQ(outer.op, UnaryOp::Minus);
  EXPECT_EQ(outer.operand->as<UnaryExpr>().operand->as<IntegerLiteral>().value, 5);
  EXPECT_EQ(to_string(*e), "- -5");
  EXPECT_EQ(expr("+x").as<UnaryExpr>().op, UnaryOp::Plus);
  EXPECT_EQ(to_string(expr("not not a")), "NOT NOT a");
}

TEST(ParserTest, Literals) {
  EXPECT_EQ(expr("9223372036854775807").as<IntegerLiteral>().value, INT64_MAX);
  const auto& big = expr("9223372036854775808").as<DecimalLiteral>();
  EXPECT_EQ(big.text, "9223372036854775808");
  // BIGINT's minimum is one integer literal (its magnitude alone does not fit a BIGINT), spanning the '-'.
  const auto& min = expr("-9223372036854775808").as<IntegerLiteral>();
  EXPECT_EQ(min.value, INT64_MIN);
  EXPECT_EQ(min.span.col, 1);
  EXPECT_EQ(min.span.end_col, 20);
  EXPECT_EQ(to_string(min), "-9223372036854775808");
  EXPECT_EQ(expr("- 009223372036854775808").as<IntegerLiteral>().value, INT64_MIN);
  // Anything else keeps the unary minus: -(...) and a larger magnitude, and binary minus is not a sign.
  EXPECT_TRUE(expr("-(9223372036854775808)").is<UnaryExpr>());
  EXPECT_TRUE(expr("-9223372036854775809").as<UnaryExpr>().operand->is<DecimalLiteral>());
  EXPECT_TRUE(expr("1 - 9223372036854775808").as<BinaryExpr>().right->is<DecimalLiteral>());
  const auto& dec = expr("0.05").as<DecimalLiteral>();
  EXPECT_EQ(dec.text, "0.05");
  EXPECT_DOUBLE_EQ(dec.value, 0.05);
  const auto& dbl = expr("1e-3").as<DoubleLiteral>();
  EXPECT_EQ(dbl.text, "1e-3");
  EXPECT_DOUBLE_EQ(dbl.value, 0.001);
  EXPECT_EQ(expr("'it''s'").as<StringLiteral>().value, "it's");
  EXPECT_EQ(expr("DATE '1998-12-01'").as<DateLiteral>().text, "1998-12-01");
  EXPECT_TRUE(expr("null").is<NullLiteral>());
  EXPECT_TRUE(expr("TRUE").as<BoolLiteral>().value);
  EXPECT_FALSE(expr("false").as<BoolLiteral>().value);
  // DATE without a string is an ordinary column name.
  EXPECT_EQ(expr("date").as<ColumnRefExpr>().name, "date");
}

TEST(ParserTest, IntervalLiterals) {
  struct Case {
    const char* sql;
    const char* value;
    IntervalUnit unit;
  } cases[] = {{"interval '3' month", "3", IntervalUnit::Month}, {"INTERVAL '90' DAY", "90", IntervalUnit::Day},
               {"interval 1 year", "1", IntervalUnit::Year},     {"interval '3 months'", "3", IntervalUnit::Month},
               {"interval '-2' days", "-2", IntervalUnit::Day}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.sql);
    const auto& iv = expr(c.sql).as<IntervalLiteral>();
    EXPECT_EQ(iv.value, c.value);
    EXPECT_EQ(iv.unit, c.unit);
  }
  EXPECT_EQ(to_string(expr("date '1998-12-01' - interval '90' day")),
            "DATE '1998-12-01' - INTERVAL '90' DAY");
}

TEST(ParserTest, PredicatesInBetweenLikeIsNull) {
  const auto& between = expr("x not between 1 and 2 + 3").as<BetweenExpr>();
  EXPECT_TRUE(between.negated);
  EXPECT_EQ(to_string(*between.high), "2 + 3");
  const auto& in = expr("x in (1, 2, 3)").as<InListExpr>();
  EXPECT_FALSE(in.negated);
  EXPECT_EQ(in.list.size(), 3u);
  EXPECT_TRUE(expr("x not in ('a')").as<InListExpr>().negated);
  const auto& ins = expr("x not in (select y from t)").as<InSubqueryExpr>();
  EXPECT_TRUE(ins.negated);
  EXPECT_EQ(core_of(*ins.query).from[0]->as<BaseTableRef>().name, "t");
  const auto& like = expr("name not like 'a%'").as<LikeExpr>();
  EXPECT_TRUE(like.negated);
  EXPECT_EQ(like.pattern->as<StringLiteral>().value, "a%");
  EXPECT_FALSE(expr("x is null").as<IsNullExpr>().negated);
  EXPECT_TRUE(expr("x is not null").as<IsNullExpr>().negated);
}

TEST(ParserTest, SubqueriesExistsAndScalar) {
  auto e = parse_expression("not exists (select 1) and exists (select 2) and (select max(a) from t) > 1");
  EXPECT_EQ(to_string(*e), "NOT EXISTS (SELECT 1) AND EXISTS (SELECT 2) AND (SELECT max(a) FROM t) > 1");
  const auto& top = e->as<BinaryExpr>();
  const auto& left = top.left->as<BinaryExpr>();
  EXPECT_TRUE(left.left->as<ExistsExpr>().negated);
  EXPECT_FALSE(left.right->as<ExistsExpr>().negated);
  EXPECT_TRUE(top.right->as<BinaryExpr>().left->is<SubqueryExpr>());
  // NOT (EXISTS ...) stays a NOT over a plain EXISTS.
  const auto& n = expr("not (exists (select 1))").as<UnaryExpr>();
  EXPECT_FALSE(n.operand->as<ExistsExpr>().negated);
}

TEST(ParserTest, CaseExpressions) {
  const auto& searched = expr("case when a > 1 then 'x' when b then 'y' else 'z' end").as<CaseExpr>();
  EXPECT_EQ(searched.operand, nullptr);
  ASSERT_EQ(searched.whens.size(), 2u);
  EXPECT_EQ(to_string(*searched.whens[0]->when), "a > 1");
  EXPECT_EQ(searched.else_expr->as<StringLiteral>().value, "z");
  const auto& simple = expr("CASE x WHEN 1 THEN 2 END").as<CaseExpr>();
  EXPECT_EQ(simple.operand->as<ColumnRefExpr>().name, "x");
  EXPECT_EQ(simple.else_expr, nullptr);
}

TEST(ParserTest, CastKeepsTheTypeNameNormalised) {
  EXPECT_EQ(expr("cast(x as decimal( 15 , 2 ))").as<CastExpr>().type_name, "DECIMAL(15,2)");
  EXPECT_EQ(expr("CAST(x AS date)").as<CastExpr>().type_name, "DATE");
  EXPECT_EQ(expr("cast(x as double precision)").as<CastExpr>().type_name, "DOUBLE PRECISION");
  EXPECT_EQ(expr("cast(x as varchar(25))").as<CastExpr>().type_name, "VARCHAR(25)");
}

TEST(ParserTest, FunctionCalls) {
  const auto& star = expr("COUNT(*)").as<FunctionCallExpr>();
  EXPECT_EQ(star.name, "count");
  EXPECT_TRUE(star.star);
  EXPECT_TRUE(star.args.empty());
  const auto& distinct = expr("count(distinct a)").as<FunctionCallExpr>();
  EXPECT_TRUE(distinct.distinct);
  EXPECT_EQ(distinct.args.size(), 1u);
  const auto& none = expr("now()").as<FunctionCallExpr>();
  EXPECT_TRUE(none.args.empty());
  EXPECT_FALSE(none.star);
  EXPECT_EQ(to_string(expr("Sum(L_Quantity)")), "sum(l_quantity)");
  EXPECT_EQ(to_string(expr("sum(l_extendedprice*(1-l_discount))")),
            "sum(l_extendedprice * (1 - l_discount))");
  EXPECT_EQ(to_string(expr("coalesce(a, 'x', left(b, 2))")), "coalesce(a, 'x', left(b, 2))");
}

TEST(ParserTest, ExtractAndSubstring) {
  const auto& y = expr("extract(year from o_orderdate)").as<ExtractExpr>();
  EXPECT_EQ(y.field, ExtractField::Year);
  EXPECT_EQ(y.operand->as<ColumnRefExpr>().name, "o_orderdate");
  EXPECT_EQ(expr("EXTRACT(MONTH FROM d)").as<ExtractExpr>().field, ExtractField::Month);
  EXPECT_EQ(expr("extract(day from d)").as<ExtractExpr>().field, ExtractField::Day);
  for (const char* sql : {"substring(c_phone from 1 for 2)", "SUBSTRING(c_phone, 1, 2)"}) {
    const auto& f = expr(sql).as<FunctionCallExpr>();
    EXPECT_EQ(f.name, "substring");
    ASSERT_EQ(f.args.size(), 3u);
    EXPECT_EQ(f.args[2]->as<IntegerLiteral>().value, 2);
  }
  EXPECT_EQ(expr("substring(s from 3)").as<FunctionCallExpr>().args.size(), 2u);
  EXPECT_EQ(expr("substring(s, 3)").as<FunctionCallExpr>().args.size(), 2u);
}

TEST(ParserTest, SetStatements) {
  auto stmts = parse_sql("SET workers = 8; set memory_limit TO '256MB'; SET Mode = Fast; set x = -1.5");
  ASSERT_EQ(stmts.size(), 4u);
  const auto& a = stmts[0]->as<SetStatement>();
  EXPECT_EQ(a.name, "workers");
  EXPECT_EQ(a.value_type, SetValueType::Number);
  EXPECT_EQ(a.value, "8");
  const auto& b = stmts[1]->as<SetStatement>();
  EXPECT_EQ(b.value_type, SetValueType::String);
  EXPECT_EQ(b.value, "256MB");
  EXPECT_EQ(b.raw, "'256MB'");
  const auto& c = stmts[2]->as<SetStatement>();
  EXPECT_EQ(c.name, "mode");
  EXPECT_EQ(c.value_type, SetValueType::Identifier);
  EXPECT_EQ(c.value, "Fast");
  const auto& d = stmts[3]->as<SetStatement>();
  EXPECT_EQ(d.value, "-1.5");
  EXPECT_EQ(d.raw, "-1.5");
  EXPECT_EQ(to_string(*stmts[1]), "SET memory_limit = '256MB'");
}

TEST(ParserTest, ExplainStatements) {
  auto plain = parse_statement("explain select 1");
  EXPECT_FALSE(plain->as<ExplainStatement>().analyze);
  auto analyze = parse_statement("EXPLAIN ANALYZE select a from t");
  const auto& e = analyze->as<ExplainStatement>();
  EXPECT_TRUE(e.analyze);
  EXPECT_EQ(core_of(*e.query).from[0]->as<BaseTableRef>().name, "t");
  EXPECT_EQ(to_string(*analyze), "EXPLAIN ANALYZE SELECT a FROM t");
}

TEST(ParserTest, ScriptsSkipEmptyStatementsAndKeepTheirText) {
  auto stmts = parse_sql(";; select 1 ;\n\n  SELECT 2;;\nset a = b");
  ASSERT_EQ(stmts.size(), 3u);
  EXPECT_EQ(stmts[0]->text, "select 1");
  EXPECT_EQ(stmts[1]->text, "SELECT 2");
  EXPECT_EQ(stmts[1]->span.line, 3);
  EXPECT_EQ(stmts[1]->span.col, 3);
  EXPECT_EQ(stmts[2]->type, StatementType::Set);
  EXPECT_TRUE(parse_sql("").empty());
  EXPECT_TRUE(parse_sql(" ; -- only a comment\n;").empty());
  EXPECT_NO_THROW(parse_statement("select 1;"));
}

TEST(ParserTest, KeywordsAreCaseInsensitive) {
  auto a = parse_statement("SeLeCt DiStInCt A fRoM t WhErE x Is NoT nUlL oRdEr By 1 DeSc");
  auto b = parse_statement("select distinct a from t where x is not null order by 1 desc");
  EXPECT_EQ(to_string(*a), to_string(*b));
}

TEST(ParserTest, SpansCoverTheNodeText) {
  auto stmt = parse_statement("select a + b as s,\n  sum(x)\nfrom t");
  const auto& core = core_of(*stmt->as<SelectStatement>().query);
  const SourceSpan& plus = core.select_list[0]->expr->span;
  EXPECT_EQ(plus.line, 1);
  EXPECT_EQ(plus.col, 8);
  EXPECT_EQ(plus.end_line, 1);
  EXPECT_EQ(plus.end_col, 12);
  const SourceSpan& sum = core.select_list[1]->expr->span;
  EXPECT_EQ(sum.line, 2);
  EXPECT_EQ(sum.col, 3);
  EXPECT_EQ(sum.end_col, 8);
  EXPECT_EQ(stmt->span.end_line, 3);
  EXPECT_EQ(stmt->span.end_col, 6);
}

TEST(ParserTest, NodeIdsAreDenseAndInCreationOrder) {
  auto stmt = parse_statement("select a, b + 1 from t where c in (select d from u) order by 1");
  std::vector<int> ids;
  for_each_node(*stmt, [&](const AstNode& n) { ids.push_back(n.id); });
  EXPECT_EQ(static_cast<int>(ids.size()), stmt->node_count);
  std::sort(ids.begin(), ids.end());
  for (int i = 0; i < static_cast<int>(ids.size()); ++i) EXPECT_EQ(ids[i], i);
  // A second statement starts again at 0.
  auto stmts = parse_sql("select 1; select 2");
  EXPECT_EQ(stmts[0]->node_count, stmts[1]->node_count);
}

TEST(ParserTest, CheckedCastRejectsTheWrongKind) {
  auto e = parse_expression("a + 1");
  EXPECT_TRUE(e->is<BinaryExpr>());
  EXPECT_FALSE(e->is<ColumnRefExpr>());
  try {
    (void)e->as<ColumnRefExpr>();
    FAIL() << "expected an INTERNAL error";
  } catch (const Error& err) {
    EXPECT_EQ(err.code(), ErrorCode::INTERNAL);
  }
}

TEST(ParserTest, ToStringQuotesIdentifiersWhenNeeded) {
  EXPECT_EQ(to_string(expr("\"Order\".\"select\" + \"a b\"")), "\"Order\".\"select\" + \"a b\"");
  EXPECT_EQ(to_string(expr("'x' || 'y''z'")), "'x' || 'y''z'");
}

}  // namespace
}  // namespace hindsight::sql
