#include <gtest/gtest.h>

#include <random>

#include "planner/exec/operators/hash_aggregate.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

AggregateSpec agg(AggKind kind, int arg, DataType result, bool distinct = false) { return {kind, arg, distinct, result}; }

V run_agg(Batch in, std::vector<int> keys, std::vector<AggregateSpec> aggs, AggregateMode mode = AggregateMode::Single,
          size_t chunk = kBatchSize) {
  TestContext tc;
  HashAggregateOp op(&tc.ctx, 0, source(&tc.ctx, std::move(in), chunk), std::move(keys), std::move(aggs), mode);
  return sorted(drain(op));
}

// (g, x) with NULLs in both.
Batch grouped_rows() {
  return make_batch({str_col({"a", "b", "a", std::nullopt, "b", std::nullopt, "a"}),
                     int_col({1, std::nullopt, 3, 4, std::nullopt, std::nullopt, 3}, DataType::integer())});
}

std::vector<AggregateSpec> all_aggs() {
  return {agg(AggKind::CountStar, -1, DataType::bigint()), agg(AggKind::Count, 1, DataType::bigint()),
          agg(AggKind::Sum, 1, DataType::bigint()),        agg(AggKind::Avg, 1, DataType::float64()),
          agg(AggKind::Min, 1, DataType::integer()),       agg(AggKind::Max, 1, DataType::integer())};
}

TEST(HashAggregateTest, GroupsWithNullKeysAndNullValues) {
  // g=a: x 1,3,3; g=b: x NULL,NULL; g=NULL: x 4,NULL
  EXPECT_EQ(run_agg(grouped_rows(), {0}, all_aggs()),
            (V{"NULL|2|1|4|4.0|4|4", "a|3|3|7|2.3333333333333335|1|3", "b|2|0|NULL|NULL|NULL|NULL"}));
}

TEST(HashAggregateTest, GlobalAggregateOnEmptyInputHasOneRow) {
  Batch empty = make_batch({str_col({}), int_col({}, DataType::integer())});
  EXPECT_EQ(run_agg(empty, {}, all_aggs()), (V{"0|0|NULL|NULL|NULL|NULL"}));
  EXPECT_EQ(run_agg(empty, {0}, all_aggs()), V{});
}

TEST(HashAggregateTest, DistinctWithoutAggregatesIsDistinct) {
  EXPECT_EQ(run_agg(grouped_rows(), {0, 1}, {}), (V{"NULL|4", "NULL|NULL", "a|1", "a|3", "b|NULL"}));
}

TEST(HashAggregateTest, DistinctAggregates) {
  Batch in = make_batch({int_col({1, 1, 1, 2, 2, 2, 2}), int_col({5, 5, 7, std::nullopt, 3, 3, 3})});
  EXPECT_EQ(run_agg(in, {0},
                    {agg(AggKind::Count, 1, DataType::bigint(), true), agg(AggKind::Sum, 1, DataType::bigint(), true),
                     agg(AggKind::Count, 1, DataType::bigint()), agg(AggKind::Avg, 1, DataType::float64(), true)},
                    AggregateMode::Single, 2),
            (V{"1|2|12|3|6.0", "2|1|3|3|3.0"}));
  TestContext tc;
  EXPECT_THROW(HashAggregateOp(&tc.ctx, 0, source(&tc.ctx, in), {0}, {agg(AggKind::Count, 1, DataType::bigint(), true)},
                               AggregateMode::Partial),
               Error);
}

TEST(HashAggregateTest, DecimalAndDoubleSums) {
  Batch in = make_batch({int_col({150, 275, std::nullopt}, DataType::decimal(12, 2)), dbl_col({0.5, 0.25, 1.0})});
  EXPECT_EQ(run_agg(in, {},
                    {agg(AggKind::Sum, 0, DataType::decimal(18, 2)), agg(AggKind::Avg, 0, DataType::float64()),
                     agg(AggKind::Sum, 1, DataType::float64()), agg(AggKind::Max, 1, DataType::float64())}),
            (V{"4.25|2.125|1.75|1.0"}));
}

TEST(HashAggregateTest, SumOverflowIsADataError) {
  Batch in = make_batch({int_col({INT64_MAX, 1})});
  TestContext tc;
  HashAggregateOp op(&tc.ctx, 0, source(&tc.ctx, in), {}, {agg(AggKind::Sum, 0, DataType::bigint())},
                     AggregateMode::Single);
  try {
    drain(op);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR);
  }
}

/// Runs Partial on `parts` separately (as workers would), then Final over all partial rows.
V partial_then_final(const std::vector<Batch>& parts, std::vector<int> keys, std::vector<AggregateSpec> aggs) {
  TestContext tc;
  std::vector<Batch> partials;
  std::vector<DataType> partial_types;
  for (auto& p : parts) {
    HashAggregateOp op(&tc.ctx, 0, source(&tc.ctx, p, 300), keys, aggs, AggregateMode::Partial);
    partial_types = op.output_types();
    op.open();
    Batch b;
    while (op.next(b)) partials.push_back(b);
  }
  std::vector<int> final_keys;
  for (size_t i = 0; i < keys.size(); ++i) final_keys.push_back(static_cast<int>(i));
  auto src = std::make_unique<BatchSourceOp>(&tc.ctx, 0, partial_types, std::move(partials));
  HashAggregateOp final_op(&tc.ctx, 0, std::move(src), final_keys, aggs, AggregateMode::Final);
  return sorted(drain(final_op));
}

TEST(HashAggregateTest, PartialThenFinalEqualsSingleOnRandomData) {
  std::mt19937 rng(11);
  auto random_batch = [&](int rows) {
    std::vector<OptInt> k1, v;
    std::vector<OptStr> k2;
    std::vector<OptInt> d;
    for (int i = 0; i < rows; ++i) {
      k1.push_back(rng() % 13 == 0 ? std::nullopt : OptInt(rng() % 20));
      k2.push_back(rng() % 2 ? OptStr("x") : OptStr("y"));
      v.push_back(rng() % 7 == 0 ? std::nullopt : OptInt(static_cast<int64_t>(rng() % 1000) - 500));
      d.push_back(rng() % 5 == 0 ? std::nullopt : OptInt(rng() % 100000));
    }
    return make_batch({int_col(k1), str_col(k2), int_col(v), int_col(d, DataType::decimal(15, 2))});
  };
  std::vector<AggregateSpec> aggs = {
      agg(AggKind::CountStar, -1, DataType::bigint()), agg(AggKind::Count, 2, DataType::bigint()),
      agg(AggKind::Sum, 2, DataType::bigint()),        agg(AggKind::Avg, 2, DataType::float64()),
      agg(AggKind::Min, 2, DataType::bigint()),        agg(AggKind::Max, 3, DataType::decimal(15, 2)),
      agg(AggKind::Sum, 3, DataType::decimal(18, 2)),  agg(AggKind::Avg, 3, DataType::float64()),
      agg(AggKind::Min, 1, DataType::varchar())};
  std::vector<Batch> parts = {random_batch(3000), random_batch(0), random_batch(1700)};
  Batch all = make_batch({int_col({}), str_col({}), int_col({}), int_col({}, DataType::decimal(15, 2))});
  for (auto& p : parts)
    for (size_t c = 0; c < 4; ++c) all.columns[c].append_all(p.columns[c]);
  all.rows = 4700;
  V single = run_agg(all, {0, 1}, aggs, AggregateMode::Single, 512);
  EXPECT_GT(single.size(), 30u);
  EXPECT_EQ(partial_then_final(parts, {0, 1}, aggs), single);
  // Without keys: one partial row per worker, one final row.
  V global = run_agg(all, {}, aggs, AggregateMode::Single, 512);
  ASSERT_EQ(global.size(), 1u);
  EXPECT_EQ(partial_then_final(parts, {}, aggs), global);
}

TEST(HashAggregateTest, PartialLayoutHasTwoColumnsForAvg) {
  TestContext tc;
  Batch in = make_batch({int_col({1, 1}), int_col({2, 4}, DataType::decimal(10, 1))});
  HashAggregateOp op(&tc.ctx, 0, source(&tc.ctx, in), {0},
                     {agg(AggKind::Avg, 1, DataType::float64()), agg(AggKind::CountStar, -1, DataType::bigint())},
                     AggregateMode::Partial);
  ASSERT_EQ(op.output_types().size(), 4u);
  EXPECT_EQ(op.output_types()[1], DataType::decimal(18, 1));
  EXPECT_EQ(op.output_types()[2], DataType::bigint());
  EXPECT_EQ(drain(op), (V{"1|0.6|2|2"}));
}

TEST(HashAggregateTest, ManyGroupsGrowTheTableAndStatsAreCounted) {
  std::vector<OptInt> k;
  for (int i = 0; i < 50000; ++i) k.push_back(i % 20000);
  TestContext tc;
  {
    HashAggregateOp op(&tc.ctx, 0, source(&tc.ctx, make_batch({int_col(k)})), {0},
                       {agg(AggKind::CountStar, -1, DataType::bigint())}, AggregateMode::Single);
    V rows = drain(op);
    EXPECT_EQ(rows.size(), 20000u);
    EXPECT_EQ(op.stats().rows_in, 50000u);
    EXPECT_EQ(op.stats().rows_out, 20000u);
    EXPECT_TRUE(op.stats().complete);
    EXPECT_GT(op.stats().peak_memory, 20000 * 8);
    EXPECT_EQ(sorted(rows)[0], "0|3");
    EXPECT_EQ(tc.memory.used(), 0);
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

// What an aggregate charges stays within 2x of the live data it holds (keys, a hash and a used slot per group, the
// states), whatever the group count: the per-group arrays grow by a quarter (GroupTable::group_capacity). With
// doubling arrays and slots at most half full, a count just past a power of two charged about 2.5x.
TEST(HashAggregateTest, ChargedMemoryStaysWithinTwiceTheLiveDataAtEveryGroupCount) {
  for (int groups : {4097, 16385, 40000, 65537, 100000, 131073, 150000, 262145}) {
    std::vector<OptInt> k, x;
    for (int i = 0; i < groups; ++i) {
      k.push_back(i);
      x.push_back(i % 7);
    }
    TestContext tc;
    HashAggregateOp op(&tc.ctx, 0, source(&tc.ctx, make_batch({int_col(k), int_col(x)})), {0},
                       {agg(AggKind::Sum, 1, DataType::bigint())}, AggregateMode::Single);
    EXPECT_EQ(drain(op).size(), static_cast<size_t>(groups));
    const OperatorStats& st = op.stats();
    // Live: key 8 + hash 8 + slot 8 + sum 8 + has-a-value 1 bytes a group.
    EXPECT_GE(st.peak_memory_live, int64_t{33} * groups) << groups;
    EXPECT_LE(st.peak_memory_live, st.peak_memory) << groups;
    EXPECT_LE(st.peak_memory, 2 * st.peak_memory_live) << groups << " groups: charged " << st.peak_memory
                                                       << " for " << st.peak_memory_live << " live";
    EXPECT_EQ(tc.memory.used(), 0);
    EXPECT_EQ(tc.memory.live(), 0);
  }
}

TEST(HashAggregateTest, OverTheMemoryBudgetFailsNamingTheOperator) {
  std::vector<OptInt> k;
  for (int i = 0; i < 50000; ++i) k.push_back(i);
  TestContext tc(64 * 1024);
  {
    HashAggregateOp op(&tc.ctx, 0, source(&tc.ctx, make_batch({int_col(k)})), {0}, {}, AggregateMode::Single);
    op.exec_id = 3;
    try {
      drain(op);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
      EXPECT_NE(e.message().find("HashAggregate#3 (worker 0)"), std::string::npos) << e.message();
    }
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

}  // namespace
}  // namespace hindsight
