#include "planner/storage/field_parser.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace hindsight {
namespace {

int64_t decimal(std::string_view text, int p, int s) {
  int64_t v = -12345;
  EXPECT_TRUE(parse_int64_field(DataType::decimal(static_cast<uint8_t>(p), static_cast<uint8_t>(s)), text, v)) << text;
  return v;
}

bool decimal_fails(std::string_view text, int p, int s) {
  int64_t v;
  return !parse_int64_field(DataType::decimal(static_cast<uint8_t>(p), static_cast<uint8_t>(s)), text, v);
}

TEST(FieldParserTest, DecimalsUseTheWholePrecisionUpTo18Digits) {
  // These used to be rejected: the general path capped the integer part near 9.2e15 whatever the precision.
  EXPECT_EQ(decimal("999999999999999999", 18, 0), 999999999999999999);
  EXPECT_EQ(decimal("-999999999999999999", 18, 0), -999999999999999999);
  EXPECT_EQ(decimal("9999999999999999.99", 18, 2), 999999999999999999);
  EXPECT_EQ(decimal("-46597860805491331.0", 18, 1), -465978608054913310);
  EXPECT_EQ(decimal("0.999999999999999999", 18, 18), 999999999999999999);
  EXPECT_EQ(decimal("-.999999999999999999", 18, 18), -999999999999999999);
  EXPECT_EQ(decimal("000000000000000000000001.50", 18, 2), 150);  // leading zeros are not digits of the precision
  EXPECT_TRUE(decimal_fails("1000000000000000000", 18, 0));
  EXPECT_TRUE(decimal_fails("10000000000000000.00", 18, 2));
  EXPECT_TRUE(decimal_fails("1.0", 18, 18));
  EXPECT_TRUE(decimal_fails("99999999999999999999999999", 18, 0));
}

TEST(FieldParserTest, DecimalRoundingSignsAndMalformedText) {
  EXPECT_EQ(decimal("1.005", 15, 2), 101);  // half away from zero
  EXPECT_EQ(decimal("-1.005", 15, 2), -101);
  EXPECT_EQ(decimal("1.00499", 15, 2), 100);
  EXPECT_EQ(decimal("+7", 15, 2), 700);
  EXPECT_EQ(decimal("7.", 15, 2), 700);
  EXPECT_EQ(decimal(".5", 15, 2), 50);
  EXPECT_EQ(decimal("12", 5, 0), 12);
  EXPECT_TRUE(decimal_fails("99999.995", 7, 2));  // rounds up past the precision
  for (std::string_view bad : {"", ".", "-", "+", "1.2.3", "1e5", " 1", "1 ", "--1", "0x10"})
    EXPECT_TRUE(decimal_fails(bad, 15, 2)) << "'" << bad << "'";
}

TEST(FieldParserTest, IntegersBooleansAndDoubles) {
  int64_t v;
  EXPECT_TRUE(parse_int64_field(DataType::bigint(), "-9223372036854775808", v));
  EXPECT_EQ(v, std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(parse_int64_field(DataType::bigint(), "9223372036854775808", v));
  EXPECT_FALSE(parse_int64_field(DataType::integer(), "2147483648", v));
  EXPECT_TRUE(parse_int64_field(DataType::boolean(), "TRUE", v));
  EXPECT_EQ(v, 1);
  EXPECT_FALSE(parse_int64_field(DataType::boolean(), "", v));
  double d;
  for (std::string_view special : {"NaN", "Infinity", "-Infinity", "inf"}) EXPECT_TRUE(parse_double_field(special, d));
  EXPECT_TRUE(parse_double_field("-0.0", d));
  EXPECT_TRUE(std::signbit(d));
  EXPECT_FALSE(parse_double_field("", d));
  EXPECT_FALSE(parse_double_field("1.5x", d));
}

}  // namespace
}  // namespace hindsight
