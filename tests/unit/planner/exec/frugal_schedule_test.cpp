// The memory-frugal fragment order (planner/exec/fragment_order.hpp) on a whole query: two branches of a UNION
// ALL each broadcast a small table into a join. Breadth-first (every fragment without inputs first) held both
// broadcast buffers at once; depth-first runs each branch's join right after its broadcast.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "planner/exec/exec_builder.hpp"
#include "planner/session/explain.hpp"
#include "planner/session/query_limits.hpp"
#include "planner/session/query_pipeline.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

constexpr const char* kLoads =
    "SELECT * FROM lineitem LIMIT 1; SELECT * FROM part LIMIT 1; SELECT * FROM orders LIMIT 1; "
    "SELECT * FROM customer LIMIT 1; ";
constexpr const char* kTwoBroadcasts =
    "SELECT p_brand, count(*), max(l_comment) FROM lineitem, part WHERE l_partkey = p_partkey GROUP BY p_brand "
    "UNION ALL SELECT c_mktsegment, count(*), max(o_comment) FROM orders, customer WHERE o_custkey = c_custkey "
    "GROUP BY c_mktsegment";

TEST(FrugalScheduleTest, EachBranchRunsRightAfterItsBroadcast) {
  Settings s;
  s.workers = 2;
  auto cq = testing::compile(kTwoBroadcasts, s);
  std::vector<const PhysicalOperator*> ctes;
  MemoryTracker memory(int64_t{1} << 40);
  ExecContext ctx;
  ctx.memory = &memory;
  ctx.workers = cq->workers;
  auto plan = build_exec_plan(*cq->physical, cq->ctx, &ctx, ctes);
  // Fragments: the gathered root reads the two branches; each branch (join + partial aggregate) reads its
  // broadcast and feeds a final aggregate through a repartition.
  std::vector<int> order = FragmentScheduler::schedule(plan->fragments);
  ASSERT_EQ(order.size(), plan->fragments.size());
  std::vector<int> pos(order.size());
  for (size_t k = 0; k < order.size(); ++k) pos[static_cast<size_t>(order[k])] = static_cast<int>(k);
  int leaves = 0;
  for (const Fragment& f : plan->fragments) {
    if (!f.depends_on.empty()) continue;
    ++leaves;
    // A broadcast's reader runs right after it.
    for (const Fragment& g : plan->fragments)
      for (int d : g.depends_on)
        if (d == f.id) {
          EXPECT_EQ(pos[static_cast<size_t>(g.id)], pos[static_cast<size_t>(f.id)] + 1) << f.id;
        }
  }
  EXPECT_EQ(leaves, 2);
}

// The plan planned without a limit (under one the join of part and lineitem is partitioned instead), run after its
// tables are loaded. Observed peaks (EXPLAIN ANALYZE, SF 0.01, 2 workers): 470–490 KB breadth-first (the
// broadcasts of part and of customer buffered at once), 290–350 KB depth-first. Which instances overlap on the
// 2 cores adds noise on top (a loaded machine was seen to reach 480 KB once in ten runs), never takes it away: the
// least peak of five runs is what the order decides, and it stays under 410 KB, which breadth-first never reached.
TEST(FrugalScheduleTest, ThePlansLeastPeakIsUnderWhatTheBreadthFirstOrderAlwaysExceeded) {
  Settings s;
  s.workers = 2;
  auto cq = testing::compile(kTwoBroadcasts, s);
  std::vector<const PhysicalOperator*> ctes;
  const std::string plan = explain_text(*cq, nullptr);
  ASSERT_EQ(plan.find("distribution: partitioned"), std::string::npos) << plan;
  int64_t least = std::numeric_limits<int64_t>::max();
  for (int run = 0; run < 5; ++run) {
    QueryLimits limits(s);
    ExecutedQuery r = execute_plan(*cq->physical, cq->ctx, ctes, cq->outputs, s, &limits);
    ASSERT_FALSE(r.error) << r.error->format();
    EXPECT_GT(r.peak_memory, 150 << 10);  // the broadcasts and hash tables were charged
    EXPECT_FALSE(r.batches.empty());
    least = std::min(least, r.peak_memory);
  }
  EXPECT_LE(least, 410 << 10);
}

}  // namespace
}  // namespace hindsight
