// The external merge sort (SortOp with spill on, docs/spilling.md): many runs, merge passes, NULLs, DESC,
// strings, doubles, ties: exactly the rows, in the order, of the in-memory sort; off under the same limit fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "planner/common/error.hpp"
#include "planner/exec/operators/sort.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

/// (string key with NULLs and many ties, int key with NULLs, double, a sequence number that shows ties' order).
Batch input(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<OptStr> s;
  std::vector<OptInt> k;
  std::vector<OptDbl> d;
  std::vector<OptInt> seq;
  for (int i = 0; i < n; ++i) {
    const unsigned r = rng();
    s.push_back(r % 13 == 0 ? std::nullopt
                            : OptStr("key-" + std::to_string(r % 300) + std::string(r % 3 == 0 ? 20 : 0, 'z')));
    k.push_back(r % 17 == 0 ? std::nullopt : OptInt(static_cast<int64_t>(rng() % 40) - 20));
    d.push_back(r % 19 == 0 ? std::nullopt : OptDbl(static_cast<double>(rng() % 1000) / 8.0 - 60.0));
    seq.push_back(i);
  }
  return make_batch({str_col(s), int_col(k), dbl_col(d), int_col(seq)});
}

struct Result {
  V rows;
  OperatorStats stats;
};

Result sort(const Batch& in, const std::vector<SortKey>& keys, int64_t limit, bool spill) {
  TestContext tc(limit);
  tc.ctx.spill = spill;
  tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
  Batch copy = in;
  Result r;
  {
    SortOp op(&tc.ctx, 0, source(&tc.ctx, std::move(copy), 1000), keys);
    r.rows = drain(op);
    r.stats = op.stats();
    EXPECT_EQ(op.held_memory(), 0);
  }
  EXPECT_EQ(tc.memory.used(), 0);
  if (spill) {
    EXPECT_LE(tc.memory.peak(), limit);
  }
  return r;
}

void expect_external_equals_in_memory(const Batch& in, const std::vector<SortKey>& keys, int64_t limit) {
  const Result want = sort(in, keys, int64_t{1} << 40, false);
  ASSERT_EQ(want.rows.size(), in.rows);
  const Result got = sort(in, keys, limit, true);
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_EQ(got.stats.spills, 1u);
  EXPECT_GE(got.stats.spilled_rows, in.rows) << "every row is written at least once (the tail too)";
  EXPECT_GT(got.stats.spilled_bytes, 0u);
  EXPECT_THROW(
      {
        try {
          sort(in, keys, limit, false);
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
          throw;
        }
      },
      Error);
}

TEST(SortSpillTest, StringKeyNullsLastThenIntDescNullsFirst) {
  const Batch in = input(60000, 1);
  expect_external_equals_in_memory(in, {{0, true, false}, {1, false, true}}, 1 << 20);
}

TEST(SortSpillTest, DescendingStringNullsFirstDoubleAscending) {
  const Batch in = input(60000, 2);
  expect_external_equals_in_memory(in, {{0, false, true}, {2, true, false}}, 1 << 20);
}

TEST(SortSpillTest, TiesKeepInputOrderAcrossRuns) {
  // One int key with 40 values (and NULLs): nearly every row ties with rows of other runs.
  const Batch in = input(60000, 3);
  expect_external_equals_in_memory(in, {{1, true, false}}, 1 << 20);
}

TEST(SortSpillTest, ManyRunsNeedMergePasses) {
  // Runs of a few thousand rows: more runs than the fan-in, and more than the readers that fit at once.
  const Batch in = input(200000, 4);
  const Result got = sort(in, {{0, true, false}, {3, true, false}}, 1 << 20, true);
  const Result want = sort(in, {{0, true, false}, {3, true, false}}, int64_t{1} << 40, false);
  EXPECT_EQ(got.rows, want.rows);
  // A merge pass writes its rows again.
  EXPECT_GT(got.stats.spilled_rows, in.rows);
}

TEST(SortSpillTest, TheSortMayUseTheSpillReserve) {
  // The sort runs last (ORDER BY above the final Gather): its data may go to the limit, the spill reserve
  // included, so a sort that fits the limit does not spill because of the reserve.
  const Batch in = input(20000, 7);
  int64_t peak = 0;
  {
    TestContext tc(int64_t{1} << 40);
    tc.ctx.spill = true;
    tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
    SortOp op(&tc.ctx, 0, source(&tc.ctx, Batch(in), 1000), {{0, true, false}});
    drain(op);
    ASSERT_EQ(op.stats().spilled_rows, 0u);
    peak = tc.memory.peak();
  }
  TestContext tc(peak + (64 << 10));
  tc.memory.set_spill_reserve(peak / 2);
  tc.ctx.spill = true;
  tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
  SortOp op(&tc.ctx, 0, source(&tc.ctx, Batch(in), 1000), {{0, true, false}});
  const V got = drain(op);
  EXPECT_EQ(got.size(), in.rows);
  EXPECT_EQ(op.stats().spilled_rows, 0u);
  EXPECT_EQ(op.stats().spills, 0u);
}

TEST(SortSpillTest, FitsInMemoryWithSpillOnWritesNothing) {
  const Batch in = input(5000, 5);
  const Result got = sort(in, {{0, true, false}}, int64_t{1} << 40, true);
  EXPECT_EQ(got.rows, sort(in, {{0, true, false}}, int64_t{1} << 40, false).rows);
  EXPECT_EQ(got.stats.spilled_rows, 0u);
  EXPECT_EQ(got.stats.spills, 0u);
}

TEST(SortSpillTest, TooSmallForEvenOneBatchFailsSayingSpillingDidNotHelp) {
  const Batch in = input(20000, 6);
  try {
    sort(in, {{0, true, false}}, 48 << 10, true);
    FAIL() << "expected MEMORY_LIMIT_EXCEEDED";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
    EXPECT_NE(std::string(e.what()).find("spilling did not help"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hindsight

namespace hindsight {
namespace {

TEST(SortSpillTest, ARefusedChargeAlwaysLeavesRoomToWriteTheRun) {
  // Whatever the limit, the charge that starts a run is refused while the run's write buffer still fits: a
  // refusal that left less than that failed the spill ("the write buffer of a sorted run ... does not fit").
  // Limits a few hundred bytes apart, over more than one batch's charge, put the refusal at every distance from the
  // limit.
  const Batch in = input(12000, 8);
  const std::vector<SortKey> keys = {{0, true, false}, {3, true, false}};
  const Result want = sort(in, keys, int64_t{1} << 40, false);
  int spilled = 0;
  const int kLimits = 200;
  for (int64_t limit = 560 << 10; limit < (560 << 10) + kLimits * 409; limit += 409) {
    Result got;
    try {
      got = sort(in, keys, limit, true);
    } catch (const Error& e) {
      ADD_FAILURE() << "limit " << limit << ": " << e.what();
      continue;
    }
    EXPECT_EQ(got.rows, want.rows) << "limit " << limit;
    spilled += got.stats.spills > 0;
  }
  EXPECT_EQ(spilled, kLimits) << "every limit spills";
}

}  // namespace
}  // namespace hindsight

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace hindsight {
namespace {

#if defined(__GLIBC__)
/// Bytes the heap has handed out and not had back (small blocks and mapped ones).
int64_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<int64_t>(m.uordblks + m.hblkhd);
}

TEST(SortSpillTest, ASpilledRunsMemoryIsFreedWithItsCharge) {
  // Once every run is written, what the sort holds in the heap is what it has charged (the merge's readers): a
  // run's rows, and its permutation, go with their charge. `perm_ = {}` kept the permutation's capacity: the
  // largest run's 4 bytes a row stayed allocated, uncharged, until the query ended (52 MB at a limit of 1 GB).
  const int64_t rows = 600000;
  ColumnVector k(DataType::bigint()), v(DataType::bigint());
  for (int64_t i = 0; i < rows; ++i) {
    k.append_int((i * 7919) % rows);
    v.append_int(i);
  }
  const Batch in = make_batch({std::move(k), std::move(v)});
  TestContext tc(16 << 20);
  tc.ctx.spill = true;
  tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
  SortOp op(&tc.ctx, 0, source(&tc.ctx, Batch(in), kBatchSize), {{0, true, false}});
  op.open();
  malloc_trim(0);
  const int64_t before = heap_in_use();
  Batch out;
  ASSERT_TRUE(op.next(out));  // every run is written; the merge has begun
  ASSERT_GT(op.stats().spills, 0u);
  const int64_t held = heap_in_use() - before;
  EXPECT_LE(held, tc.memory.used() + (1 << 20)) << "the sort holds memory it does not charge";
  EXPECT_LE(tc.memory.peak(), int64_t{16} << 20);
}
#endif

}  // namespace
}  // namespace hindsight

namespace hindsight {
namespace {

TEST(SortSpillTest, AHeldOutputThatWouldNotFitBesidesTheRowsMakesThemARun) {
  // The rows fit (the limit is the in-memory sort's own peak and a little), but the query result would be held
  // besides them while the sort emits: the sort of the result's root writes them as one run and merges it back.
  const Batch in = input(20000, 9);
  const std::vector<SortKey> keys = {{0, true, false}, {3, true, false}};
  int64_t peak = 0;
  {
    TestContext tc(int64_t{1} << 40);
    tc.ctx.spill = true;
    tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
    SortOp op(&tc.ctx, 0, source(&tc.ctx, Batch(in), 1000), keys);
    drain(op);
    peak = tc.memory.peak();
  }
  const Result want = sort(in, keys, int64_t{1} << 40, false);
  TestContext tc(peak + (64 << 10));
  tc.ctx.spill = true;
  tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
  SortOp held(&tc.ctx, 0, source(&tc.ctx, Batch(in), 1000), keys);
  held.set_output_held();
  EXPECT_EQ(drain(held), want.rows);
  EXPECT_EQ(held.stats().spills, 1u);
  EXPECT_EQ(held.stats().spilled_rows, in.rows) << "one run of every row";
  EXPECT_LE(tc.memory.peak(), peak + (64 << 10));
}

}  // namespace
}  // namespace hindsight
