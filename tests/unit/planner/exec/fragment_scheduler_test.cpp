#include "planner/exec/fragment_scheduler.hpp"

#include <gtest/gtest.h>

#include <map>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "planner/exec/exchange.hpp"
#include "planner/exec/operators/exchange_sink.hpp"
#include "planner/exec/operators/exchange_source.hpp"
#include "planner/exec/operators/hash_aggregate.hpp"
#include "planner/exec/operators/sort.hpp"
#include "planner/exec/operators/table_scan.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

TablePtr numbers(int buckets, int rows_per_bucket) {
  auto t = std::make_shared<Table>();
  t->def.name = "n";
  t->def.columns = {{"k", DataType::bigint(), true}};
  t->def.buckets = buckets;
  for (int b = 0; b < buckets; ++b) {
    ColumnVector c(DataType::bigint());
    for (int r = 0; r < rows_per_bucket; ++r) r % 10 == 9 ? c.append_null() : c.append_int(r % 7);
    t->buckets.push_back({std::move(c)});
  }
  return t;
}

/// scan (W) -> repartition on k -> count(*) group by k (W) -> gather -> sort (1)
std::vector<Fragment> count_by_key_plan(ExecContext* ctx, TablePtr table, std::shared_ptr<ExchangeBuffer> repart,
                                        std::shared_ptr<ExchangeBuffer> gather) {
  std::vector<Fragment> f(3);
  f[0] = {0, ctx->workers, [=](int w) -> std::unique_ptr<ExecOperator> {
            auto scan = std::make_unique<TableScanOp>(ctx, w, table, std::vector<int>{0}, nullptr);
            scan->exec_id = 0;
            auto sink = std::make_unique<ExchangeSinkOp>(ctx, w, std::move(scan), repart);
            sink->exec_id = 1;
            return sink;
          }, {}, {}};
  f[1] = {1, ctx->workers, [=](int w) -> std::unique_ptr<ExecOperator> {
            auto src = std::make_unique<ExchangeSourceOp>(ctx, w, repart);
            src->exec_id = 2;
            std::vector<AggregateSpec> aggs = {{AggKind::CountStar, -1, false, DataType::bigint()}};
            auto agg = std::make_unique<HashAggregateOp>(ctx, w, std::move(src), std::vector<int>{0}, aggs,
                                                         AggregateMode::Single);
            agg->exec_id = 3;
            auto sink = std::make_unique<ExchangeSinkOp>(ctx, w, std::move(agg), gather);
            sink->exec_id = 4;
            return sink;
          }, {0}, {}};
  f[2] = {2, 1, [=](int w) -> std::unique_ptr<ExecOperator> {
            auto src = std::make_unique<ExchangeSourceOp>(ctx, w, gather);
            src->exec_id = 5;
            auto sort = std::make_unique<SortOp>(ctx, w, std::move(src), std::vector<SortKey>{{0, true, true}});
            sort->exec_id = 6;
            return sort;
          }, {1}, {}};
  return f;
}

TEST(ExecSchedulerTest, RunsFragmentsInDependencyOrderAndKeepsStats) {
  TestContext tc(int64_t{1} << 40, 3);
  TablePtr table = numbers(6, 1000);
  std::vector<DataType> one = {DataType::bigint()};
  auto repart = std::make_shared<ExchangeBuffer>(ExchangeKind::Repartition, 3, one, &tc.memory, std::vector<int>{0});
  auto gather = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1,
                                                 std::vector<DataType>{DataType::bigint(), DataType::bigint()}, &tc.memory);
  {
    FragmentScheduler scheduler(&tc.ctx);
    auto plan = count_by_key_plan(&tc.ctx, table, repart, gather);
    std::reverse(plan.begin(), plan.end());  // order in the list must not matter
    std::vector<Batch> out = run_fragments(scheduler, plan);
    EXPECT_EQ(rows_of(out), (V{"NULL|600", "0|774", "1|774", "2|768", "3|774", "4|774", "5|768", "6|768"}));
    EXPECT_EQ(scheduler.output_types().size(), 2u);

    std::map<int, OperatorStats> by_exec;
    std::map<int, int> instances;
    scheduler.visit_operators([&](const ExecOperator& op) {
      auto [it, fresh] = by_exec.emplace(op.exec_id, op.stats());
      if (!fresh) it->second.merge(op.stats());
      ++instances[op.exec_id];
    });
    EXPECT_EQ(instances, (std::map<int, int>{{0, 3}, {1, 3}, {2, 3}, {3, 3}, {4, 3}, {5, 1}, {6, 1}}));
    EXPECT_EQ(by_exec[0].rows_out, 6000u);
    EXPECT_EQ(by_exec[1].rows_in, 6000u);
    EXPECT_EQ(by_exec[2].rows_out, 6000u);
    EXPECT_EQ(by_exec[3].rows_out, 8u);
    EXPECT_EQ(by_exec[6].rows_out, 8u);
    for (auto& [id, s] : by_exec) EXPECT_TRUE(s.complete) << id;
    EXPECT_EQ(repart->rows_moved(), 6000u);
    EXPECT_EQ(gather->rows_moved(), 8u);
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

/// Produces one-row batches until cancelled (bounded, so a broken cancellation fails instead of hanging).
class EndlessSourceOp : public ExecOperator {
 public:
  static constexpr uint64_t kCap = 20'000'000;
  EndlessSourceOp(ExecContext* ctx, int worker) : ExecOperator("Endless", ctx, worker) {
    output_types_ = {DataType::bigint()};
  }

 protected:
  bool next_impl(Batch& out) override {
    if (++count_ > kCap) return false;
    out = make_batch({int_col({static_cast<int64_t>(count_)})});
    return true;
  }

 private:
  uint64_t count_ = 0;
};

/// A fragment whose instance 1 fails after a few batches while instance 0 runs until cancelled.
std::vector<Fragment> failing_plan(ExecContext* ctx, std::shared_ptr<ExchangeBuffer> gather, bool std_exception) {
  std::vector<Fragment> f(2);
  f[0] = {10, 2, [=](int w) -> std::unique_ptr<ExecOperator> {
            std::unique_ptr<ExecOperator> src;
            if (w == 0) {
              src = std::make_unique<EndlessSourceOp>(ctx, w);
            } else if (std_exception) {
              struct Thrower : BatchSourceOp {
                using BatchSourceOp::BatchSourceOp;
                bool next_impl(Batch&) override { throw std::runtime_error("boom"); }
              };
              src = std::make_unique<Thrower>(ctx, w, std::vector<DataType>{DataType::bigint()}, std::vector<Batch>{});
            } else {
              auto s = source(ctx, make_batch({int_col({1, 2, 3, 4, 5})}), 1, w);
              s->fail_after = 3;
              s->fail_code = ErrorCode::TRANSIENT;
              src = std::move(s);
            }
            src->exec_id = 0;
            auto sink = std::make_unique<ExchangeSinkOp>(ctx, w, std::move(src), gather);
            sink->exec_id = 1;
            return sink;
          }, {}, {}};
  f[1] = {11, 1, [=](int w) -> std::unique_ptr<ExecOperator> {
            auto src = std::make_unique<ExchangeSourceOp>(ctx, w, gather);
            src->exec_id = 2;
            return src;
          }, {10}, {}};
  return f;
}

TEST(ExecSchedulerTest, AFailingInstanceCancelsTheOthersAndItsErrorIsRethrown) {
  TestContext tc(int64_t{1} << 40, 2);
  auto gather = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1, std::vector<DataType>{DataType::bigint()},
                                                 &tc.memory);
  {
    FragmentScheduler scheduler(&tc.ctx);
    try {
      scheduler.run(failing_plan(&tc.ctx, gather, false));
      FAIL() << "expected the injected error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::TRANSIENT);
    }
    EXPECT_TRUE(tc.ctx.cancelled.load());
    int visited = 0;
    scheduler.visit_operators([&](const ExecOperator& op) {
      ++visited;
      EXPECT_FALSE(op.stats().complete) << op.name() << " worker " << op.worker();
      if (op.name() == "Endless") {
        EXPECT_LT(op.stats().rows_out, EndlessSourceOp::kCap);
      }
    });
    EXPECT_EQ(visited, 5);  // 2 x (source + sink), and the root fragment that never ran
    EXPECT_EQ(scheduler.instances(11).size(), 1u);
  }
  gather.reset();
  EXPECT_EQ(tc.memory.used(), 0);
}

TEST(ExecSchedulerTest, NonErrorExceptionsBecomeInternal) {
  TestContext tc(int64_t{1} << 40, 2);
  auto gather = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1, std::vector<DataType>{DataType::bigint()},
                                                 &tc.memory);
  FragmentScheduler scheduler(&tc.ctx);
  try {
    scheduler.run(failing_plan(&tc.ctx, gather, true));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::INTERNAL);
    EXPECT_NE(e.message().find("boom"), std::string::npos);
  }
}

TEST(ExecSchedulerTest, PassingTheDeadlineIsATimeout) {
  TestContext tc(int64_t{1} << 40, 2);
  tc.ctx.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  auto gather = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1,
                                                 std::vector<DataType>{DataType::bigint(), DataType::bigint()}, &tc.memory);
  auto repart = std::make_shared<ExchangeBuffer>(ExchangeKind::Repartition, 2, std::vector<DataType>{DataType::bigint()},
                                                 &tc.memory, std::vector<int>{0});
  FragmentScheduler scheduler(&tc.ctx);
  try {
    scheduler.run(count_by_key_plan(&tc.ctx, numbers(2, 10), repart, gather));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::TIMEOUT);
  }
}

/// What spilling in place decides with (visit_finished, called from a worker of the running fragment): the
/// fragments that finished, and of the running one the instances that ran to their end, never one still running.
TEST(ExecSchedulerTest, AWorkerSeesTheFragmentsAndTheInstancesOfItsOwnFragmentThatFinished) {
  constexpr int kWorkers = 4;
  TestContext tc(int64_t{1} << 40, kWorkers);
  std::vector<DataType> one = {DataType::bigint()};
  auto first = std::make_shared<ExchangeBuffer>(ExchangeKind::Repartition, kWorkers, one, &tc.memory,
                                                std::vector<int>{0});
  auto gather = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1, one, &tc.memory);
  FragmentScheduler scheduler(&tc.ctx);
  // exec ids: 0/1 the first fragment's scan and sink; 10 + w the second fragment's source on worker w (it tells the
  // instances apart), 3 its sink; 4 the root's source.
  std::map<int, int> seen_by_last;  // exec id -> instances visited, as the last instance of fragment 1 saw them
  bool waited_out = false;
  // The last instance of fragment 1 waits (at most 10 s) until it sees the other three finished, then records what
  // it sees. The scheduler hands instances out in order, so the others are running or done when it starts.
  struct Watcher : ExecOperator {
    Watcher(ExecContext* ctx, int w, std::function<void()> on_first) : ExecOperator("Watcher", ctx, w), f(on_first) {
      output_types_ = {DataType::bigint()};
    }
    bool next_impl(Batch&) override {
      if (f) f();
      return false;
    }
    std::function<void()> f;
  };
  std::vector<Fragment> f(3);
  f[0] = {0, kWorkers, [&](int w) -> std::unique_ptr<ExecOperator> {
            auto scan = std::make_unique<TableScanOp>(&tc.ctx, w, numbers(kWorkers, 100), std::vector<int>{0}, nullptr);
            scan->exec_id = 0;
            auto sink = std::make_unique<ExchangeSinkOp>(&tc.ctx, w, std::move(scan), first);
            sink->exec_id = 1;
            return sink;
          }, {}, {}};
  f[1] = {1, kWorkers, [&](int w) -> std::unique_ptr<ExecOperator> {
            std::unique_ptr<ExecOperator> src;
            if (w < kWorkers - 1) {
              src = std::make_unique<ExchangeSourceOp>(&tc.ctx, w, first);
            } else {
              src = std::make_unique<Watcher>(&tc.ctx, w, [&] {
                auto count = [&] {
                  std::map<int, int> m;
                  scheduler.visit_finished([&](const ExecOperator& op) { ++m[op.exec_id]; });
                  return m;
                };
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                auto others_done = [&] {
                  std::map<int, int> m = count();
                  int done = 0;
                  for (int o = 0; o < kWorkers - 1; ++o) done += m[10 + o];
                  return done;
                };
                while (others_done() < kWorkers - 1) {
                  if (std::chrono::steady_clock::now() > until) {
                    waited_out = true;
                    break;
                  }
                  std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
                seen_by_last = count();
              });
            }
            src->exec_id = 10 + w;
            auto sink = std::make_unique<ExchangeSinkOp>(&tc.ctx, w, std::move(src), gather);
            sink->exec_id = 3;
            return sink;
          }, {0}, {}};
  f[2] = {2, 1, [&](int w) -> std::unique_ptr<ExecOperator> {
            auto src = std::make_unique<ExchangeSourceOp>(&tc.ctx, w, gather);
            src->exec_id = 4;
            return src;
          }, {1}, {}};
  scheduler.run(f, 2);
  EXPECT_FALSE(waited_out) << "the other instances of the fragment never showed as finished";
  EXPECT_EQ(seen_by_last[0], kWorkers);  // the first fragment: every instance
  EXPECT_EQ(seen_by_last[1], kWorkers);
  for (int w = 0; w < kWorkers - 1; ++w) EXPECT_EQ(seen_by_last[10 + w], 1) << "instance " << w;
  EXPECT_EQ(seen_by_last.count(10 + kWorkers - 1), 0u) << "the running instance itself";
  EXPECT_EQ(seen_by_last[3], kWorkers - 1);  // the finished instances' sinks, not the running one's
  EXPECT_EQ(seen_by_last.count(4), 0u);      // the root has not started
  int after = 0;
  scheduler.visit_finished([&](const ExecOperator&) { ++after; });
  EXPECT_EQ(after, 2 * kWorkers + 2 * kWorkers + 1);  // once run() returned: everything
}

TEST(ExecSchedulerTest, MemoryErrorInOneWorkerIsReportedAndEverythingIsReleased) {
  TestContext tc(200 * 1024, 2);
  TablePtr table = numbers(4, 20000);
  std::vector<DataType> one = {DataType::bigint()};
  {
    auto repart = std::make_shared<ExchangeBuffer>(ExchangeKind::Repartition, 2, one, &tc.memory, std::vector<int>{0});
    auto gather = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1,
                                                   std::vector<DataType>{DataType::bigint(), DataType::bigint()},
                                                   &tc.memory);
    FragmentScheduler scheduler(&tc.ctx);
    try {
      scheduler.run(count_by_key_plan(&tc.ctx, table, repart, gather), 2);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
      EXPECT_NE(e.message().find("ExchangeSink#1"), std::string::npos) << e.message();
    }
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

}  // namespace
}  // namespace hindsight
