#include "planner/physical/physical_planner.hpp"

#include <gtest/gtest.h>

#include "planner/session/explain.hpp"
#include "planner/session/query_limits.hpp"
#include "planner/session/query_pipeline.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using testing::compile;

std::string physical(const std::string& sql, int workers = 4, int64_t memory_limit = 8LL << 30) {
  Settings s;
  s.workers = workers;
  s.memory_limit = memory_limit;
  auto cq = compile(sql, s);
  return explain_text(*cq, nullptr);
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(PhysicalPlannerTest, OrdersJoinLineitemOnOrderkeyIsColocated) {
  std::string plan = physical("SELECT count(*) FROM orders, lineitem WHERE o_orderkey = l_orderkey");
  EXPECT_NE(plan.find("distribution: colocated"), std::string::npos) << plan;
  EXPECT_EQ(count(plan, "Repartition"), 0) << plan;
  EXPECT_EQ(count(plan, "Broadcast"), 0) << plan;
}

TEST(PhysicalPlannerTest, JoinWithAReferenceTableNeedsNoExchange) {
  std::string plan = physical("SELECT c_name, n_name FROM customer, nation WHERE c_nationkey = n_nationkey");
  EXPECT_NE(plan.find("distribution: reference"), std::string::npos) << plan;
  EXPECT_EQ(count(plan, "Repartition") + count(plan, "Broadcast"), 0) << plan;
  EXPECT_EQ(count(plan, "Gather"), 1) << plan;
}

TEST(PhysicalPlannerTest, BuildTooLargeToCopyToEveryWorkerIsPartitioned) {
  const char* q = "SELECT count(*) FROM lineitem, partsupp WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey";
  std::string roomy = physical(q);
  EXPECT_NE(roomy.find("distribution: broadcast"), std::string::npos) << roomy;
  // 8,000 partsupp rows x 32 bytes x 4 workers does not fit 1/8 of 2 MB: partitioned (estimated at 1.6 MB, within
  // the limit). partsupp is already hashed on ps_partkey (8 buckets), so only lineitem moves, into partsupp's layout.
  std::string tight = physical(q, 4, 2 << 20);
  EXPECT_NE(tight.find("distribution: partitioned"), std::string::npos) << tight;
  EXPECT_EQ(count(tight, "Repartition"), 1) << tight;
  EXPECT_NE(tight.find("Repartition [keys: l_partkey; buckets: 8]"), std::string::npos) << tight;
  EXPECT_EQ(count(tight, "Broadcast"), 0) << tight;
}

// The plans a memory limit that no way of distributing a join fits gets, run under that limit after their tables
// are loaded: the way with the lowest estimated peak is taken, not the cheapest (a re-plan after
// MEMORY_LIMIT_EXCEEDED wants the plan most likely to fit). SF 0.01:
// - lineitem x partsupp, 4 workers, 1 MB: partitioned estimated at 1.6 MB (observed: exceeds 1 MB), the broadcast of
//   partsupp at 750 KB (beyond its margin of half the limit; observed 750–880 KB);
// - a UNION ALL of lineitem x part and orders x customer, 2 workers, 410 KB: lineitem x part partitioned estimated at
//   1.9 MB (observed: exceeds 410 KB), the broadcast of part at 250 KB (observed 255 KB, at times more: not run).
TEST(PhysicalPlannerTest, WhenNoWayFitsTheLimitTheLeastMemoryWayIsTaken) {
  const std::string union_all =
      "SELECT p_brand, count(*), max(l_comment) FROM lineitem, part WHERE l_partkey = p_partkey GROUP BY p_brand "
      "UNION ALL SELECT c_mktsegment, count(*), max(o_comment) FROM orders, customer WHERE o_custkey = c_custkey "
      "GROUP BY c_mktsegment";
  const std::string partsupp =
      "SELECT count(*) FROM lineitem, partsupp WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey";
  ASSERT_TRUE(testing::run("SELECT * FROM lineitem LIMIT 1; SELECT * FROM part LIMIT 1; SELECT * FROM orders LIMIT 1; "
                           "SELECT * FROM customer LIMIT 1; SELECT * FROM partsupp LIMIT 1")
                  .ok());
  struct Case {
    const std::string& sql;
    int workers;
    int64_t limit;
    int broadcasts;
    bool run;  // the UNION ALL's observed peak varies with the threads' interleaving (up to 480 KB seen)
  };
  for (const Case& c : {Case{partsupp, 4, 1 << 20, 1, true}, Case{union_all, 2, 410 << 10, 2, false}}) {
    Settings s;
    s.workers = c.workers;
    s.memory_limit = c.limit;
    auto cq = compile(c.sql, s);
    const std::string plan = explain_text(*cq, nullptr);
    EXPECT_EQ(count(plan, "distribution: partitioned"), 0) << plan;
    EXPECT_EQ(count(plan, "distribution: broadcast"), c.broadcasts) << plan;
    if (!c.run) continue;
    std::vector<const PhysicalOperator*> ctes;
    QueryLimits limits(s);
    ExecutedQuery r = execute_plan(*cq->physical, cq->ctx, ctes, cq->outputs, s, &limits);
    ASSERT_FALSE(r.error) << r.error->format() << "\n" << plan;
    EXPECT_LE(r.peak_memory, c.limit);
    EXPECT_FALSE(r.batches.empty());
  }
}

TEST(PhysicalPlannerTest, NeitherSideHashedOnTheKeysRepartitionsBoth) {
  std::string plan = physical("SELECT count(*) FROM lineitem a, lineitem b WHERE a.l_partkey = b.l_partkey", 4, 1 << 20);
  EXPECT_NE(plan.find("distribution: partitioned"), std::string::npos) << plan;
  EXPECT_EQ(count(plan, "Repartition [keys: l_partkey]"), 2) << plan;
}

TEST(PhysicalPlannerTest, OneSidedRepartitionGivesTheSameRowsForAnyWorkerCount) {
  // Worker counts that do and do not divide the 8 buckets: rows hashed into a table's bucket
  // layout must meet that table's rows on whichever worker reads the bucket.
  const char* q = "SELECT count(*), sum(ps_availqty) FROM lineitem, partsupp WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey";
  std::vector<int64_t> counts;
  for (int w : {1, 3, 4}) {
    Settings s;
    s.workers = w;
    s.memory_limit = 4 << 20;  // too small to copy partsupp to every worker, enough to run
    auto plan = explain_text(*compile(q, s), nullptr);
    if (w > 1) {
      EXPECT_NE(plan.find("buckets: 8"), std::string::npos) << plan;
    }
    auto r = testing::run(q, s);
    ASSERT_TRUE(r.ok()) << r.error->format();
    counts.push_back(r.executed.batches.at(0).columns.at(0).ints.at(0));
  }
  EXPECT_GT(counts[0], 0);
  EXPECT_EQ(counts[0], counts[1]);
  EXPECT_EQ(counts[0], counts[2]);
}

// A column only a scan's filter reads is read by the scan (project(3 of 9)) but not produced: it does not reach the
// join's build side, and the answer is the one a query selecting the column too gives.
TEST(PhysicalPlannerTest, TheScanReadsFilterOnlyColumnsWithoutProducingThem) {
  const std::string q =
      "SELECT count(*), sum(o_totalprice) FROM customer JOIN orders ON c_custkey = o_custkey "
      "WHERE o_comment NOT LIKE '%special%requests%' AND o_orderdate < DATE '1995-01-01'";
  std::string plan = physical(q);
  EXPECT_NE(plan.find("TableScan [table: orders; columns: o_custkey, o_totalprice; filter: o_comment NOT LIKE"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("project(4 of 9)"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("columns: o_custkey, o_totalprice, o_orderdate"), std::string::npos) << plan;
  Settings s;
  s.workers = 3;
  auto r = testing::run(q, s);
  ASSERT_TRUE(r.ok()) << r.error->format();
  // The same rows when the filter's columns are outputs too (selected by a projection above).
  auto wide = testing::run(
      "SELECT count(*), sum(o_totalprice), count(o_comment), min(o_orderdate) FROM customer JOIN orders ON "
      "c_custkey = o_custkey WHERE o_comment NOT LIKE '%special%requests%' AND o_orderdate < DATE '1995-01-01'",
      s);
  ASSERT_TRUE(wide.ok()) << wide.error->format();
  const auto& a = r.executed.batches.at(0).columns;
  const auto& b = wide.executed.batches.at(0).columns;
  EXPECT_GT(a.at(0).ints.at(0), 0);
  EXPECT_EQ(a.at(0).ints.at(0), b.at(0).ints.at(0));
  EXPECT_EQ(a.at(1).get(0).to_string(), b.at(1).get(0).to_string());
}

TEST(PhysicalPlannerTest, FoundationPlannerRepartitionsBothSides) {
  Settings s;
  s.workers = 4;
  s.memory_limit = 1 << 20;
  s.optimizer = "foundation";
  auto plan = explain_text(*compile("SELECT count(*) FROM lineitem, partsupp WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey", s), nullptr);
  EXPECT_EQ(count(plan, "Repartition"), 2) << plan;
}

TEST(PhysicalPlannerTest, AggregationIsTwoPhaseUnlessAlreadyDistributedOnTheKeys) {
  std::string two = physical("SELECT l_returnflag, count(*) FROM lineitem GROUP BY l_returnflag");
  EXPECT_NE(two.find("mode: PARTIAL"), std::string::npos) << two;
  EXPECT_NE(two.find("mode: FINAL"), std::string::npos) << two;
  std::string one = physical("SELECT l_orderkey, count(*) FROM lineitem GROUP BY l_orderkey");
  EXPECT_NE(one.find("mode: SINGLE"), std::string::npos) << one;
  EXPECT_EQ(count(one, "Repartition"), 0) << one;
}

TEST(PhysicalPlannerTest, OrderByLimitBecomesTopNBelowAndAboveTheGather) {
  std::string plan = physical("SELECT o_orderkey FROM orders ORDER BY o_totalprice DESC LIMIT 5");
  EXPECT_EQ(count(plan, "TopN"), 2) << plan;
  EXPECT_LT(plan.find("Gather"), plan.rfind("TopN")) << plan;
}

TEST(PhysicalPlannerTest, NotInBroadcastsItsBuildSide) {
  std::string plan = physical("SELECT p_partkey FROM part WHERE p_size NOT IN (SELECT s_nationkey FROM supplier)");
  EXPECT_NE(plan.find("NULL_AWARE_ANTI"), std::string::npos) << plan;
  EXPECT_NE(plan.find("distribution: broadcast"), std::string::npos) << plan;
}

}  // namespace
}  // namespace hindsight

