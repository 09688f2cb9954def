#include "planner/common/date.hpp"

#include <gtest/gtest.h>

#include "planner/common/types.hpp"
#include "planner/common/value.hpp"

namespace hindsight {

TEST(DateTest, RoundTripsAcrossLeapYears) {
  int64_t d;
  ASSERT_TRUE(parse_date("1970-01-01", d));
  EXPECT_EQ(d, 0);
  ASSERT_TRUE(parse_date("1996-02-29", d));
  EXPECT_EQ(format_date(d), "1996-02-29");
  EXPECT_EQ(format_date(d + 1), "1996-03-01");
  EXPECT_FALSE(parse_date("1995-02-29", d));
  EXPECT_FALSE(parse_date("1995-13-01", d));
  EXPECT_FALSE(parse_date("95-01-01", d));
}

TEST(DateTest, AddMonthsClampsToMonthEnd) {
  int64_t d;
  ASSERT_TRUE(parse_date("1995-01-31", d));
  auto plus = [&](int64_t months) {
    int64_t out = 0;
    EXPECT_TRUE(add_months(d, months, out));
    return format_date(out);
  };
  EXPECT_EQ(plus(1), "1995-02-28");
  EXPECT_EQ(plus(12), "1996-01-31");
  EXPECT_EQ(plus(-2), "1994-11-30");
}

TEST(DateTest, TheRangeIsYear1ToYear9999) {
  EXPECT_EQ(kMinDateDays, days_from_civil(1, 1, 1));
  EXPECT_EQ(kMaxDateDays, days_from_civil(9999, 12, 31));
  int64_t d = 0;
  EXPECT_TRUE(parse_date("0001-01-01", d));
  EXPECT_EQ(d, kMinDateDays);
  EXPECT_TRUE(parse_date("9999-12-31", d));
  EXPECT_EQ(d, kMaxDateDays);
  EXPECT_FALSE(parse_date("0000-12-31", d));
}

TEST(DateTest, ArithmeticLeavingTheRangeFailsWithoutOverflow) {
  int64_t out = 12345;
  EXPECT_TRUE(add_days(kMaxDateDays - 1, 1, out));
  EXPECT_EQ(format_date(out), "9999-12-31");
  out = 12345;
  EXPECT_FALSE(add_days(kMaxDateDays, 1, out));  // 10000-01-01
  EXPECT_FALSE(add_days(kMinDateDays, -1, out));
  EXPECT_FALSE(add_days(0, int64_t{1} << 62, out));
  EXPECT_FALSE(add_days(0, INT64_MAX, out));
  EXPECT_FALSE(add_days(0, INT64_MIN, out));
  EXPECT_FALSE(add_days(INT64_MAX, -1, out));  // not a DATE to begin with
  EXPECT_EQ(out, 12345);                       // untouched on failure

  int64_t d = 0;
  ASSERT_TRUE(parse_date("9999-11-30", d));
  EXPECT_TRUE(add_months(d, 1, out));
  EXPECT_EQ(format_date(out), "9999-12-30");
  EXPECT_FALSE(add_months(d, 2, out));
  EXPECT_FALSE(add_months(kMinDateDays, -1, out));
  EXPECT_FALSE(add_months(0, INT64_MAX, out));
  EXPECT_FALSE(add_months(0, INT64_MIN, out));
  EXPECT_FALSE(add_months(0, int64_t{12} * 1000000000000, out));
  EXPECT_TRUE(add_months(kMaxDateDays, -(9998 * 12 + 11), out));
  EXPECT_EQ(format_date(out), "0001-01-31");
}

TEST(DecimalTest, ParsesAndFormatsScaledIntegers) {
  int64_t v;
  ASSERT_TRUE(parse_decimal("-12.5", 2, v));
  EXPECT_EQ(v, -1250);
  EXPECT_EQ(format_decimal(v, 2), "-12.50");
  ASSERT_TRUE(parse_decimal("0.125", 2, v));
  EXPECT_EQ(v, 13);  // half away from zero
  EXPECT_FALSE(parse_decimal("1.2.3", 2, v));
  EXPECT_FALSE(parse_decimal("", 2, v));
  EXPECT_EQ(format_decimal(-5, 2), "-0.05");
}

TEST(TypesTest, ParsesTypeNames) {
  DataType t;
  ASSERT_TRUE(parse_type_name("DECIMAL(15, 2)", t));
  EXPECT_EQ(t, DataType::decimal(15, 2));
  ASSERT_TRUE(parse_type_name("varchar(25)", t));
  EXPECT_EQ(t, DataType::varchar());
  EXPECT_FALSE(parse_type_name("int(3)", t));
  EXPECT_FALSE(parse_type_name("blob", t));
  EXPECT_EQ(Value::decimal(1234, 15, 2).to_string(), "12.34");
  EXPECT_EQ(Value::varchar("it's").to_sql(), "'it''s'");
}

}  // namespace hindsight
