#include <gtest/gtest.h>

#include <random>

#include "tests/unit/planner/expr/expr_test_util.hpp"

namespace hindsight {
namespace {

using namespace expr_test;

const DataType kBig = DataType::bigint();
const DataType kDbl = DataType::float64();
const DataType kStr = DataType::varchar();
const DataType kBool = DataType::boolean();
const DataType kDec = DataType::decimal(15, 2);
const DataType kDate = DataType::date();
using Rows = std::vector<uint32_t>;

Rows filter(const Expr& e, const Batch& b) {
  Rows sel = {99};  // evaluate_filter replaces whatever was there
  evaluate_filter(e, b, sel);
  return sel;
}

// The rows where the generic evaluator says TRUE.
Rows reference(const Expr& e, const Batch& b) {
  ColumnVector v = evaluate(e, b);
  Rows out;
  for (uint32_t i = 0; i < b.rows; ++i)
    if (!v.is_null(i) && v.ints[i]) out.push_back(i);
  return out;
}

TEST(EvaluateFilterTest, ComparisonsWithConstantsSkipNulls) {
  Batch b = batch({bigints({5, std::nullopt, 1, 7}), strings({"a", "b", std::nullopt, "b"})});
  EXPECT_EQ(filter(*cmp(ScalarOp::Gt, col(0, kBig), big(3)), b), (Rows{0, 3}));
  EXPECT_EQ(filter(*cmp(ScalarOp::Lt, big(3), col(0, kBig)), b), (Rows{0, 3}));  // mirrored
  EXPECT_EQ(filter(*cmp(ScalarOp::Ne, col(0, kBig), big(5)), b), (Rows{2, 3}));
  EXPECT_EQ(filter(*cmp(ScalarOp::Eq, col(1, kStr), str("b")), b), (Rows{1, 3}));
  EXPECT_EQ(filter(*cmp(ScalarOp::Eq, col(0, kBig), null_of(kBig)), b), (Rows{}));
  EXPECT_EQ(filter(*conj(cmp(ScalarOp::Ge, col(0, kBig), big(1)), cmp(ScalarOp::Eq, col(1, kStr), str("b"))), b),
            (Rows{3}));
}

TEST(EvaluateFilterTest, RangesAndConjunctions) {
  Batch b = batch({ints(kDate, {day("1994-01-01"), day("1994-12-31"), day("1995-01-01"), day("1993-12-31")}),
                   ints(kDec, {5, 6, 7, 8})});
  // l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07
  auto q6 =
      conj(cmp(ScalarOp::Ge, col(0, kDate), date("1994-01-01")), cmp(ScalarOp::Lt, col(0, kDate), date("1995-01-01")),
           cmp(ScalarOp::Ge, col(1, kDec), lit(Value::decimal(5, 15, 2))),
           cmp(ScalarOp::Le, col(1, kDec), lit(Value::decimal(7, 15, 2))));
  EXPECT_EQ(filter(*q6, b), (Rows{0, 1}));
  // An empty range.
  EXPECT_EQ(filter(*conj(cmp(ScalarOp::Gt, col(1, kDec), lit(Value::decimal(7, 15, 2))),
                         cmp(ScalarOp::Lt, col(1, kDec), lit(Value::decimal(6, 15, 2)))),
                   b),
            (Rows{}));
  // Column against column.
  Batch c = batch({bigints({1, 5, std::nullopt, 3}), bigints({2, 4, 1, 3})});
  EXPECT_EQ(filter(*cmp(ScalarOp::Le, col(0, kBig), col(1, kBig)), c), (Rows{0, 3}));
}

TEST(EvaluateFilterTest, InLikeIsNullAndConstants) {
  Batch b = batch({strings({"MAIL", "SHIP", std::nullopt, "AIR", "RAIL"}), bigints({1, std::nullopt, 3, 4, 5})});
  EXPECT_EQ(filter(*node(ExprKind::InList, kBool, col(0, kStr), str("MAIL"), str("SHIP")), b), (Rows{0, 1}));
  auto not_in = node(ExprKind::InList, kBool, col(0, kStr), str("MAIL"), str("SHIP"));
  not_in->negated = true;
  EXPECT_EQ(filter(*not_in, b), (Rows{3, 4}));
  // NOT IN with a NULL in the list is never TRUE; IN with a NULL still finds its members.
  not_in->children.push_back(null_of(kStr));
  EXPECT_EQ(filter(*not_in, b), (Rows{}));
  EXPECT_EQ(filter(*node(ExprKind::InList, kBool, col(1, kBig), big(3), null_of(kBig)), b), (Rows{2}));
  auto like = node(ExprKind::Like, kBool, col(0, kStr), str("%AI%"));
  EXPECT_EQ(filter(*like, b), (Rows{0, 3, 4}));
  like->negated = true;
  EXPECT_EQ(filter(*like, b), (Rows{1}));
  auto is_null = node(ExprKind::IsNull, kBool, col(1, kBig));
  EXPECT_EQ(filter(*is_null, b), (Rows{1}));
  is_null->negated = true;
  EXPECT_EQ(filter(*is_null, b), (Rows{0, 2, 3, 4}));
  EXPECT_EQ(filter(*boolean(true), b), (Rows{0, 1, 2, 3, 4}));
  EXPECT_EQ(filter(*null_of(kBool), b), (Rows{}));
  EXPECT_EQ(filter(*disj(cmp(ScalarOp::Eq, col(1, kBig), big(5)), cmp(ScalarOp::Eq, col(0, kStr), str("MAIL"))), b),
            (Rows{0, 4}));
  EXPECT_EQ(filter(*boolean(true), batch({bigints({})})), (Rows{}));
}

TEST(EvaluateFilterTest, GenericPredicatesRunOnlyOnSurvivingRows) {
  Batch b = batch({bigints({0, 5, 20, std::nullopt})});
  // x <> 0 AND 10 / x > 1: the division only sees the rows the first conjunct kept.
  auto guarded = conj(cmp(ScalarOp::Ne, col(0, kBig), big(0)),
                      cmp(ScalarOp::Gt, call(ScalarOp::Div, kBig, big(10), col(0, kBig)), big(1)));
  EXPECT_EQ(filter(*guarded, b), (Rows{1}));
  EXPECT_EQ(
      error_code_of([&] { filter(*cmp(ScalarOp::Gt, call(ScalarOp::Div, kBig, big(10), col(0, kBig)), big(1)), b); }),
      ErrorCode::DATA_ERROR);
}

// Random predicates over random data: the fast paths must select exactly the rows the generic evaluator marks TRUE.
class PredicateGenerator {
 public:
  explicit PredicateGenerator(uint32_t seed) : rng_(seed) {}

  Batch make_batch(size_t rows) {
    std::vector<std::optional<int64_t>> c0, c3, c4, c5, c6;
    std::vector<std::optional<double>> c1;
    std::vector<std::optional<std::string>> c2;
    for (size_t i = 0; i < rows; ++i) {
      c0.push_back(maybe_null(int_in(-5, 5)));
      c1.push_back(coin(10) ? std::nullopt : std::optional<double>(static_cast<double>(int_in(-5, 5)) / 2));
      c2.push_back(coin(10) ? std::nullopt : std::optional<std::string>(pick(kWords)));
      c3.push_back(int_in(-12, 12) * 25);
      c4.push_back(maybe_null(day("1995-01-01") + int_in(-10, 10)));
      c5.push_back(int_in(-5, 5));
      c6.push_back(maybe_null(int_in(0, 1)));
    }
    return batch({bigints(c0), doubles(c1), strings(c2), ints(kDec, c3), ints(kDate, c4), bigints(c5), bools(c6)});
  }

  ExprPtr predicate(int depth) {
    int choice = int_in(0, depth > 0 ? 11 : 7);
    switch (choice) {
      case 0:
      case 1:
      case 2:
        return column_constant();
      case 3:
        return column_column();
      case 4:
        return in_list();
      case 5:
        return like();
      case 6:
        return is_null();
      case 7:
        return generic_leaf();
      case 8:
      case 9: {
        auto e = node(ExprKind::And, kBool);
        for (int k = int_in(2, 4); k > 0; --k) e->children.push_back(predicate(depth - 1));
        return e;
      }
      case 10: {
        auto e = node(ExprKind::Or, kBool);
        for (int k = int_in(2, 3); k > 0; --k) e->children.push_back(predicate(depth - 1));
        return e;
      }
      default:
        return node(ExprKind::Not, kBool, predicate(depth - 1));
    }
  }

 private:
  static inline const std::vector<std::string> kWords = {"",   "a",       "ab",     "abc",     "b",
                                                         "ba", "PROMO X", "xPROMO", "\xC3\xA9"};
  static inline const std::vector<std::string> kPatterns = {
      "a%", "%a", "%b%", "a_", "_", "%", "ab", "%PROMO%", "PROMO%", "%a%b%", "_%_", "", "\xC3\xA9", "_b%"};

  int64_t int_in(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  bool coin(int percent) { return int_in(0, 99) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(int_in(0, static_cast<int64_t>(v.size()) - 1))];
  }
  std::optional<int64_t> maybe_null(int64_t v) { return coin(10) ? std::nullopt : std::optional<int64_t>(v); }
  ScalarOp comparison() {
    return static_cast<ScalarOp>(int_in(static_cast<int>(ScalarOp::Eq), static_cast<int>(ScalarOp::Ge)));
  }

  // A column index with its type and a random constant of that type.
  std::pair<ExprPtr, ExprPtr> column_and_constant() {
    int c = static_cast<int>(pick(std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
    const bool null_constant = coin(3);
    switch (c) {
      case 0:
      case 5:
        return {col(c, kBig), null_constant ? null_of(kBig) : big(int_in(-6, 6))};
      case 1:
        return {col(c, kDbl), null_constant ? null_of(kDbl) : dbl(static_cast<double>(int_in(-6, 6)) / 2)};
      case 2:
        return {col(c, kStr), null_constant ? null_of(kStr) : str(pick(kWords))};
      case 3:
        return {col(c, kDec), null_constant ? null_of(kDec) : lit(Value::decimal(int_in(-13, 13) * 25, 15, 2))};
      default:
        return {col(c, kDate), null_constant ? null_of(kDate) : lit(Value::date(day("1995-01-01") + int_in(-11, 11)))};
    }
  }

  ExprPtr column_constant() {
    auto [c, k] = column_and_constant();
    return coin(30) ? cmp(comparison(), std::move(k), std::move(c)) : cmp(comparison(), std::move(c), std::move(k));
  }
  ExprPtr column_column() {
    if (coin(50)) return cmp(comparison(), col(0, kBig), col(5, kBig));
    return cmp(comparison(), col(2, kStr), str(pick(kWords)));
  }
  ExprPtr in_list() {
    auto [c, k] = column_and_constant();
    auto e = node(ExprKind::InList, kBool, std::move(c), std::move(k));
    const DataType t = e->children[0]->type;
    for (int n = static_cast<int>(int_in(0, 12)); n > 0; --n) e->children.push_back(column_and_constant_of(t));
    e->negated = coin(40);
    return e;
  }
  ExprPtr column_and_constant_of(const DataType& t) {
    while (true) {
      auto [c, k] = column_and_constant();
      if (c->type == t) return std::move(k);
    }
  }
  ExprPtr like() {
    auto e = node(ExprKind::Like, kBool, col(2, kStr), coin(5) ? null_of(kStr) : str(pick(kPatterns)));
    e->negated = coin(40);
    return e;
  }
  ExprPtr is_null() {
    auto [c, k] = column_and_constant();
    auto e = node(ExprKind::IsNull, kBool, std::move(c));
    e->negated = coin(50);
    return e;
  }
  ExprPtr generic_leaf() {
    switch (int_in(0, 2)) {
      case 0:
        return col(6, kBool);
      case 1:
        return cmp(comparison(), call(ScalarOp::Add, kBig, col(0, kBig), big(1)), col(5, kBig));
      default:
        return boolean(coin(50));
    }
  }

  std::mt19937 rng_;
};

TEST(EvaluateFilterTest, FastPathsAgreeWithTheGenericEvaluator) {
  PredicateGenerator gen(20240611);
  int selective = 0;
  for (int round = 0; round < 40; ++round) {
    Batch b = gen.make_batch(round % 10 == 0 ? 1 : 257);
    for (int k = 0; k < 50; ++k) {
      ExprPtr p = gen.predicate(3);
      Rows expected = reference(*p, b);
      ASSERT_EQ(filter(*p, b), expected) << p->to_string();
      selective += !expected.empty() && expected.size() < b.rows;
    }
  }
  // The generator must exercise real selections, not only "all" or "nothing".
  EXPECT_GT(selective, 500);
}

// The range form reads columns in place (as a filtered scan does): rows [begin, end) of borrowed columns, the
// indices it returns are the columns' own. It must select exactly the rows of the range the batch form selects,
// through every fast path and the generic one (which evaluates borrowed columns through a selection).
TEST(EvaluateFilterTest, RangeOverColumnsReadInPlaceAgreesWithTheBatchForm) {
  PredicateGenerator gen(20261201);
  int selective = 0;
  for (int round = 0; round < 30; ++round) {
    Batch b = gen.make_batch(257);
    std::vector<const ColumnVector*> view;
    for (auto& c : b.columns) view.push_back(&c);
    const size_t begin = round % 3 == 0 ? 0 : 37, end = round % 2 == 0 ? 257 : 230;
    for (int k = 0; k < 50; ++k) {
      ExprPtr p = gen.predicate(3);
      Rows expected;
      for (uint32_t r : reference(*p, b))
        if (r >= begin && r < end) expected.push_back(r);
      Rows got = {99};
      evaluate_filter(*p, view, begin, end, got);
      ASSERT_EQ(got, expected) << p->to_string() << " over [" << begin << ", " << end << ")";
      selective += !expected.empty() && expected.size() < end - begin;
    }
  }
  EXPECT_GT(selective, 300);
  // An empty range selects nothing, whatever the predicate.
  Batch b = gen.make_batch(10);
  std::vector<const ColumnVector*> view;
  for (auto& c : b.columns) view.push_back(&c);
  Rows got = {1, 2};
  evaluate_filter(*boolean(true), view, 4, 4, got);
  EXPECT_TRUE(got.empty());
}

}  // namespace
}  // namespace hindsight
