// Exchange buffers that spill (docs/spilling.md): every kind delivers exactly the rows, in the order, of the
// unconstrained run; the sinks' stats say what was written; with spill off the same limit fails.
#include <gtest/gtest.h>

#include <filesystem>

#include "planner/common/error.hpp"
#include "planner/exec/exchange.hpp"
#include "planner/exec/fragment_scheduler.hpp"
#include "planner/exec/operators/hash_aggregate.hpp"
#include "planner/exec/operators/exchange_sink.hpp"
#include "planner/exec/operators/exchange_source.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

const std::vector<DataType> kTypes{DataType::bigint(), DataType::varchar()};

/// Rows from..to: a key with NULLs, strings some longer than the inline buffer.
Batch rows(int from, int to) {
  std::vector<OptInt> k;
  std::vector<OptStr> s;
  for (int i = from; i < to; ++i) {
    k.push_back(i % 97 == 0 ? std::nullopt : OptInt(i % 50));
    const std::string pad(static_cast<size_t>(i % 30), 'x');
    s.push_back(i % 11 == 0 ? std::nullopt : OptStr("row-" + std::to_string(i) + pad));
  }
  return make_batch({int_col(k), str_col(s)});
}

struct Run {
  std::vector<V> per_consumer;
  OperatorStats sinks;  ///< summed over the producers
  int64_t held_after_production = 0;  ///< what the buffer held once every producer had pushed
  uint64_t rows_moved = 0;
};

/// Pushes producer w's rows through a sink on worker w (one after the other, as a fragment's instances may
/// run), then drains every consumer. Spill on when `spill`.
Run through(int64_t limit, bool spill, ExchangeKind kind, int consumers, int producers) {
  TestContext tc(limit);
  tc.ctx.spill = spill;
  tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
  const std::vector<int> keys = kind == ExchangeKind::Repartition ? std::vector<int>{0} : std::vector<int>{};
  auto buf = std::make_shared<ExchangeBuffer>(kind, consumers, kTypes, &tc.memory, keys);
  if (spill) buf->enable_spill(tc.ctx.spill_directory);
  Run run;
  for (int w = 0; w < producers; ++w) {
    ExchangeSinkOp sink(&tc.ctx, w, source(&tc.ctx, rows(w * 20000, (w + 1) * 20000), 700, w), buf);
    EXPECT_EQ(drain(sink), V{});
    run.sinks.merge(sink.stats());
  }
  run.held_after_production = buf->buffered_bytes();
  run.rows_moved = buf->rows_moved();
  for (int c = 0; c < consumers; ++c) {
    ExchangeSourceOp src(&tc.ctx, c, buf);
    run.per_consumer.push_back(drain(src));
  }
  EXPECT_EQ(buf->spilled_rows(), run.sinks.spilled_rows);
  EXPECT_EQ(buf->buffered_bytes(), 0) << "read buffers and spill files are released once read";
  EXPECT_EQ(tc.memory.used(), 0);
  if (spill) {
    EXPECT_LE(tc.memory.peak(), limit);
  }
  return run;
}

void expect_spilled_same(ExchangeKind kind, int consumers, int producers) {
  const Run want = through(int64_t{1} << 40, false, kind, consumers, producers);
  EXPECT_EQ(want.sinks.spilled_rows, 0u);
  const Run got = through(256 << 10, true, kind, consumers, producers);
  ASSERT_EQ(got.per_consumer.size(), want.per_consumer.size());
  size_t total = 0;
  for (size_t c = 0; c < want.per_consumer.size(); ++c) {
    total += want.per_consumer[c].size();
    EXPECT_EQ(got.per_consumer[c], want.per_consumer[c]) << "consumer " << c << " (rows and order)";
  }
  EXPECT_EQ(total, static_cast<size_t>(producers * 20000) * (kind == ExchangeKind::Broadcast ? consumers : 1));
  EXPECT_EQ(got.rows_moved, want.rows_moved);
  EXPECT_GT(got.sinks.spilled_rows, 0u);
  EXPECT_GT(got.sinks.spilled_bytes, 0u);
  EXPECT_GE(got.sinks.spills, 1u);
  if (kind != ExchangeKind::Repartition) {
    // One queue: once it spilled, what it had queued went to disk too; only the file's write buffer is held.
    EXPECT_EQ(got.sinks.spilled_rows, static_cast<uint64_t>(producers * 20000));
    EXPECT_LE(got.held_after_production, 64 << 10);
  }
  // Broadcast writes a row once for all consumers.
  EXPECT_LE(got.sinks.spilled_rows, static_cast<uint64_t>(producers * 20000));
  EXPECT_THROW(
      {
        try {
          through(256 << 10, false, kind, consumers, producers);
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
          throw;
        }
      },
      Error);
}

TEST(ExchangeSpillTest, GatherDeliversEveryRowInPushOrder) { expect_spilled_same(ExchangeKind::Gather, 1, 3); }

TEST(ExchangeSpillTest, BroadcastToThreeConsumersSharesOneFile) {
  expect_spilled_same(ExchangeKind::Broadcast, 3, 2);
}

TEST(ExchangeSpillTest, RepartitionKeepsEachConsumersRows) { expect_spilled_same(ExchangeKind::Repartition, 3, 2); }

TEST(ExchangeSpillTest, WriteBufferThatDoesNotFitFailsWithAMessage) {
  try {
    through(200, true, ExchangeKind::Gather, 1, 1);  // below the least write buffer (kSpillMinBufferBytes)
    FAIL() << "expected MEMORY_LIMIT_EXCEEDED";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
    EXPECT_NE(std::string(e.what()).find("write buffer"), std::string::npos) << e.what();
  }
}

/// Producers pushing at once (the fragment scheduler runs a fragment's instances on threads): 4 producers into
/// `kind` with 3 consumers, each consumer counting rows and the largest string per key.
struct Concurrent {
  V rows;
  uint64_t spilled = 0;
};
Concurrent concurrent(int64_t limit, bool spill, ExchangeKind kind) {
  TestContext tc(limit, 4);
  tc.ctx.spill = spill;
  tc.ctx.spill_directory = std::filesystem::temp_directory_path().string();
  const std::vector<int> keys = kind == ExchangeKind::Repartition ? std::vector<int>{0} : std::vector<int>{};
  auto buf = std::make_shared<ExchangeBuffer>(kind, 3, kTypes, &tc.memory, keys);
  if (spill) buf->enable_spill(tc.ctx.spill_directory);
  ExecContext* ctx = &tc.ctx;
  std::vector<Fragment> f(2);
  f[0] = {0, 4, [=](int w) -> std::unique_ptr<ExecOperator> {
            auto in = source(ctx, rows(w * 20000, (w + 1) * 20000), 500, w);
            auto sink = std::make_unique<ExchangeSinkOp>(ctx, w, std::move(in), buf);
            sink->exec_id = 1;
            return sink;
          }, {}, {}};
  f[1] = {1, 3, [=](int w) -> std::unique_ptr<ExecOperator> {
            auto src = std::make_unique<ExchangeSourceOp>(ctx, w, buf);
            src->exec_id = 2;
            std::vector<AggregateSpec> aggs = {{AggKind::CountStar, -1, false, DataType::bigint()},
                                               {AggKind::Max, 1, false, DataType::varchar()}};
            auto agg = std::make_unique<HashAggregateOp>(ctx, w, std::move(src), std::vector<int>{0}, aggs,
                                                         AggregateMode::Single);
            agg->exec_id = 3;
            return agg;
          }, {0}, {}};
  Concurrent out;
  {
    FragmentScheduler scheduler(&tc.ctx);
    out.rows = rows_of(run_fragments(scheduler, f));
    scheduler.visit_operators([&](const ExecOperator& op) {
      if (op.exec_id == 1) out.spilled += op.stats().spilled_rows;
    });
  }
  std::sort(out.rows.begin(), out.rows.end());
  EXPECT_EQ(tc.memory.used(), 0);
  return out;
}

TEST(ExchangeSpillTest, ConcurrentProducersRepartitionAndBroadcast) {
  for (ExchangeKind kind : {ExchangeKind::Repartition, ExchangeKind::Broadcast}) {
    const Concurrent want = concurrent(int64_t{1} << 40, false, kind);
    const Concurrent got = concurrent(512 << 10, true, kind);
    EXPECT_EQ(got.rows, want.rows) << exchange_kind_name(kind);
    EXPECT_GT(got.spilled, 0u) << exchange_kind_name(kind);
    EXPECT_EQ(want.spilled, 0u);
    // Broadcast: each of the 3 consumers counts every row; Repartition: the keys are split among them.
    EXPECT_EQ(want.rows.size(), kind == ExchangeKind::Broadcast ? 3 * 51u : 51u);
  }
}

}  // namespace
}  // namespace hindsight
