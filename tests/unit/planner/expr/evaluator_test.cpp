#include "planner/expr/evaluator.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <set>

#include "tests/unit/planner/expr/expr_test_util.hpp"

namespace hindsight {
namespace {

using namespace expr_test;

const DataType kBig = DataType::bigint();
const DataType kInt = DataType::integer();
const DataType kBool = DataType::boolean();
const DataType kDbl = DataType::float64();

TEST(EvaluatorTest, ArithmeticPropagatesNullsForEveryOperandShape) {
  Batch b = batch({bigints({1, std::nullopt, 3}), bigints({10, 20, std::nullopt})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::Add, kBig, col(0, kBig), col(1, kBig)), b), (Texts{"11", "NULL", "NULL"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Sub, kBig, col(0, kBig), big(1)), b), (Texts{"0", "NULL", "2"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Mul, kBig, big(2), col(1, kBig)), b), (Texts{"20", "40", "NULL"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Add, kBig, col(0, kBig), null_of(kBig)), b), (Texts{"NULL", "NULL", "NULL"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Neg, kBig, col(0, kBig)), b), (Texts{"-1", "NULL", "-3"}));
  // Constant operands only: folded once, broadcast to every row.
  EXPECT_EQ(eval_texts(*call(ScalarOp::Mul, kBig, big(6), big(7)), b), (Texts{"42", "42", "42"}));
}

TEST(EvaluatorTest, IntegerDivisionTruncatesTowardZero) {
  Batch b = batch({bigints({7, -7, 7, -7}), bigints({2, 2, -2, -2})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::Div, kBig, col(0, kBig), col(1, kBig)), b), (Texts{"3", "-3", "-3", "3"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Mod, kBig, col(0, kBig), col(1, kBig)), b), (Texts{"1", "-1", "1", "-1"}));
}

TEST(EvaluatorTest, DivisionByZeroIsADataErrorUnlessTheRowIsNull) {
  Batch b = batch({bigints({1, 2}), bigints({1, 0})});
  std::string msg;
  EXPECT_EQ(error_code_of([&] { evaluate(*call(ScalarOp::Div, kBig, col(0, kBig), col(1, kBig)), b); }, &msg),
            ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "division by zero");
  EXPECT_EQ(error_code_of([&] { evaluate(*call(ScalarOp::Mod, kBig, col(0, kBig), big(0)), b); }),
            ErrorCode::DATA_ERROR);
  EXPECT_EQ(error_code_of([&] { evaluate(*call(ScalarOp::Div, kDbl, dbl(1.0), dbl(0.0)), b); }), ErrorCode::DATA_ERROR);
  // A zero divisor under a NULL dividend is not evaluated.
  Batch nb = batch({bigints({std::nullopt, 4}), bigints({0, 2})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::Div, kBig, col(0, kBig), col(1, kBig)), nb), (Texts{"NULL", "2"}));
  Batch db = batch({doubles({std::nullopt, 3.0}), doubles({0.0, 2.0})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::Div, kDbl, col(0, kDbl), col(1, kDbl)), db), (Texts{"NULL", "1.5"}));
}

TEST(EvaluatorTest, OverflowIsADataErrorButNotUnderNull) {
  Batch b = batch({bigints({INT64_MAX, INT64_MIN})});
  std::string msg;
  EXPECT_EQ(error_code_of([&] { evaluate(*call(ScalarOp::Add, kBig, col(0, kBig), big(1)), b); }, &msg),
            ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "numeric overflow");
  EXPECT_EQ(error_code_of([&] { evaluate(*call(ScalarOp::Mul, kBig, col(0, kBig), big(2)), b); }),
            ErrorCode::DATA_ERROR);
  EXPECT_EQ(error_code_of([&] { evaluate(*call(ScalarOp::Neg, kBig, col(0, kBig)), batch({bigints({INT64_MIN})})); }),
            ErrorCode::DATA_ERROR);
  EXPECT_EQ(error_code_of(
                [&] { evaluate(*call(ScalarOp::Div, kBig, col(0, kBig), big(-1)), batch({bigints({INT64_MIN})})); }),
            ErrorCode::DATA_ERROR);
  EXPECT_EQ(error_code_of([&] { evaluate(*call(ScalarOp::Abs, kBig, col(0, kBig)), batch({bigints({INT64_MIN})})); }),
            ErrorCode::DATA_ERROR);
  // INTEGER results stay in 32 bits.
  Batch ib = batch({ints(kInt, {INT32_MAX})});
  EXPECT_EQ(error_code_of([&] { evaluate(*call(ScalarOp::Add, kInt, col(0, kInt), lit(Value::integer(1))), ib); }),
            ErrorCode::DATA_ERROR);
  // The value stored under a NULL is arbitrary: it must not raise.
  ColumnVector c = bigints({INT64_MAX, 5});
  c.set_null(0);
  EXPECT_EQ(eval_texts(*call(ScalarOp::Add, kBig, col(0, kBig), big(1)), batch({c})), (Texts{"NULL", "6"}));
}

TEST(EvaluatorTest, DecimalArithmeticWorksOnScaledIntegers) {
  const DataType d2 = DataType::decimal(15, 2), d4 = DataType::decimal(18, 4);
  Batch b = batch({ints(d2, {10000, 2550, -125}), ints(d2, {95, 5, 1})});
  // price * (1 - discount): scales add up (2 + 2 = 4).
  auto disc = call(ScalarOp::Mul, d4, col(0, d2), call(ScalarOp::Sub, d2, dec(100, 2), col(1, d2)));
  EXPECT_EQ(eval_texts(*disc, b), (Texts{"5.0000", "24.2250", "-1.2375"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Add, d2, col(0, d2), col(1, d2)), b), (Texts{"100.95", "25.55", "-1.24"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Neg, d2, col(0, d2)), b), (Texts{"-100.00", "-25.50", "1.25"}));
  // A product typed with a smaller scale is rounded half away from zero: 25.50 * 0.05 = 1.275 -> 1.28.
  EXPECT_EQ(eval_texts(*call(ScalarOp::Mul, d2, col(0, d2), col(1, d2)), b), (Texts{"95.00", "1.28", "-0.01"}));
  // Operands of different scales are aligned to the result scale: 100.00 + 0.0001.
  EXPECT_EQ(eval_texts(*call(ScalarOp::Add, d4, col(0, d2), dec(1, 4)), b), (Texts{"100.0001", "25.5001", "-1.2499"}));
  // DECIMAL division at the result scale: 100.00 / 0.95 = 105.263157... -> 105.2632.
  EXPECT_EQ(eval_texts(*call(ScalarOp::Div, d4, col(0, d2), col(1, d2)), b),
            (Texts{"105.2632", "510.0000", "-125.0000"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Mod, d2, col(0, d2), dec(300, 2)), b), (Texts{"1.00", "1.50", "-1.25"}));
}

TEST(EvaluatorTest, ComparisonsOfEveryPhysicalKind) {
  Batch b = batch({bigints({1, 2, std::nullopt}), doubles({1.5, -0.0, 2.0}), strings({"B", "a", "\xC3\xA9"})});
  EXPECT_EQ(eval_texts(*cmp(ScalarOp::Lt, col(0, kBig), big(2)), b), (Texts{"true", "false", "NULL"}));
  EXPECT_EQ(eval_texts(*cmp(ScalarOp::Ge, big(2), col(0, kBig)), b), (Texts{"true", "true", "NULL"}));
  EXPECT_EQ(eval_texts(*cmp(ScalarOp::Ne, col(0, kBig), big(1)), b), (Texts{"false", "true", "NULL"}));
  EXPECT_EQ(eval_texts(*cmp(ScalarOp::Eq, col(1, kDbl), dbl(0.0)), b), (Texts{"false", "true", "false"}));
  EXPECT_EQ(eval_texts(*cmp(ScalarOp::Gt, col(1, kDbl), dbl(1.0)), b), (Texts{"true", "false", "true"}));
  // Bytewise: 'B' < 'a' < 'z' < 'é' (0xC3 ...).
  EXPECT_EQ(eval_texts(*cmp(ScalarOp::Lt, col(2, DataType::varchar()), str("z")), b), (Texts{"true", "true", "false"}));
  EXPECT_EQ(eval_texts(*cmp(ScalarOp::Le, col(2, DataType::varchar()), str("a")), b), (Texts{"true", "true", "false"}));
  EXPECT_EQ(eval_texts(*cmp(ScalarOp::Eq, col(0, kBig), null_of(kBig)), b), (Texts{"NULL", "NULL", "NULL"}));
}

// Truth tables over the nine combinations of TRUE, FALSE, NULL.
TEST(EvaluatorTest, AndOrFollowThreeValuedLogic) {
  std::vector<std::optional<int64_t>> a, c;
  for (auto x : {std::optional<int64_t>(1), std::optional<int64_t>(0), std::optional<int64_t>()})
    for (auto y : {std::optional<int64_t>(1), std::optional<int64_t>(0), std::optional<int64_t>()}) {
      a.push_back(x);
      c.push_back(y);
    }
  Batch b = batch({bools(a), bools(c)});
  EXPECT_EQ(eval_texts(*conj(col(0, kBool), col(1, kBool)), b),
            (Texts{"true", "false", "NULL", "false", "false", "false", "NULL", "false", "NULL"}));
  EXPECT_EQ(eval_texts(*disj(col(0, kBool), col(1, kBool)), b),
            (Texts{"true", "true", "true", "true", "false", "NULL", "true", "NULL", "NULL"}));
  EXPECT_EQ(eval_texts(*node(ExprKind::Not, kBool, col(0, kBool)), b),
            (Texts{"false", "false", "false", "true", "true", "true", "NULL", "NULL", "NULL"}));
  // n-ary: one FALSE decides an AND even after a NULL, one TRUE decides an OR.
  EXPECT_EQ(eval_texts(*conj(col(1, kBool), null_of(kBool), col(0, kBool)), b),
            (Texts{"NULL", "false", "NULL", "false", "false", "false", "NULL", "false", "NULL"}));
  EXPECT_EQ(eval_texts(*disj(null_of(kBool), col(0, kBool), boolean(false)), b),
            (Texts{"true", "true", "true", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"}));
}

TEST(EvaluatorTest, AndDoesNotEvaluateLaterOperandsOnDecidedRows) {
  Batch b = batch({bigints({0, 5, 20, std::nullopt})});
  // x <> 0 AND 10 / x > 1 never divides by zero.
  auto guarded = conj(cmp(ScalarOp::Ne, col(0, kBig), big(0)),
                      cmp(ScalarOp::Gt, call(ScalarOp::Div, kBig, big(10), col(0, kBig)), big(1)));
  EXPECT_EQ(eval_texts(*guarded, b), (Texts{"false", "true", "false", "NULL"}));
  auto either = disj(cmp(ScalarOp::Eq, col(0, kBig), big(0)),
                     cmp(ScalarOp::Gt, call(ScalarOp::Div, kBig, big(10), col(0, kBig)), big(1)));
  EXPECT_EQ(eval_texts(*either, b), (Texts{"true", "true", "false", "NULL"}));
}

TEST(EvaluatorTest, IsNullIsNeverNull) {
  Batch b = batch({strings({"x", std::nullopt})});
  auto is_null = node(ExprKind::IsNull, kBool, col(0, DataType::varchar()));
  EXPECT_EQ(eval_texts(*is_null, b), (Texts{"false", "true"}));
  is_null->negated = true;
  EXPECT_EQ(eval_texts(*is_null, b), (Texts{"true", "false"}));
  EXPECT_EQ(eval_texts(*node(ExprKind::IsNull, kBool, null_of(kBig)), b), (Texts{"true", "true"}));
}

TEST(EvaluatorTest, InListFollowsSqlNullSemantics) {
  Batch b = batch({bigints({1, 3, std::nullopt})});
  auto in = node(ExprKind::InList, kBool, col(0, kBig), big(1), big(2));
  EXPECT_EQ(eval_texts(*in, b), (Texts{"true", "false", "NULL"}));
  in->negated = true;
  EXPECT_EQ(eval_texts(*in, b), (Texts{"false", "true", "NULL"}));
  // A NULL in the list: found -> TRUE, not found -> NULL (NOT IN: FALSE / NULL).
  auto with_null = node(ExprKind::InList, kBool, col(0, kBig), big(1), null_of(kBig));
  EXPECT_EQ(eval_texts(*with_null, b), (Texts{"true", "NULL", "NULL"}));
  with_null->negated = true;
  EXPECT_EQ(eval_texts(*with_null, b), (Texts{"false", "NULL", "NULL"}));
  // Non-constant elements are compared row by row.
  Batch two = batch({bigints({1, 2, 3}), bigints({5, 2, std::nullopt})});
  auto dynamic = node(ExprKind::InList, kBool, col(0, kBig), big(1), col(1, kBig));
  EXPECT_EQ(eval_texts(*dynamic, two), (Texts{"true", "true", "NULL"}));
}

TEST(EvaluatorTest, LongInListsUseTheirSetRepresentation) {
  std::vector<std::optional<int64_t>> xs;
  for (int64_t i = 0; i < 40; ++i) xs.push_back(i);
  Batch b = batch({bigints(xs), strings({"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n",
                                         "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "A", "B",
                                         "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N"}),
                   doubles(std::vector<std::optional<double>>(40, 0.5))});
  auto in_ints = node(ExprKind::InList, kBool, col(0, kBig));
  for (int64_t v : {39, 2, 17, 5, 11, 23, 31, 7, 3, 29, 13, 19}) in_ints->children.push_back(big(v));
  auto in_strs = node(ExprKind::InList, kBool, col(1, DataType::varchar()));
  for (const char* s : {"z", "q", "a", "N", "m", "k", "zz", "e", "b", "c", "d"}) in_strs->children.push_back(str(s));
  ColumnVector r1 = evaluate(*in_ints, b), r2 = evaluate(*in_strs, b);
  const std::set<int64_t> int_members = {39, 2, 17, 5, 11, 23, 31, 7, 3, 29, 13, 19};
  const std::set<size_t> str_members = {25, 16, 0, 39, 12, 10, 4, 1, 2, 3};
  for (size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(r1.ints[i], int_members.count(static_cast<int64_t>(i))) << i;
    EXPECT_EQ(r2.ints[i], str_members.count(i)) << i;
  }
  auto in_dbls = node(ExprKind::InList, kBool, col(2, kDbl), dbl(0.25), dbl(0.5));
  EXPECT_EQ(evaluate(*in_dbls, b).ints, std::vector<int64_t>(40, 1));
}

TEST(EvaluatorTest, CaseEvaluatesEachBranchOnlyOnItsRows) {
  Batch b = batch({bigints({0, 5, std::nullopt, -2})});
  // CASE WHEN x <> 0 THEN 10 / x ELSE 0 END: the THEN branch never sees x = 0.
  auto safe = node(ExprKind::Case, kBig, cmp(ScalarOp::Ne, col(0, kBig), big(0)),
                   call(ScalarOp::Div, kBig, big(10), col(0, kBig)), big(-1));
  safe->has_else = true;
  EXPECT_EQ(eval_texts(*safe, b), (Texts{"-1", "2", "-1", "-5"}));
  // The first matching WHEN wins; a NULL condition does not match; no ELSE gives NULL.
  auto tiers = node(ExprKind::Case, DataType::varchar(), cmp(ScalarOp::Gt, col(0, kBig), big(1)), str("big"),
                    cmp(ScalarOp::Ge, col(0, kBig), big(0)), str("small"));
  EXPECT_EQ(eval_texts(*tiers, b), (Texts{"small", "big", "NULL", "NULL"}));
  // An ELSE that divides by zero only fails when some row reaches it.
  auto else_fails = node(ExprKind::Case, kBig, cmp(ScalarOp::Gt, col(0, kBig), big(-100)), big(1),
                         call(ScalarOp::Div, kBig, big(1), big(0)));
  else_fails->has_else = true;
  EXPECT_EQ(error_code_of([&] { evaluate(*else_fails, b); }), ErrorCode::DATA_ERROR);  // the NULL row reaches ELSE
  EXPECT_EQ(eval_texts(*else_fails, batch({bigints({1, 2})})), (Texts{"1", "1"}));
}

TEST(EvaluatorTest, CoalesceAndNullIf) {
  Batch b = batch({bigints({std::nullopt, 2, std::nullopt}), bigints({0, 0, 4})});
  auto co = call(ScalarOp::Coalesce, kBig, col(0, kBig), null_of(kBig), col(1, kBig), big(9));
  EXPECT_EQ(eval_texts(*co, b), (Texts{"0", "2", "4"}));
  // Later arguments only run where the earlier ones are NULL: 10 / y is never computed with y = 0 on row 2.
  Batch lazy = batch({bigints({std::nullopt, 2}), bigints({5, 0})});
  auto guarded = call(ScalarOp::Coalesce, kBig, col(0, kBig), call(ScalarOp::Div, kBig, big(10), col(1, kBig)));
  EXPECT_EQ(eval_texts(*guarded, lazy), (Texts{"2", "2"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Coalesce, kBig, null_of(kBig), col(0, kBig)), b), (Texts{"NULL", "2", "NULL"}));
  Batch nb = batch({bigints({1, 2, std::nullopt}), bigints({1, 3, 1})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::NullIf, kBig, col(0, kBig), col(1, kBig)), nb), (Texts{"NULL", "2", "NULL"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::NullIf, kBig, col(0, kBig), null_of(kBig)), nb), (Texts{"1", "2", "NULL"}));
}

TEST(EvaluatorTest, AbsAndRound) {
  Batch b = batch({doubles({2.5, -2.5, 1.23456, std::nullopt}), ints(DataType::decimal(15, 3), {1245, -1245, 999, 5})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::Abs, kDbl, col(0, kDbl)), b), (Texts{"2.5", "2.5", "1.23456", "NULL"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Round, kDbl, col(0, kDbl)), b), (Texts{"3.0", "-3.0", "1.0", "NULL"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Round, kDbl, col(0, kDbl), big(3)), b), (Texts{"2.5", "-2.5", "1.235", "NULL"}));
  const DataType d3 = DataType::decimal(15, 3), d2 = DataType::decimal(15, 2);
  // Half away from zero at the requested digits, result at the result type's scale.
  EXPECT_EQ(eval_texts(*call(ScalarOp::Round, d3, col(1, d3), big(2)), b),
            (Texts{"1.250", "-1.250", "1.000", "0.010"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Round, d2, col(1, d3), big(2)), b), (Texts{"1.25", "-1.25", "1.00", "0.01"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Round, d3, col(1, d3), big(0)), b),
            (Texts{"1.000", "-1.000", "1.000", "0.000"}));
  Batch big_values = batch({ints(d2, {123456, -155000})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::Round, d2, col(0, d2), big(-2)), big_values), (Texts{"1200.00", "-1600.00"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Abs, d2, col(0, d2)), big_values), (Texts{"1234.56", "1550.00"}));
}

TEST(EvaluatorTest, DateArithmeticAcrossMonthEndsAndLeapYears) {
  const DataType dt = DataType::date();
  Batch b = batch({ints(dt, {day("1996-02-28"), day("1995-02-28"), day("1996-01-31"), day("1999-12-31")})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::DateAddDays, dt, col(0, dt), lit(Value::integer(1))), b),
            (Texts{"1996-02-29", "1995-03-01", "1996-02-01", "2000-01-01"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::DateAddMonths, dt, col(0, dt), lit(Value::integer(1))), b),
            (Texts{"1996-03-28", "1995-03-28", "1996-02-29", "2000-01-31"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::DateAddMonths, dt, date("1996-02-29"), lit(Value::integer(12))), b)[0],
            "1997-02-28");
  EXPECT_EQ(eval_texts(*call(ScalarOp::DateAddMonths, dt, date("1996-03-31"), lit(Value::integer(-1))), b)[0],
            "1996-02-29");
  EXPECT_EQ(eval_texts(*call(ScalarOp::DateAddDays, dt, date("1995-03-01"), lit(Value::integer(-1))), b)[0],
            "1995-02-28");
  EXPECT_EQ(eval_texts(*call(ScalarOp::DateDiffDays, kInt, date("1997-03-01"), col(0, dt)), b),
            (Texts{"367", "732", "395", "-1035"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::ExtractYear, kInt, col(0, dt)), b), (Texts{"1996", "1995", "1996", "1999"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::ExtractMonth, kInt, col(0, dt)), b), (Texts{"2", "2", "1", "12"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::ExtractDay, kInt, col(0, dt)), b), (Texts{"28", "28", "31", "31"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::ExtractYear, kInt, date("1969-12-31")), b)[0], "1969");
}

TEST(EvaluatorTest, EvaluateConstantFoldsWithoutColumns) {
  EXPECT_EQ(evaluate_constant(*call(ScalarOp::Add, kBig, big(40), big(2))), Value::bigint(42));
  Value v = evaluate_constant(*call(ScalarOp::Add, kBig, big(1), null_of(kBig)));
  EXPECT_TRUE(v.is_null);
  EXPECT_EQ(v.type, kBig);
  EXPECT_EQ(evaluate_constant(*call(ScalarOp::Upper, DataType::varchar(), str("abc"))), Value::varchar("ABC"));
  EXPECT_EQ(evaluate_constant(*Expr::cast(str("1995-03-15"), DataType::date())), Value::date(day("1995-03-15")));
  EXPECT_EQ(error_code_of([&] { evaluate_constant(*call(ScalarOp::Add, kBig, col(0, kBig), big(1))); }),
            ErrorCode::INTERNAL);
  EXPECT_EQ(error_code_of([&] { evaluate_constant(*call(ScalarOp::Div, kBig, big(1), big(0))); }),
            ErrorCode::DATA_ERROR);
}

TEST(EvaluatorTest, EmptyBatchEvaluatesNothing) {
  Batch empty = batch({bigints({})});
  ColumnVector r = evaluate(*call(ScalarOp::Div, kBig, big(1), big(0)), empty);
  EXPECT_EQ(r.size(), 0u);
  EXPECT_EQ(r.type, kBig);
  EXPECT_EQ(evaluate(*col(0, kBig), empty).size(), 0u);
}

TEST(EvaluatorTest, ResultHasTheExpressionTypeAndRowCount) {
  Batch b = batch({bigints({1, 2, 3})});
  ColumnVector r = evaluate(*big(7), b);
  EXPECT_EQ(r.type, kBig);
  EXPECT_EQ(r.ints, (std::vector<int64_t>{7, 7, 7}));
  EXPECT_FALSE(r.has_nulls());
  ColumnVector n = evaluate(*null_of(DataType::varchar()), b);
  EXPECT_EQ(n.type, DataType::varchar());
  EXPECT_EQ(n.size(), 3u);
  EXPECT_TRUE(n.is_null(2));
  EXPECT_EQ(evaluate(*col(0, kBig), b).ints, (std::vector<int64_t>{1, 2, 3}));
}

}  // namespace
}  // namespace hindsight
