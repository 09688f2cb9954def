#include "planner/expr/expr.hpp"

#include <gtest/gtest.h>

#include <set>

#include "planner/common/date.hpp"

namespace hindsight {
namespace {

std::vector<ExprPtr> args(ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> v;
  v.push_back(std::move(a));
  v.push_back(std::move(b));
  return v;
}

ExprPtr col(ColumnId id, DataType t = DataType::bigint()) { return Expr::column(id, t); }
ExprPtr lit(int64_t x) { return Expr::constant(Value::bigint(x)); }
ExprPtr bin(ScalarOp op, ExprPtr a, ExprPtr b, DataType t = DataType::bigint()) {
  return Expr::call(op, t, args(std::move(a), std::move(b)));
}
ExprPtr cmp(ScalarOp op, ExprPtr a, ExprPtr b) { return bin(op, std::move(a), std::move(b), DataType::boolean()); }

TEST(ExprTest, FactoriesSetKindTypeAndFields) {
  auto c = Expr::column(7, DataType::integer(), 3);
  EXPECT_EQ(c->kind, ExprKind::ColumnRef);
  EXPECT_EQ(c->column_id, 7u);
  EXPECT_EQ(c->index, 3);
  EXPECT_EQ(c->type, DataType::integer());

  auto k = Expr::constant(Value::decimal(1250, 15, 2));
  EXPECT_TRUE(k->is_constant());
  EXPECT_EQ(k->type, DataType::decimal(15, 2));

  auto call = bin(ScalarOp::Mul, col(1), lit(2));
  EXPECT_EQ(call->kind, ExprKind::Call);
  EXPECT_EQ(call->op, ScalarOp::Mul);
  EXPECT_EQ(call->children.size(), 2u);

  auto cast = Expr::cast(col(1), DataType::float64());
  EXPECT_EQ(cast->kind, ExprKind::Cast);
  EXPECT_EQ(cast->type, DataType::float64());
  ASSERT_EQ(cast->children.size(), 1u);
}

TEST(ExprTest, CloneIsDeepAndEqual) {
  auto e = Expr::make(ExprKind::Case, DataType::bigint(), {});
  e->children.push_back(cmp(ScalarOp::Gt, col(1), lit(0)));
  e->children.push_back(bin(ScalarOp::Div, lit(10), col(1)));
  e->children.push_back(lit(-1));
  e->has_else = true;
  auto copy = e->clone();
  EXPECT_TRUE(copy->equals(*e));
  EXPECT_TRUE(copy->has_else);
  EXPECT_NE(copy->children[0].get(), e->children[0].get());
  // Mutating the copy leaves the original alone.
  copy->children[2]->value = Value::bigint(5);
  EXPECT_FALSE(copy->equals(*e));
  EXPECT_EQ(e->children[2]->value.i, -1);
}

TEST(ExprTest, EqualsComparesSemanticFieldsAndIgnoresIndex) {
  EXPECT_TRUE(Expr::column(1, DataType::bigint(), 0)->equals(*Expr::column(1, DataType::bigint(), 5)));
  EXPECT_FALSE(col(1)->equals(*col(2)));
  EXPECT_FALSE(col(1, DataType::bigint())->equals(*col(1, DataType::integer())));
  EXPECT_FALSE(lit(1)->equals(*lit(2)));
  EXPECT_FALSE(Expr::constant(Value::null(DataType::bigint()))->equals(*lit(0)));
  auto null_bigint = Expr::constant(Value::null(DataType::bigint()));
  EXPECT_TRUE(null_bigint->equals(*null_bigint->clone()));
  EXPECT_FALSE(bin(ScalarOp::Add, col(1), lit(1))->equals(*bin(ScalarOp::Sub, col(1), lit(1))));
  EXPECT_FALSE(bin(ScalarOp::Add, col(1), lit(1))->equals(*bin(ScalarOp::Add, lit(1), col(1))));
  EXPECT_FALSE(Expr::constant(Value::decimal(100, 15, 2))->equals(*Expr::constant(Value::decimal(100, 15, 3))));

  auto like = Expr::make(ExprKind::Like, DataType::boolean(),
                         args(col(1, DataType::varchar()), Expr::constant(Value::varchar("a%"))));
  auto not_like = like->clone();
  not_like->negated = true;
  EXPECT_FALSE(like->equals(*not_like));
  EXPECT_TRUE(like->equals(*like->clone()));
}

TEST(ExprTest, CollectColumnsVisitsEveryReferenceOnce) {
  auto e = Expr::make(ExprKind::And, DataType::boolean(), {});
  e->children.push_back(cmp(ScalarOp::Lt, col(3), col(1)));
  e->children.push_back(cmp(ScalarOp::Gt, bin(ScalarOp::Add, col(1), col(2)), lit(4)));
  std::vector<ColumnId> out;
  e->collect_columns(out);
  EXPECT_EQ(out, (std::vector<ColumnId>{3, 1, 2}));
  std::vector<ColumnId> none;
  lit(1)->collect_columns(none);
  EXPECT_TRUE(none.empty());
}

TEST(ExprTest, ToStringUsesMinimalParentheses) {
  // (a + b) * c keeps its parentheses; a + b * c needs none.
  EXPECT_EQ(bin(ScalarOp::Mul, bin(ScalarOp::Add, col(1), col(2)), col(3))->to_string(), "(#1 + #2) * #3");
  EXPECT_EQ(bin(ScalarOp::Add, col(1), bin(ScalarOp::Mul, col(2), col(3)))->to_string(), "#1 + #2 * #3");
  // Subtraction is left-associative: a - (b - c) needs parentheses, (a - b) - c does not.
  EXPECT_EQ(bin(ScalarOp::Sub, col(1), bin(ScalarOp::Sub, col(2), col(3)))->to_string(), "#1 - (#2 - #3)");
  EXPECT_EQ(bin(ScalarOp::Sub, bin(ScalarOp::Sub, col(1), col(2)), col(3))->to_string(), "#1 - #2 - #3");
  // Unary minus never produces "--" (a SQL comment).
  auto neg = Expr::call(ScalarOp::Neg, DataType::bigint(), {});
  neg->children.push_back(lit(-5));
  EXPECT_EQ(neg->to_string(), "-(-5)");
  EXPECT_EQ(bin(ScalarOp::Sub, col(1), lit(-5))->to_string(), "#1 - -5");

  auto conj = Expr::make(ExprKind::And, DataType::boolean(), {});
  conj->children.push_back(cmp(ScalarOp::Ge, col(1), lit(3)));
  auto disj = Expr::make(ExprKind::Or, DataType::boolean(), {});
  disj->children.push_back(cmp(ScalarOp::Eq, col(2), lit(1)));
  disj->children.push_back(cmp(ScalarOp::Ne, col(2), lit(2)));
  conj->children.push_back(std::move(disj));
  EXPECT_EQ(conj->to_string(), "#1 >= 3 AND (#2 = 1 OR #2 <> 2)");
  auto negation = Expr::make(ExprKind::Not, DataType::boolean(), {});
  negation->children.push_back(conj->clone());
  EXPECT_EQ(negation->to_string(), "NOT (#1 >= 3 AND (#2 = 1 OR #2 <> 2))");
}

TEST(ExprTest, ToStringCoversEveryKind) {
  std::function<std::string(ColumnId)> names = [](ColumnId id) { return "c" + std::to_string(id); };
  int64_t d;
  ASSERT_TRUE(parse_date("1995-03-15", d));
  EXPECT_EQ(cmp(ScalarOp::Le, col(1, DataType::date()), Expr::constant(Value::date(d)))->to_string(&names),
            "c1 <= DATE '1995-03-15'");
  EXPECT_EQ(Expr::constant(Value::varchar("it's"))->to_string(), "'it''s'");
  EXPECT_EQ(Expr::constant(Value::decimal(-1250, 15, 2))->to_string(), "-12.50");
  EXPECT_EQ(Expr::cast(col(1), DataType::decimal(15, 2))->to_string(&names), "CAST(c1 AS DECIMAL(15,2))");

  auto in = Expr::make(ExprKind::InList, DataType::boolean(), {});
  in->children.push_back(col(1));
  in->children.push_back(lit(1));
  in->children.push_back(lit(2));
  EXPECT_EQ(in->to_string(&names), "c1 IN (1, 2)");
  in->negated = true;
  EXPECT_EQ(in->to_string(&names), "c1 NOT IN (1, 2)");

  auto like = Expr::make(ExprKind::Like, DataType::boolean(),
                         args(col(1, DataType::varchar()), Expr::constant(Value::varchar("%green%"))));
  like->negated = true;
  EXPECT_EQ(like->to_string(&names), "c1 NOT LIKE '%green%'");

  auto isnull = Expr::make(ExprKind::IsNull, DataType::boolean(), {});
  isnull->children.push_back(col(4));
  EXPECT_EQ(isnull->to_string(), "#4 IS NULL");
  isnull->negated = true;
  EXPECT_EQ(isnull->to_string(), "#4 IS NOT NULL");

  auto cs = Expr::make(ExprKind::Case, DataType::bigint(), {});
  cs->children.push_back(cmp(ScalarOp::Gt, col(1), lit(0)));
  cs->children.push_back(lit(1));
  EXPECT_EQ(cs->to_string(), "CASE WHEN #1 > 0 THEN 1 END");
  cs->children.push_back(lit(0));
  cs->has_else = true;
  EXPECT_EQ(cs->to_string(), "CASE WHEN #1 > 0 THEN 1 ELSE 0 END");

  auto year = Expr::call(ScalarOp::ExtractYear, DataType::integer(), {});
  year->children.push_back(col(1, DataType::date()));
  EXPECT_EQ(year->to_string(), "EXTRACT(YEAR FROM #1)");
  auto sub = Expr::call(ScalarOp::Substring, DataType::varchar(), {});
  sub->children.push_back(col(2, DataType::varchar()));
  sub->children.push_back(lit(1));
  sub->children.push_back(lit(2));
  EXPECT_EQ(sub->to_string(), "SUBSTRING(#2, 1, 2)");
  EXPECT_EQ(bin(ScalarOp::Concat, col(1, DataType::varchar()), Expr::constant(Value::varchar("x")), DataType::varchar())
                ->to_string(),
            "#1 || 'x'");
}

TEST(ExprTest, OperatorAndAggregateNamesAreDistinct) {
  std::set<std::string> names;
  for (int op = 0; op <= static_cast<int>(ScalarOp::Round); ++op)
    names.insert(scalar_op_name(static_cast<ScalarOp>(op)));
  EXPECT_EQ(names.size(), static_cast<size_t>(ScalarOp::Round) + 1);
  EXPECT_STREQ(scalar_op_name(ScalarOp::Neg), "NEG");
  EXPECT_STREQ(agg_kind_name(AggKind::Sum), "SUM");
  EXPECT_STREQ(agg_kind_name(AggKind::CountStar), "COUNT");  // printed as COUNT(*)
  EXPECT_STREQ(agg_kind_name(AggKind::Avg), "AVG");
}

}  // namespace
}  // namespace hindsight
