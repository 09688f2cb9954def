// Fail early (MemoryTracker::set_fail_early, ExecOperator::fail_early_if_over): a hash join build whose input rows
// are all known in advance (an exchange source) stops once its memory, extrapolated to its whole input, would take
// the query past its limit, instead of after it has read the rows up to the limit. Where the input's size is not
// known (a filter, a join's probe, anything but a scan or an exchange source) nothing is extrapolated.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "planner/common/error.hpp"
#include "planner/exec/exchange.hpp"
#include "planner/exec/operators/exchange_source.hpp"
#include "planner/exec/operators/filter.hpp"
#include "planner/exec/operators/hash_join_build.hpp"
#include "planner/exec/operators/project.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;

constexpr int kRows = 100000;  // 16 bytes of live data a row: 1.6 MB built

std::shared_ptr<ExchangeBuffer> filled_buffer(TestContext& tc) {
  auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1,
                                              std::vector<DataType>{DataType::bigint(), DataType::bigint()}, &tc.memory);
  for (int from = 0; from < kRows; from += static_cast<int>(kBatchSize)) {
    std::vector<OptInt> k, v;
    for (int i = from; i < std::min(kRows, from + static_cast<int>(kBatchSize)); ++i) {
      k.push_back(i);
      v.push_back(i * 7);
    }
    buf->push(0, make_batch({int_col(k), int_col(v)}), "producer");
  }
  return buf;
}

/// Builds a hash table over the buffer's rows (through `wrap`: the operators between the source and the build)
/// under `limit` bytes on top of what the buffer holds; returns the error (empty when it fit) and the rows the
/// build consumed.
struct Outcome {
  std::string error;
  uint64_t rows_in = 0;
};
template <class Wrap>
Outcome build_under(int64_t limit, bool fail_early, Wrap wrap) {
  TestContext tc(int64_t{1} << 40);
  auto buf = filled_buffer(tc);
  // The limit counts from what the buffer holds: a tracker of its own for the build, as a later fragment's
  // operators see a budget that the exchange buffers already take part of.
  MemoryTracker memory(tc.memory.used() + limit);
  memory.charge(tc.memory.used(), "the buffered input");
  memory.set_fail_early(fail_early);
  ExecContext ctx;
  ctx.memory = &memory;
  auto src = std::make_unique<ExchangeSourceOp>(&tc.ctx, 0, buf);  // pops are charged to the buffer's tracker
  HashJoinBuildOp build(&ctx, 0, wrap(&ctx, std::move(src)), {0});
  Outcome out;
  try {
    drain(build);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
    out.error = e.message();
  }
  out.rows_in = build.stats().rows_in;
  return out;
}

auto direct = [](ExecContext*, std::unique_ptr<ExecOperator> in) { return in; };

TEST(FailEarlyTest, ABuildOverAnExchangeStopsAtATenthOfItsInput) {
  const int64_t limit = 600 << 10;  // well under the 1.6 MB the build needs
  const Outcome late = build_under(limit, false, direct);
  const Outcome early = build_under(limit, true, direct);
  ASSERT_FALSE(late.error.empty());
  ASSERT_FALSE(early.error.empty());
  EXPECT_EQ(late.error.find("stopped early"), std::string::npos) << late.error;
  EXPECT_NE(early.error.find("stopped early: reexec_fail_early"), std::string::npos) << early.error;
  EXPECT_NE(early.error.find("HashJoinBuild"), std::string::npos) << early.error;
  // Without it the build reads up to the limit (a fifth of the rows at least: 600 KB of 1.6 MB, charged at most
  // twice what it holds); with it, it stops once a tenth is read (a batch past it at most).
  EXPECT_GE(late.rows_in, static_cast<uint64_t>(kRows / 5));
  EXPECT_LE(early.rows_in, static_cast<uint64_t>(kRows / 10 + kBatchSize));
  EXPECT_LT(early.rows_in, late.rows_in);
}

TEST(FailEarlyTest, ABuildThatFitsIsNotStopped) {
  // 1.6 MB of rows, charged up to twice that while the columns grow, plus the table: 8 MB is room enough.
  const Outcome o = build_under(8 << 20, true, direct);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.rows_in, static_cast<uint64_t>(kRows));
}

TEST(FailEarlyTest, AProjectionPassesProgressThroughAFilterDoesNot) {
  const int64_t limit = 600 << 10;
  auto project = [](ExecContext* ctx, std::unique_ptr<ExecOperator> in) -> std::unique_ptr<ExecOperator> {
    std::vector<ExprPtr> exprs;
    exprs.push_back(col_ref(0));
    exprs.push_back(col_ref(1));
    return std::make_unique<ProjectOp>(ctx, 0, std::move(in), std::move(exprs));
  };
  const Outcome projected = build_under(limit, true, project);
  EXPECT_NE(projected.error.find("stopped early"), std::string::npos) << projected.error;
  // A filter keeps a share of the rows nobody knows before reading them: no extrapolation, the build fails when
  // the limit is really reached.
  auto filter = [](ExecContext* ctx, std::unique_ptr<ExecOperator> in) -> std::unique_ptr<ExecOperator> {
    return std::make_unique<FilterOp>(ctx, 0, std::move(in), compare(ScalarOp::Ge, col_ref(0), lit(0)));
  };
  const Outcome filtered = build_under(limit, true, filter);
  ASSERT_FALSE(filtered.error.empty());
  EXPECT_EQ(filtered.error.find("stopped early"), std::string::npos) << filtered.error;
  EXPECT_GE(filtered.rows_in, static_cast<uint64_t>(kRows / 5));
}

TEST(FailEarlyTest, ProgressOfAnExchangeSourceCountsTheRowsItsBufferHolds) {
  TestContext tc;
  auto buf = filled_buffer(tc);
  ExchangeSourceOp src(&tc.ctx, 0, buf);
  src.open();
  EXPECT_DOUBLE_EQ(src.progress(), 0.0);
  Batch b;
  ASSERT_TRUE(src.next(b));
  EXPECT_NEAR(src.progress(), static_cast<double>(b.rows) / kRows, 1e-12);
  while (src.next(b)) {
  }
  EXPECT_DOUBLE_EQ(src.progress(), 1.0);
}

}  // namespace
}  // namespace hindsight
