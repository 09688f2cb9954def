// Spilling in place (ExecContext::spill_in_place, docs/reexec.md): an operator that could spill, refused a charge
// while spilling is off, asks the context once whether the attempt goes on spilling. Yes: spilling turns on there
// and then, and the operator (and every later one) spills, with the rows of an unconstrained run. No (or no hook):
// MEMORY_LIMIT_EXCEEDED as without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <random>

#include "planner/common/error.hpp"
#include "planner/exec/exchange.hpp"
#include "planner/exec/operators/exchange_sink.hpp"
#include "planner/exec/operators/exchange_source.hpp"
#include "planner/exec/operators/hash_aggregate.hpp"
#include "planner/exec/operators/hash_join_build.hpp"
#include "planner/exec/operators/hash_join_probe.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

/// (k, tag): keys 0..distinct-1, strings to make the rows wide.
Batch rows(size_t n, int64_t distinct, uint32_t seed, const std::string& side) {
  std::mt19937 rng(seed);
  std::vector<OptInt> k;
  std::vector<OptStr> tag;
  for (size_t i = 0; i < n; ++i) {
    k.push_back(static_cast<int64_t>(rng() % static_cast<uint32_t>(distinct)));
    tag.push_back(side + std::to_string(i) + "-padding-to-be-wide");
  }
  return make_batch({int_col(k), str_col(tag)});
}

/// A context whose hook answers `yes` and, on yes, turns spilling on as the query pipeline does (the directory,
/// the reserve, then the flag); counts how often it was asked.
struct InPlaceContext {
  explicit InPlaceContext(int64_t limit, bool yes) : tc(limit) {
    tc.ctx.spill_in_place = [this, yes](const ExecOperator& op) {
      ++asked;
      asked_by = op.name();
      if (!yes) return false;
      tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
      tc.memory.set_spill_reserve(spill_reserve_for(tc.memory.limit(), 1));
      for (auto& b : buffers) b->enable_spill(tc.ctx.spill_directory);
      tc.ctx.spill.store(true);
      return true;
    };
  }
  TestContext tc;
  std::vector<std::shared_ptr<ExchangeBuffer>> buffers;
  int asked = 0;
  std::string asked_by;
};

V join(ExecContext* ctx, const Batch& probe, const Batch& build, OperatorStats* build_stats = nullptr) {
  auto b = std::make_unique<HashJoinBuildOp>(ctx, 0, source(ctx, build), std::vector<int>{0});
  HashJoinProbeOp j(ctx, 0, source(ctx, probe), std::move(b), {0}, JoinType::Inner, nullptr);
  V out = sorted(drain(j));
  if (build_stats) *build_stats = j.children()[1]->stats();
  return out;
}

TEST(SpillInPlaceTest, ARefusedJoinBuildSpillsWhenTheAttemptSaysSoWithTheUnconstrainedRows) {
  const Batch probe = rows(12000, 6000, 1, "p");
  const Batch build = rows(10000, 6000, 2, "b");
  const int64_t limit = 400 << 10;
  TestContext free_tc;
  const V want = join(&free_tc.ctx, probe, build);
  ASSERT_GT(free_tc.memory.peak(), limit);  // the unconstrained join does not fit the limit
  ASSERT_FALSE(want.empty());

  InPlaceContext yes(limit, true);
  OperatorStats build_stats;
  const V got = join(&yes.tc.ctx, probe, build, &build_stats);
  EXPECT_EQ(got, want);
  EXPECT_EQ(yes.asked, 1) << "asked once, at the first refusal";
  EXPECT_EQ(yes.asked_by, "HashJoinBuild");
  EXPECT_TRUE(yes.tc.ctx.spill.load());
  EXPECT_GE(build_stats.spills, 1u);
  EXPECT_GT(build_stats.spilled_rows, 0u);
  EXPECT_LE(yes.tc.memory.peak(), limit);
  EXPECT_EQ(yes.tc.memory.used(), 0);
}

TEST(SpillInPlaceTest, ARefusedJoinBuildFailsWhenTheAttemptSaysNoOrNobodyIsAsked) {
  const Batch probe = rows(12000, 6000, 1, "p");
  const Batch build = rows(10000, 6000, 2, "b");
  const int64_t limit = 400 << 10;
  InPlaceContext no(limit, false);
  try {
    join(&no.tc.ctx, probe, build);
    FAIL() << "the join fit the limit";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
    EXPECT_NE(e.message().find("HashJoinBuild"), std::string::npos) << e.message();
  }
  EXPECT_EQ(no.asked, 1);
  EXPECT_FALSE(no.tc.ctx.spill.load());

  TestContext none(limit);  // no hook: as before spilling in place existed
  EXPECT_THROW(join(&none.ctx, probe, build), Error);
}

TEST(SpillInPlaceTest, ARefusedExchangePushSpillsAndDeliversEveryRowInPushOrder) {
  const std::vector<DataType> types{DataType::bigint(), DataType::varchar()};
  auto produce = [&](InPlaceContext* c, int64_t limit) {
    TestContext local(limit);
    TestContext& tc = c ? c->tc : local;
    auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1, types, &tc.memory);
    if (c) c->buffers.push_back(buf);
    OperatorStats sinks;
    for (int w = 0; w < 3; ++w) {
      ExchangeSinkOp sink(&tc.ctx, w, source(&tc.ctx, rows(20000, 50, 10 + w, "w" + std::to_string(w)), 700, w), buf);
      drain(sink);
      sinks.merge(sink.stats());
    }
    ExchangeSourceOp src(&tc.ctx, 0, buf);
    V out = drain(src);
    return std::make_pair(out, sinks);
  };
  const auto want = produce(nullptr, int64_t{1} << 40);
  ASSERT_EQ(want.first.size(), 60000u);
  InPlaceContext yes(256 << 10, true);
  const auto got = produce(&yes, 256 << 10);
  EXPECT_EQ(got.first, want.first) << "rows and order";
  EXPECT_EQ(yes.asked, 1);
  EXPECT_EQ(yes.asked_by, "ExchangeSink");
  EXPECT_GT(got.second.spilled_rows, 0u);
  EXPECT_EQ(yes.tc.memory.used(), 0);
  InPlaceContext no(256 << 10, false);
  EXPECT_THROW(produce(&no, 256 << 10), Error);
  EXPECT_EQ(no.asked, 1);
}

/// Rows in a Final aggregate's input layout, as Partial instances send them: (g, COUNT(*) state, SUM(x) state),
/// `rows` of them over keys 0..groups-1 in random order, so most groups come in several rows.
Batch partial_states(size_t rows, int64_t groups, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<OptInt> g, count, sum;
  for (size_t r = 0; r < rows; ++r) {
    const int64_t k = static_cast<int64_t>(rng() % static_cast<uint32_t>(groups));
    g.push_back(k);
    count.push_back(static_cast<int64_t>(1 + rng() % 5));
    sum.push_back(k % 11 == 0 ? std::nullopt : OptInt(static_cast<int64_t>(rng() % 1000)));
  }
  return make_batch({int_col(g), int_col(count), int_col(sum)});
}

std::vector<AggregateSpec> count_and_sum() {
  return {{AggKind::CountStar, -1, false, DataType::bigint()}, {AggKind::Sum, 2, false, DataType::bigint()}};
}

V final_aggregate(ExecContext* ctx, const Batch& in, OperatorStats* stats = nullptr) {
  HashAggregateOp fin(ctx, 0, source(ctx, in, 1000), {0}, count_and_sum(), AggregateMode::Final);
  V out = sorted(drain(fin));
  if (stats) *stats = fin.stats();
  return out;
}

/// Runs `aggregate` (rows, its overflowing operator's stats) unconstrained, then under a third of that peak with the
/// attempt saying yes to spilling in place: the same rows, asked once by the aggregate, within the limit, nothing
/// left charged. Saying no, it fails as before. `writes`: the operator wrote spill files (a Final does, a Partial
/// emits instead).
void expect_aggregate_spills_in_place(const std::function<V(ExecContext*, OperatorStats*)>& aggregate, bool writes) {
  TestContext free_tc;
  const V want = aggregate(&free_tc.ctx, nullptr);
  ASSERT_GT(want.size(), 10000u);
  const int64_t limit = free_tc.memory.peak() / 3;

  InPlaceContext yes(limit, true);
  OperatorStats stats;
  EXPECT_EQ(aggregate(&yes.tc.ctx, &stats), want) << "every group once, whole";
  EXPECT_EQ(yes.asked, 1);
  EXPECT_EQ(yes.asked_by, "HashAggregate");
  EXPECT_GE(stats.spills, 1u);
  if (writes) {
    EXPECT_GT(stats.spilled_rows, 0u);
  }
  EXPECT_LE(yes.tc.memory.peak(), limit);
  EXPECT_EQ(yes.tc.memory.used(), 0);

  InPlaceContext no(limit, false);
  EXPECT_THROW(aggregate(&no.tc.ctx, nullptr), Error);
  EXPECT_EQ(no.asked, 1);
}

std::vector<AggregateSpec> count_and_min() {
  return {{AggKind::CountStar, -1, false, DataType::bigint()}, {AggKind::Min, 1, false, DataType::varchar()}};
}

/// COUNT(*) and MIN(tag) per key, Partial then Final (one tracker for both, as on one worker).
V two_phase(ExecContext* ctx, const Batch& in, OperatorStats* partial_stats = nullptr) {
  auto partial = std::make_unique<HashAggregateOp>(ctx, 0, source(ctx, in, 1000), std::vector<int>{0},
                                                   count_and_min(), AggregateMode::Partial);
  HashAggregateOp* p = partial.get();
  HashAggregateOp fin(ctx, 0, std::move(partial), std::vector<int>{0}, count_and_min(), AggregateMode::Final);
  V out = sorted(drain(fin));
  if (partial_stats) *partial_stats = p->stats();
  return out;
}

TEST(SpillInPlaceTest, ARefusedFinalAggregateSendsTheGroupsItHeldToItsPartitions) {
  const Batch in = partial_states(60000, 20000, 5);
  expect_aggregate_spills_in_place([&](ExecContext* ctx, OperatorStats* s) { return final_aggregate(ctx, in, s); },
                                   /*writes=*/true);
}

TEST(SpillInPlaceTest, ARefusedPartialAggregateEmitsTheGroupsItHeldAndTheFinalAboveMergesThem) {
  // The Partial fills first: it is the one asked.
  const Batch in = rows(60000, 30000, 3, "x");
  expect_aggregate_spills_in_place([&](ExecContext* ctx, OperatorStats* s) { return two_phase(ctx, in, s); },
                                   /*writes=*/false);
}

/// Passes its child's batches on; before the `after`-th it asks the attempt to spill in place, as a join build or
/// an exchange refused elsewhere in the plan would. With `leave` >= 0 it first takes all of the limit but `leave`
/// bytes, as a finished join build does until its probe ends, and gives it back at the end of its input.
class TurnsSpillingOnAfter : public ExecOperator {
 public:
  TurnsSpillingOnAfter(ExecContext* ctx, std::unique_ptr<ExecOperator> child, int after, int64_t leave = -1)
      : ExecOperator("Overflowing", ctx, 0), after_(after), leave_(leave) {
    output_types_ = child->output_types();
    add_child(std::move(child));
  }

 protected:
  bool next_impl(Batch& out) override {
    if (after_-- == 0) {
      if (leave_ >= 0) {
        held_ = ctx_->memory->limit() - ctx_->memory->used() - leave_;
        charge(held_);
      }
      ctx_->spill_now(*this);
    }
    if (pull(0, out)) return true;
    release(held_);
    held_ = 0;
    return false;
  }

 private:
  int after_;
  int64_t leave_;
  int64_t held_ = 0;
};

/// A Single aggregate of `aggs` per key of `in` (batches of 1000 rows); with `spill_after` >= 0 a
/// TurnsSpillingOnAfter(spill_after, leave) under it. Sorted rows; its stats in `stats`.
V single_aggregate(ExecContext* ctx, const Batch& in, const std::vector<AggregateSpec>& aggs, int spill_after,
                   int64_t leave, OperatorStats* stats) {
  std::unique_ptr<ExecOperator> child = source(ctx, in, 1000);
  if (spill_after >= 0) child = std::make_unique<TurnsSpillingOnAfter>(ctx, std::move(child), spill_after, leave);
  HashAggregateOp op(ctx, 0, std::move(child), {0}, aggs, AggregateMode::Single);
  V out = sorted(drain(op));
  if (stats) *stats = op.stats();
  return out;
}

TEST(SpillInPlaceTest, ASingleAggregateKeepsItsGroupsAndSpillsTheOthersOnceSpillingIsOn) {
  // Its states are not rows of its input: there is no layout to write the groups it holds to its files in. So it
  // keeps them and writes only other groups' rows: from its first batch after another operator turned spilling
  // on, or when it asked itself, refused the growth it reserves before inserting a batch's new groups near the
  // limit. COUNT(*) and MIN(tag) over 30,000 keys.
  const Batch in = rows(60000, 30000, 3, "x");
  auto single = [&](ExecContext* ctx, int spill_after, OperatorStats* stats) {
    return single_aggregate(ctx, in, count_and_min(), spill_after, -1, stats);
  };
  TestContext free_tc;
  const V want = single(&free_tc.ctx, -1, nullptr);
  ASSERT_GT(want.size(), 20000u);
  const int64_t limit = free_tc.memory.peak() / 3;

  InPlaceContext no(limit, false);
  EXPECT_THROW(single(&no.tc.ctx, -1, nullptr), Error);
  EXPECT_EQ(no.asked, 1);
  EXPECT_EQ(no.asked_by, "HashAggregate");

  // Either way every group comes out once, whole, and the rows of the groups held when it switched stay in memory.
  auto expect_kept_groups = [&](InPlaceContext& c, int spill_after, const std::string& asked_by) {
    OperatorStats stats;
    EXPECT_EQ(single(&c.tc.ctx, spill_after, &stats), want);
    EXPECT_EQ(c.asked, 1);
    EXPECT_EQ(c.asked_by, asked_by);
    EXPECT_GT(stats.spilled_rows, 0u);
    EXPECT_LT(stats.spilled_rows, 60000u - 5000u);
    EXPECT_LE(c.tc.memory.peak(), limit);
    EXPECT_EQ(c.tc.memory.used(), 0);
  };
  {
    SCOPED_TRACE("refused its own growth");
    InPlaceContext itself(limit, true);
    expect_kept_groups(itself, -1, "HashAggregate");
  }
  {
    SCOPED_TRACE("another operator turned spilling on");
    InPlaceContext other(limit, true);
    expect_kept_groups(other, 5, "Overflowing");
  }
}

TEST(SpillInPlaceTest, ASingleAggregateSwitchedNearTheLimitWritesWithTheRoomLeft) {
  // Another operator holds all of the limit but 8 KB when it turns spilling on (q10 at SF 1: a join build). The
  // aggregate's 16 spill files take buffers that fit in half of that room instead of their usual size; without
  // that it failed ("the buffers of its 16 spill files ... do not fit beside ... groups").
  const Batch in = rows(60000, 30000, 3, "x");
  const std::vector<AggregateSpec> aggs = {{AggKind::CountStar, -1, false, DataType::bigint()},
                                           {AggKind::Sum, 0, false, DataType::bigint()}};
  auto single = [&](ExecContext* ctx, int64_t leave, OperatorStats* stats) {
    return single_aggregate(ctx, in, aggs, leave >= 0 ? 5 : -1, leave, stats);
  };
  TestContext free_tc;
  const V want = single(&free_tc.ctx, -1, nullptr);
  ASSERT_GT(want.size(), 20000u);
  const int64_t limit = 2 * free_tc.memory.peak();

  InPlaceContext c(limit, true);
  OperatorStats stats;
  EXPECT_EQ(single(&c.tc.ctx, 8 << 10, &stats), want);
  EXPECT_EQ(c.asked, 1);
  EXPECT_EQ(c.asked_by, "Overflowing");
  EXPECT_GT(stats.spilled_rows, 0u);
  EXPECT_LE(c.tc.memory.peak(), limit);
  EXPECT_EQ(c.tc.memory.used(), 0);
}

}  // namespace
}  // namespace hindsight
