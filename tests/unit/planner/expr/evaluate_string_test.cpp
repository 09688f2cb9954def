#include <gtest/gtest.h>

#include <chrono>

#include "planner/expr/like_pattern.hpp"
#include "tests/unit/planner/expr/expr_test_util.hpp"

namespace hindsight {
namespace {

using namespace expr_test;

const DataType kStr = DataType::varchar();
const DataType kBig = DataType::bigint();

bool like(const char* s, const char* p) { return LikePattern(p).matches(s); }

TEST(ExprLikePatternTest, LiteralPrefixSuffixAndContains) {
  EXPECT_TRUE(like("abc", "abc"));
  EXPECT_FALSE(like("abcd", "abc"));
  EXPECT_TRUE(like("", ""));
  EXPECT_FALSE(like("a", ""));
  EXPECT_TRUE(like("PROMO BRUSHED", "PROMO%"));
  EXPECT_FALSE(like("XPROMO", "PROMO%"));
  EXPECT_TRUE(like("PROMO", "PROMO%"));
  EXPECT_TRUE(like("forest green", "%green"));
  EXPECT_FALSE(like("greenery", "%green"));
  EXPECT_TRUE(like("a special request", "%special%"));
  EXPECT_TRUE(like("special", "%special%"));
  EXPECT_FALSE(like("spec ial", "%special%"));
  EXPECT_TRUE(like("", "%"));
  EXPECT_TRUE(like("anything", "%%"));
  EXPECT_TRUE(like("ab", "a%%b"));
}

TEST(ExprLikePatternTest, UnderscoreMatchesExactlyOneCharacter) {
  EXPECT_TRUE(like("abc", "a_c"));
  EXPECT_FALSE(like("ac", "a_c"));
  EXPECT_FALSE(like("abbc", "a_c"));
  EXPECT_TRUE(like("abc", "___"));
  EXPECT_FALSE(like("ab", "___"));
  EXPECT_TRUE(like("abc", "_%"));
  EXPECT_FALSE(like("", "_%"));
  EXPECT_TRUE(like("xaby", "%a_y"));
  EXPECT_TRUE(like("xxay", "%_ay"));
  // '_' is one UTF-8 character, not one byte.
  EXPECT_TRUE(like("caf\xC3\xA9", "caf_"));
  EXPECT_FALSE(like("caf\xC3\xA9", "caf__"));
  EXPECT_TRUE(like("\xC3\xA9t\xC3\xA9", "_t_"));
  EXPECT_TRUE(
      like("x\xE2\x82\xAC"
           "y",
           "%_y"));
}

TEST(ExprLikePatternTest, GeneralPatternsPlaceSegmentsInOrderWithoutOverlap) {
  EXPECT_TRUE(like("special packages requests", "%special%requests%"));
  EXPECT_FALSE(like("requests special", "%special%requests%"));
  EXPECT_TRUE(like("abXcdYef", "ab%cd%ef"));
  EXPECT_FALSE(like("abef", "ab%cd%ef"));
  // The prefix and the suffix may not share characters.
  EXPECT_FALSE(like("aba", "ab%ba"));
  EXPECT_TRUE(like("abba", "ab%ba"));
  EXPECT_TRUE(like("aXbXc", "a_b%c"));
  EXPECT_TRUE(like("abcabd", "%ab_"));
  EXPECT_TRUE(like("ab_cd", "%b_c%"));
}

TEST(ExprLikePatternTest, PathologicalPatternsFinishQuickly) {
  const std::string as(20000, 'a');
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(like(as.c_str(), "a%a%a%a%a%b"));
  EXPECT_FALSE(like(as.c_str(), "%a%a%a%a%a%a%a%a%b%"));
  EXPECT_FALSE(like(as.c_str(), "%a_a_a_a_a_a_b%"));
  EXPECT_TRUE(like((as + "b").c_str(), "a%a%a%a%a%b"));
  EXPECT_TRUE(like((as + "b").c_str(), "%a_a_a_a_a_a_b"));
  // A naive backtracking matcher takes astronomically long here; the greedy matcher is linear per segment.
  // The bound is deliberately loose (it checks complexity, not speed).
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(EvaluatorStringTest, LikeAndNotLikeWithNulls) {
  Batch b = batch({strings({"PROMO ANODIZED", "STANDARD", std::nullopt}), strings({"%ANO%", "ST%", "x"})});
  auto l = node(ExprKind::Like, DataType::boolean(), col(0, kStr), str("PROMO%"));
  EXPECT_EQ(eval_texts(*l, b), (Texts{"true", "false", "NULL"}));
  l->negated = true;
  EXPECT_EQ(eval_texts(*l, b), (Texts{"false", "true", "NULL"}));
  // A pattern per row.
  auto per_row = node(ExprKind::Like, DataType::boolean(), col(0, kStr), col(1, kStr));
  EXPECT_EQ(eval_texts(*per_row, b), (Texts{"true", "true", "NULL"}));
  EXPECT_EQ(eval_texts(*node(ExprKind::Like, DataType::boolean(), col(0, kStr), null_of(kStr)), b),
            (Texts{"NULL", "NULL", "NULL"}));
}

TEST(EvaluatorStringTest, SubstringFollowsSqlSemantics) {
  Batch b = batch({strings({"abcdef", "ab", std::nullopt, "h\xC3\xA9llo"})});
  auto sub = [&](int64_t start, std::optional<int64_t> len) {
    auto e = call(ScalarOp::Substring, kStr, col(0, kStr), big(start));
    if (len) e->children.push_back(big(*len));
    return eval_texts(*e, b);
  };
  EXPECT_EQ(sub(2, 3), (Texts{"bcd", "b", "NULL", "\xC3\xA9ll"}));
  EXPECT_EQ(sub(1, std::nullopt), (Texts{"abcdef", "ab", "NULL", "h\xC3\xA9llo"}));
  EXPECT_EQ(sub(3, std::nullopt), (Texts{"cdef", "", "NULL", "llo"}));
  // start < 1 eats into the length: SUBSTRING('abc' FROM 0 FOR 2) = 'a'.
  EXPECT_EQ(sub(0, 2), (Texts{"a", "a", "NULL", "h"}));
  EXPECT_EQ(sub(-3, 5), (Texts{"a", "a", "NULL", "h"}));
  EXPECT_EQ(sub(-3, 3), (Texts{"", "", "NULL", ""}));
  EXPECT_EQ(sub(10, 2), (Texts{"", "", "NULL", ""}));
  EXPECT_EQ(sub(2, 0), (Texts{"", "", "NULL", ""}));
  EXPECT_EQ(sub(5, INT64_MAX), (Texts{"ef", "", "NULL", "o"}));
  std::string msg;
  EXPECT_EQ(error_code_of([&] { sub(1, -1); }, &msg), ErrorCode::DATA_ERROR);
  EXPECT_EQ(msg, "negative substring length not allowed");
  // A NULL length or start gives NULL.
  EXPECT_EQ(eval_texts(*call(ScalarOp::Substring, kStr, col(0, kStr), big(1), null_of(kBig)), b),
            (Texts{"NULL", "NULL", "NULL", "NULL"}));
}

TEST(EvaluatorStringTest, ConcatCaseAndLength) {
  Batch b = batch({strings({"ab", std::nullopt,
                            "Stra\xC3\x9F"
                            "e \xC3\xA9t\xC3\xA9"})});
  EXPECT_EQ(eval_texts(*call(ScalarOp::Concat, kStr, col(0, kStr), str("-"), col(0, kStr)), b),
            (Texts{"ab-ab", "NULL",
                   "Stra\xC3\x9F"
                   "e \xC3\xA9t\xC3\xA9-Stra\xC3\x9F"
                   "e \xC3\xA9t\xC3\xA9"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Upper, kStr, col(0, kStr)), b), (Texts{"AB", "NULL",
                                                                              "STRA\xC3\x9F"
                                                                              "E \xC3\x89T\xC3\x89"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Lower, kStr, str("AbC \xC3\x89")), b)[0], "abc \xC3\xA9");
  // LENGTH counts characters, not bytes.
  EXPECT_EQ(eval_texts(*call(ScalarOp::Length, DataType::integer(), col(0, kStr)), b), (Texts{"2", "NULL", "10"}));
  EXPECT_EQ(eval_texts(*call(ScalarOp::Length, DataType::integer(), str("")), b)[0], "0");
}

}  // namespace
}  // namespace hindsight
