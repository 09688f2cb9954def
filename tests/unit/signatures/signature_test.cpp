#include "signatures/signature.hpp"

#include <gtest/gtest.h>

#include <set>
#include <unordered_set>

namespace hindsight::sig {
namespace {

TEST(SignatureTest, HexIsHiFirstLowercaseAndRoundTrips) {
  Signature s{0x0123456789ABCDEFULL, 0xFEDCBA9876543210ULL};
  EXPECT_EQ(s.hex(), "0123456789abcdeffedcba9876543210");
  EXPECT_EQ(s.short_hex(), "01234567");
  auto back = Signature::from_hex(s.hex());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, s);
  EXPECT_EQ(Signature{}.hex(), std::string(32, '0'));
  EXPECT_EQ(Signature::from_hex(std::string(32, '0')), Signature{});
}

TEST(SignatureTest, FromHexAcceptsUpperCase) {
  auto s = Signature::from_hex("0123456789ABCDEFFEDCBA9876543210");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->hi, 0x0123456789ABCDEFULL);
  EXPECT_EQ(s->lo, 0xFEDCBA9876543210ULL);
}

TEST(SignatureTest, FromHexRejectsMalformedText) {
  EXPECT_FALSE(Signature::from_hex(""));
  EXPECT_FALSE(Signature::from_hex("0123456789abcdeffedcba987654321"));    // 31 chars
  EXPECT_FALSE(Signature::from_hex("0123456789abcdeffedcba98765432100"));  // 33 chars
  EXPECT_FALSE(Signature::from_hex("0123456789abcdeffedcba987654321g"));
  EXPECT_FALSE(Signature::from_hex("0x23456789abcdeffedcba9876543210"));
  EXPECT_FALSE(Signature::from_hex(" 123456789abcdeffedcba9876543210"));
}

TEST(SignatureTest, ComparisonOrdersByHiThenLo) {
  Signature a{1, 9}, b{2, 0}, c{2, 1};
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_NE(a, b);
  EXPECT_EQ(c, (Signature{2, 1}));
  EXPECT_FALSE(c < c);
  std::set<Signature> ordered{c, a, b};
  EXPECT_EQ(*ordered.begin(), a);
}

TEST(SignatureTest, UsableInUnorderedContainers) {
  std::unordered_set<Signature> set{{1, 2}, {2, 1}, {1, 2}};
  EXPECT_EQ(set.size(), 2u);
  EXPECT_TRUE(set.count(Signature{2, 1}));
}

}  // namespace
}  // namespace hindsight::sig
