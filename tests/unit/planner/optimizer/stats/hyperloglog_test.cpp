#include "planner/optimizer/stats/hyperloglog.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace hindsight {
namespace {

TEST(HyperLogLogTest, EmptySketchEstimatesZero) {
  HyperLogLog hll;
  EXPECT_TRUE(hll.empty());
  EXPECT_EQ(hll.estimate(), 0.0);
}

TEST(HyperLogLogTest, SmallSetsAreCountedExactly) {
  for (int n : {1, 2, 3, 10, 20, 50}) {
    HyperLogLog hll;
    for (int i = 0; i < n; ++i) hll.add_int64(i * 31 + 7);
    EXPECT_EQ(std::llround(hll.estimate()), n) << n;
  }
  // Beyond that, register collisions add the usual ~1.6 % relative error.
  for (int n : {100, 200, 500}) {
    HyperLogLog hll;
    for (int i = 0; i < n; ++i) hll.add_int64(i * 31 + 7);
    EXPECT_NEAR(hll.estimate(), n, 0.03 * n + 1) << n;
  }
  HyperLogLog words;
  for (const char* w : {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"}) words.add_bytes(w);
  EXPECT_EQ(std::llround(words.estimate()), 7);
}

TEST(HyperLogLogTest, DuplicatesDoNotCount) {
  HyperLogLog hll;
  for (int rep = 0; rep < 50; ++rep) {
    for (int i = 0; i < 3; ++i) hll.add_int64(i);
  }
  EXPECT_EQ(std::llround(hll.estimate()), 3);
}

TEST(HyperLogLogTest, WithinFivePercentOnAMillionDistinctIntegers) {
  HyperLogLog hll;
  constexpr int kN = 1'000'000;
  for (int i = 0; i < kN; ++i) {
    hll.add_int64(i);
    hll.add_int64(i);  // duplicates are free
  }
  EXPECT_NEAR(hll.estimate(), kN, 0.05 * kN);
}

TEST(HyperLogLogTest, WithinFivePercentOnAMillionDistinctStrings) {
  HyperLogLog hll;
  constexpr int kN = 1'000'000;
  for (int i = 0; i < kN; ++i) hll.add_bytes("Customer#" + std::to_string(i));
  EXPECT_NEAR(hll.estimate(), kN, 0.05 * kN);
}

TEST(HyperLogLogTest, WithinFivePercentAcrossCardinalities) {
  for (int n : {1'000, 5'000, 10'000, 12'000, 20'000, 100'000}) {
    HyperLogLog hll;
    for (int i = 0; i < n; ++i) hll.add_int64(static_cast<int64_t>(i) * 1'000'003);
    EXPECT_NEAR(hll.estimate(), n, 0.05 * n) << n;
  }
}

TEST(HyperLogLogTest, MergeIsTheUnion) {
  HyperLogLog a, b, both;
  for (int i = 0; i < 60'000; ++i) {
    a.add_int64(i);
    both.add_int64(i);
  }
  for (int i = 40'000; i < 100'000; ++i) {
    b.add_int64(i);
    both.add_int64(i);
  }
  a.merge(b);
  EXPECT_EQ(a.estimate(), both.estimate());
  EXPECT_NEAR(a.estimate(), 100'000, 5'000);
}

TEST(HyperLogLogTest, DoublesFoldNegativeZero) {
  HyperLogLog hll;
  hll.add_double(0.0);
  hll.add_double(-0.0);
  hll.add_double(1.5);
  EXPECT_EQ(std::llround(hll.estimate()), 2);
}

}  // namespace
}  // namespace hindsight
