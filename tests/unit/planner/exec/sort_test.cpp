#include <gtest/gtest.h>

#include <random>

#include "planner/exec/operators/limit.hpp"
#include "planner/exec/operators/sort.hpp"
#include "planner/exec/operators/top_n.hpp"
#include "planner/exec/row_comparator.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

Batch people() {
  return make_batch({str_col({"bob", "amy", std::nullopt, "cid", "amy", "dan"}),
                     int_col({3, std::nullopt, 1, 3, 2, std::nullopt}), int_col({0, 1, 2, 3, 4, 5})});
}

V run_sort(Batch in, std::vector<SortKey> keys, size_t chunk = kBatchSize) {
  TestContext tc;
  SortOp op(&tc.ctx, 0, source(&tc.ctx, std::move(in), chunk), std::move(keys));
  return drain(op);
}

TEST(SortTest, NullsFirstOrLastPerKey) {
  EXPECT_EQ(run_sort(people(), {{1, true, false}}, 2),
            (V{"NULL|1|2", "amy|2|4", "bob|3|0", "cid|3|3", "amy|NULL|1", "dan|NULL|5"}));
  EXPECT_EQ(run_sort(people(), {{1, true, true}}),
            (V{"amy|NULL|1", "dan|NULL|5", "NULL|1|2", "amy|2|4", "bob|3|0", "cid|3|3"}));
  EXPECT_EQ(run_sort(people(), {{1, false, false}}),
            (V{"bob|3|0", "cid|3|3", "amy|2|4", "NULL|1|2", "amy|NULL|1", "dan|NULL|5"}));
}

TEST(SortTest, MultipleKeysMixedDirections) {
  EXPECT_EQ(run_sort(people(), {{0, true, true}, {1, false, true}}),
            (V{"NULL|1|2", "amy|NULL|1", "amy|2|4", "bob|3|0", "cid|3|3", "dan|NULL|5"}));
  EXPECT_EQ(run_sort(people(), {{0, false, false}, {2, false, false}}),
            (V{"dan|NULL|5", "cid|3|3", "bob|3|0", "amy|2|4", "amy|NULL|1", "NULL|1|2"}));
}

TEST(SortTest, DoublesAndStability) {
  Batch in = make_batch({dbl_col({2.5, -1.0, 2.5, std::nullopt, 0.0}), int_col({0, 1, 2, 3, 4})});
  EXPECT_EQ(run_sort(in, {{0, false, true}}), (V{"NULL|3", "2.5|0", "2.5|2", "0.0|4", "-1.0|1"}));
}

// sort_rows sorts normalized fixed-size prefixes of the first key and compares rows only on prefix ties; it must
// order exactly like a stable sort with the row comparator: strings sharing 8+ (and 64+) byte prefixes, shorter strings,
// embedded NUL and bytes >= 0x80, -0.0 and 0.0, INT64 extremes, NULLs first or last, either direction.
TEST(SortTest, PrefixSortEqualsStableSortWithTheComparator) {
  std::mt19937_64 rng(7);
  const std::vector<std::string> stems = {"", "a", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefgh\xff",
                                          std::string("abc\0d", 5), "\x80zz", "zzzzzzzzzzzz", "abcdefgg",
                                          std::string(70, 'q'), std::string(70, 'q') + "a", std::string(16, 'q')};
  const std::vector<int64_t> ints = {INT64_MIN, -5, -1, 0, 1, 7, INT64_MAX};
  const std::vector<double> dbls = {-1e300, -2.5, -0.0, 0.0, 1.5, 1e300};
  for (int round = 0; round < 60; ++round) {
    const size_t n = 1 + rng() % 400;
    std::vector<ColumnVector> cols;
    cols.emplace_back(DataType::varchar());
    cols.emplace_back(DataType::bigint());
    cols.emplace_back(DataType::float64());
    const bool nulls = round % 2 == 0;
    for (size_t i = 0; i < n; ++i) {
      if (nulls && rng() % 5 == 0) cols[0].append_null();
      else cols[0].append_string(stems[rng() % stems.size()] + std::string(rng() % 3, static_cast<char>('a' + rng() % 3)));
      if (nulls && rng() % 5 == 0) cols[1].append_null();
      else cols[1].append_int(ints[rng() % ints.size()]);
      if (nulls && rng() % 5 == 0) cols[2].append_null();
      else cols[2].append_double(dbls[rng() % dbls.size()]);
    }
    std::vector<SortKey> keys;
    const size_t nkeys = 1 + rng() % 3;
    for (size_t k = 0; k < nkeys; ++k)
      keys.push_back({static_cast<int>(rng() % 3), rng() % 2 == 0, rng() % 2 == 0});
    std::vector<uint32_t> expected(n), got(n);
    for (uint32_t i = 0; i < n; ++i) expected[i] = got[i] = i;
    RowComparator cmp(cols, keys);
    std::stable_sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) { return cmp.less(a, b); });
    sort_rows(cols, keys, got);
    ASSERT_EQ(got, expected) << "round " << round;
  }
}

/// Random rows with many ties; returns rendered rows of Sort+Limit and of TopN.
TEST(SortTest, TopNEqualsSortThenLimitOnRandomData) {
  std::mt19937 rng(3);
  std::vector<OptInt> a, id;
  std::vector<OptStr> s;
  for (int i = 0; i < 9000; ++i) {
    a.push_back(rng() % 11 == 0 ? std::nullopt : OptInt(rng() % 50));
    s.push_back(rng() % 9 == 0 ? std::nullopt : OptStr(std::string(1, static_cast<char>('a' + rng() % 5))));
    id.push_back(i);
  }
  Batch in = make_batch({int_col(a), str_col(s), int_col(id)});
  std::vector<std::vector<SortKey>> key_sets = {{{0, true, false}}, {{1, false, true}, {0, true, true}}, {{2, false, false}}};
  for (auto& keys : key_sets) {
    for (auto [limit, offset] : std::vector<std::pair<int64_t, int64_t>>{{10, 0}, {100, 7}, {5000, 2500}, {0, 3}, {20000, 0}}) {
      TestContext tc;
      auto sort = std::make_unique<SortOp>(&tc.ctx, 0, source(&tc.ctx, in, 1000), keys);
      LimitOp limited(&tc.ctx, 0, std::move(sort), limit, offset);
      TopNOp top(&tc.ctx, 0, source(&tc.ctx, in, 1000), keys, limit, offset);
      V expected = drain(limited);
      EXPECT_EQ(drain(top), expected) << "limit " << limit << " offset " << offset;
      EXPECT_EQ(expected.size(), static_cast<size_t>(std::max<int64_t>(0, std::min<int64_t>(limit, 9000 - offset))));
    }
  }
}

TEST(SortTest, LimitStopsPullingAndLeavesChildIncomplete) {
  TestContext tc;
  std::vector<OptInt> v;
  for (int i = 0; i < 100; ++i) v.push_back(i);
  LimitOp limit(&tc.ctx, 0, source(&tc.ctx, make_batch({int_col(v)}), 10), 15, 3);
  EXPECT_EQ(drain(limit), (V{"3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17"}));
  const ExecOperator& child = *limit.children()[0];
  EXPECT_TRUE(limit.stats().complete);
  EXPECT_EQ(limit.stats().rows_out, 15u);
  EXPECT_EQ(limit.stats().rows_in, 20u);
  EXPECT_FALSE(child.stats().complete);
  EXPECT_EQ(child.stats().rows_out, 20u);
}

TEST(SortTest, SortStatsAndMemory) {
  TestContext tc;
  {
    SortOp op(&tc.ctx, 0, source(&tc.ctx, people(), 4), {{2, false, false}});
    EXPECT_EQ(drain(op).front(), "dan|NULL|5");
    EXPECT_EQ(op.stats().rows_in, 6u);
    EXPECT_EQ(op.stats().rows_out, 6u);
    EXPECT_GT(op.stats().peak_memory, 0);
    EXPECT_TRUE(op.stats().complete);
    EXPECT_EQ(tc.memory.used(), 0);
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

TEST(SortTest, SortOverTheMemoryBudgetFailsNamingTheOperator) {
  std::vector<OptInt> v(10000, 1);
  TestContext tc(16 * 1024);
  {
    SortOp op(&tc.ctx, 0, source(&tc.ctx, make_batch({int_col(v)}), 1000), {{0, true, false}});
    op.exec_id = 12;
    try {
      drain(op);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
      EXPECT_NE(e.message().find("Sort#12"), std::string::npos) << e.message();
    }
    EXPECT_FALSE(op.stats().complete);
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

}  // namespace
}  // namespace hindsight
