#include <gtest/gtest.h>

#include <climits>
#include <cmath>

#include "tests/unit/planner/expr/expr_test_util.hpp"

namespace hindsight {
namespace {

using namespace expr_test;

const DataType kStr = DataType::varchar();
const DataType kBig = DataType::bigint();
const DataType kInt = DataType::integer();
const DataType kDbl = DataType::float64();

Texts cast_texts(ColumnVector c, DataType to) {
  DataType from = c.type;
  return eval_texts(*Expr::cast(col(0, from), to), batch({std::move(c)}));
}
std::optional<ErrorCode> cast_error(ColumnVector c, DataType to, std::string* msg = nullptr) {
  DataType from = c.type;
  Batch b = batch({std::move(c)});
  return error_code_of([&] { evaluate(*Expr::cast(col(0, from), to), b); }, msg);
}

TEST(EvaluatorCastTest, IntegerWidths) {
  EXPECT_EQ(cast_texts(ints(kInt, {1, -5, std::nullopt}), kBig), (Texts{"1", "-5", "NULL"}));
  EXPECT_EQ(cast_texts(bigints({INT32_MAX, INT32_MIN}), kInt), (Texts{"2147483647", "-2147483648"}));
  EXPECT_EQ(cast_error(bigints({int64_t{INT32_MAX} + 1}), kInt), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(bigints({int64_t{INT32_MIN} - 1}), kInt), ErrorCode::DATA_ERROR);
  // Out-of-range values under a NULL are not checked.
  ColumnVector c = bigints({INT64_MAX, 1});
  c.set_null(0);
  EXPECT_EQ(cast_texts(c, kInt), (Texts{"NULL", "1"}));
}

TEST(EvaluatorCastTest, ToDecimalScalesUpWithOverflowCheck) {
  const DataType d2 = DataType::decimal(15, 2);
  EXPECT_EQ(cast_texts(bigints({3, -7}), d2), (Texts{"3.00", "-7.00"}));
  EXPECT_EQ(cast_error(bigints({INT64_MAX / 10}), d2), ErrorCode::DATA_ERROR);
  // DECIMAL -> DECIMAL: scaling down rounds half away from zero.
  EXPECT_EQ(cast_texts(ints(DataType::decimal(15, 3), {1245, -1245, 1244, 5}), d2),
            (Texts{"1.25", "-1.25", "1.24", "0.01"}));
  EXPECT_EQ(cast_texts(ints(d2, {125}), DataType::decimal(18, 6)), (Texts{"1.250000"}));
  EXPECT_EQ(cast_error(ints(d2, {INT64_MAX / 100}), DataType::decimal(18, 6)), ErrorCode::DATA_ERROR);
}

TEST(EvaluatorCastTest, ToDecimalHonoursThePrecision) {
  const DataType d42 = DataType::decimal(4, 2);  // |value| < 100
  std::string msg;
  // BIGINT -> DECIMAL(4,2): 1234567 became 1234567.00.
  EXPECT_EQ(cast_error(bigints({1234567}), d42, &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "value 1234567 is out of range for DECIMAL(4,2) (at most 2 digits before the decimal point)");
  EXPECT_EQ(cast_error(bigints({100}), d42), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(bigints({-100}), d42), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_texts(bigints({99, -99}), d42), (Texts{"99.00", "-99.00"}));
  // VARCHAR -> DECIMAL(4,2): '12345.67' stayed 12345.67. Rounding to the scale happens first, half away from zero.
  EXPECT_EQ(cast_error(strings({"12345.67"}), d42, &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "value 12345.67 is out of range for DECIMAL(4,2) (at most 2 digits before the decimal point)");
  EXPECT_EQ(cast_texts(strings({"99.994", "-99.994", "0.005", "-0.005"}), d42),
            (Texts{"99.99", "-99.99", "0.01", "-0.01"}));
  EXPECT_EQ(cast_error(strings({"99.995"}), d42), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(strings({"-99.995"}), d42), ErrorCode::DATA_ERROR);
  // DECIMAL -> DECIMAL with a smaller scale or precision (also at the same scale).
  EXPECT_EQ(cast_texts(ints(DataType::decimal(5, 3), {12345, -99994}), d42), (Texts{"12.35", "-99.99"}));
  EXPECT_EQ(cast_error(ints(DataType::decimal(5, 3), {99995}), d42), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(ints(DataType::decimal(6, 2), {10000}), d42, &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "value 100.00 is out of range for DECIMAL(4,2) (at most 2 digits before the decimal point)");
  EXPECT_EQ(cast_texts(ints(DataType::decimal(6, 2), {9999}), d42), (Texts{"99.99"}));
  // DOUBLE -> DECIMAL rounds as written, then checks.
  EXPECT_EQ(cast_texts(doubles({99.994, -2.675}), d42), (Texts{"99.99", "-2.68"}));
  EXPECT_EQ(cast_error(doubles({99.995}), d42), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(doubles({1e300}), DataType::decimal(18, 0), &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "value 1e+300 is out of range for DECIMAL(18,0) (at most 18 digits before the decimal point)");
  // DECIMAL(p,0) and DECIMAL(p,p).
  EXPECT_EQ(cast_error(bigints({10}), DataType::decimal(1, 0)), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_texts(strings({"0.99"}), DataType::decimal(2, 2)), (Texts{"0.99"}));
  EXPECT_EQ(cast_error(strings({"1"}), DataType::decimal(2, 2)), ErrorCode::DATA_ERROR);
  // NULLs are never checked.
  ColumnVector c = bigints({1234567, 1});
  c.set_null(0);
  EXPECT_EQ(cast_texts(c, d42), (Texts{"NULL", "1.00"}));
}

TEST(EvaluatorCastTest, NumericToDoubleAndBack) {
  EXPECT_EQ(cast_texts(ints(DataType::decimal(15, 2), {-125, 1}), kDbl), (Texts{"-1.25", "0.01"}));
  EXPECT_EQ(cast_texts(bigints({3}), kDbl), (Texts{"3.0"}));
  // DOUBLE -> integer rounds half away from zero.
  EXPECT_EQ(cast_texts(doubles({2.5, -2.5, 2.4999, -0.4}), kBig), (Texts{"3", "-3", "2", "0"}));
  EXPECT_EQ(cast_texts(doubles({2147483647.4}), kInt), (Texts{"2147483647"}));
  EXPECT_EQ(cast_error(doubles({2147483647.5}), kInt), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(doubles({9.3e18}), kBig), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(doubles({std::nan("")}), kBig), ErrorCode::DATA_ERROR);
  // DOUBLE -> DECIMAL rounds the value as written: 2.675 -> 2.68 (its binary value is 2.67499999...).
  const DataType d2 = DataType::decimal(15, 2);
  EXPECT_EQ(cast_texts(doubles({2.675, -0.005, 0.1, 1e-9}), d2), (Texts{"2.68", "-0.01", "0.10", "0.00"}));
  EXPECT_EQ(cast_error(doubles({1e17}), d2), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(doubles({INFINITY}), d2), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_texts(ints(DataType::decimal(15, 2), {250, -250, 249}), kBig), (Texts{"3", "-3", "2"}));
}

TEST(EvaluatorCastTest, FromVarcharParsesOrFails) {
  EXPECT_EQ(cast_texts(strings({"42", " -7 ", "+3", std::nullopt}), kBig), (Texts{"42", "-7", "3", "NULL"}));
  std::string msg;
  EXPECT_EQ(cast_error(strings({"4x"}), kBig, &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "invalid integer '4x'");
  EXPECT_EQ(cast_error(strings({""}), kBig), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(strings({"1.5"}), kBig), ErrorCode::DATA_ERROR);
  EXPECT_EQ(cast_error(strings({"99999999999999999999"}), kBig, &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "numeric overflow");
  EXPECT_EQ(cast_error(strings({"3000000000"}), kInt), ErrorCode::DATA_ERROR);

  const DataType d2 = DataType::decimal(15, 2);
  EXPECT_EQ(cast_texts(strings({"12.345", "-0.005", ".5", "7"}), d2), (Texts{"12.35", "-0.01", "0.50", "7.00"}));
  EXPECT_EQ(cast_error(strings({"1.2.3"}), d2, &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "invalid decimal '1.2.3'");
  EXPECT_EQ(cast_error(strings({"92233720368547758.08"}), d2), ErrorCode::DATA_ERROR);

  EXPECT_EQ(cast_texts(strings({"1.5", "-2e3", " 0.25"}), kDbl), (Texts{"1.5", "-2000.0", "0.25"}));
  EXPECT_EQ(cast_error(strings({"abc"}), kDbl), ErrorCode::DATA_ERROR);

  EXPECT_EQ(cast_texts(strings({"1996-02-29", std::nullopt}), DataType::date()), (Texts{"1996-02-29", "NULL"}));
  EXPECT_EQ(cast_error(strings({"1995-02-29"}), DataType::date(), &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "invalid date '1995-02-29'");
  EXPECT_EQ(cast_error(strings({"yesterday"}), DataType::date()), ErrorCode::DATA_ERROR);

  EXPECT_EQ(cast_texts(strings({"true", "F", "yes", "0"}), DataType::boolean()),
            (Texts{"true", "false", "true", "false"}));
  EXPECT_EQ(cast_error(strings({"maybe"}), DataType::boolean()), ErrorCode::DATA_ERROR);
}

TEST(EvaluatorCastTest, ToVarcharUsesResultFormatting) {
  EXPECT_EQ(cast_texts(ints(DataType::decimal(15, 2), {-5, 123456}), kStr), (Texts{"-0.05", "1234.56"}));
  EXPECT_EQ(cast_texts(ints(DataType::date(), {day("1995-03-15")}), kStr), (Texts{"1995-03-15"}));
  EXPECT_EQ(cast_texts(doubles({2.0, 0.1}), kStr), (Texts{"2.0", "0.1"}));
  EXPECT_EQ(cast_texts(bools({1, 0, std::nullopt}), kStr), (Texts{"true", "false", "NULL"}));
  EXPECT_EQ(cast_texts(bigints({-12}), kStr), (Texts{"-12"}));
}

TEST(EvaluatorCastTest, BooleanAndIntegers) {
  EXPECT_EQ(cast_texts(bools({1, 0}), kInt), (Texts{"1", "0"}));
  EXPECT_EQ(cast_texts(bigints({5, 0, -1}), DataType::boolean()), (Texts{"true", "false", "true"}));
}

TEST(EvaluatorCastTest, UnsupportedAndNullCasts) {
  EXPECT_EQ(cast_error(ints(DataType::date(), {0}), kDbl), ErrorCode::NOT_SUPPORTED);
  EXPECT_EQ(cast_error(doubles({1.0}), DataType::date()), ErrorCode::NOT_SUPPORTED);
  // CAST(NULL AS t) is a NULL of type t.
  ColumnVector r = evaluate(*Expr::cast(lit(Value::null()), DataType::date()), batch({bigints({1, 2})}));
  EXPECT_EQ(r.type, DataType::date());
  EXPECT_TRUE(r.is_null(0) && r.is_null(1));
  // A literal whose value type differs from its node type is converted.
  auto widened = lit(Value::integer(5));
  widened->type = DataType::decimal(15, 2);
  EXPECT_EQ(eval_texts(*widened, batch({bigints({1})})), (Texts{"5.00"}));
}

}  // namespace
}  // namespace hindsight
