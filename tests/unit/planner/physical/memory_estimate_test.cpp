#include "planner/physical/memory_estimate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include <fmt/format.h>

#include "planner/exec/exec_builder.hpp"
#include "planner/exec/fragment_scheduler.hpp"
#include "planner/session/explain.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

struct Peaks {
  double estimated = 0;
  double observed = 0;
};

/// Runs `sql` twice in one session: the second run is planned with what the first observed (row counts
/// near exact) and its tables are already loaded (not charged), so its peak is the plan's own.
Peaks peaks(const std::string& sql, int workers) {
  Session s(testing::tpch_db());
  s.settings().workers = workers;
  s.run_script(sql);
  StatementResult r = s.run_script(sql);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->format() : "");
  if (!r.ok() || !r.compiled) return {};
  std::vector<const PhysicalOperator*> ctes;
  for (auto& c : r.compiled->ctes) ctes.push_back(c.physical.get());
  auto e = estimate_peak_memory(*r.compiled->physical, r.compiled->ctx, workers, ctes, true, executor_threads());
  EXPECT_GT(e.per_worker, 0);
  EXPECT_LE(e.per_worker, e.total);
  return {e.total, static_cast<double>(r.executed.peak_memory)};
}

TEST(MemoryEstimateTest, TracksObservedPeaksWithinAFactorOfThree) {
  const char* queries[] = {
      // a broadcast or partitioned build of orders probed by lineitem
      "SELECT o_orderpriority, count(*) FROM orders, lineitem WHERE o_orderkey = l_orderkey AND l_quantity < 10 "
      "GROUP BY o_orderpriority",
      // both sides repartitioned
      "SELECT count(*) FROM lineitem a, lineitem b WHERE a.l_partkey = b.l_partkey AND a.l_quantity < 2",
      // an aggregate with many groups, then a sort of its result
      "SELECT l_orderkey, sum(l_extendedprice) AS s FROM lineitem GROUP BY l_orderkey ORDER BY s DESC",
      // three joins
      "SELECT n_name, sum(l_extendedprice) FROM customer, orders, lineitem, nation WHERE c_custkey = o_custkey "
      "AND l_orderkey = o_orderkey AND c_nationkey = n_nationkey GROUP BY n_name",
  };
  for (int workers : {1, 4}) {
    for (const char* q : queries) {
      Peaks p = peaks(q, workers);
      ASSERT_GT(p.observed, 0) << q;
      const double ratio = p.estimated / p.observed;
      std::printf("workers %d  estimated %.0f  observed %.0f  ratio %.2f  %s\n", workers, p.estimated, p.observed,
                  ratio, q);
      EXPECT_GT(ratio, 1.0 / 3) << q;
      EXPECT_LT(ratio, 3.0) << q;
    }
  }
}

}  // namespace
}  // namespace hindsight

namespace hindsight {
namespace {

// customer (1,500 rows) joins orders read without its key (distributed "any"): the cheapest way is to broadcast
// customer, allowed only while its copies stay under 1/8 of the budget; otherwise orders (wide: o_comment) is
// repartitioned into customer's layout, and that buffer is the query's peak.
constexpr const char* kWideOrdersJoin =
    "SELECT count(*), max(o_clerk), max(o_comment), sum(o_totalprice) FROM orders, customer "
    "WHERE o_custkey = c_custkey";

/// 4 workers under `limit`, planned by `optimizer`, spilling or not.
Settings settings_under(int64_t limit, const std::string& optimizer, bool spill) {
  Settings s;
  s.workers = 4;
  s.memory_limit = limit;
  s.optimizer = optimizer;
  s.spill = spill;
  return s;
}

std::string plan_under(int64_t limit, const std::string& optimizer = "cost", bool spill = false) {
  return explain_text(*testing::compile(kWideOrdersJoin, settings_under(limit, optimizer, spill)), nullptr);
}

StatementResult run_under(int64_t limit, const std::string& optimizer = "cost", bool spill = false) {
  // The tables loaded by statements of their own: the limit bounds what the plan holds.
  return testing::run(std::string("SELECT * FROM orders LIMIT 1; SELECT * FROM customer LIMIT 1; ") + kWideOrdersJoin,
                      settings_under(limit, optimizer, spill));
}

/// kWideOrdersJoin's one result row, column by column, against an unconstrained run's.
void expect_same_row(const StatementResult& got, const StatementResult& want) {
  ASSERT_EQ(got.executed.batches.size(), want.executed.batches.size());
  for (size_t c = 0; c < 4; ++c) {
    const ColumnVector& a = got.executed.batches.at(0).columns.at(c);
    const ColumnVector& b = want.executed.batches.at(0).columns.at(c);
    EXPECT_EQ(a.ints, b.ints) << c;
    EXPECT_EQ(a.strs, b.strs) << c;
  }
}

TEST(MemoryAwarePlanningTest, UnderALimitTheJoinTakesTheWayThatFits) {
  const int64_t tight = 500 << 10;
  // Repartitioning orders does not fit 500 KB (the foundation planner's partitioned join shows it).
  StatementResult partitioned = run_under(tight, "foundation");
  ASSERT_FALSE(partitioned.ok());
  EXPECT_EQ(partitioned.error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
  EXPECT_NE(plan_under(tight, "foundation").find("distribution: partitioned"), std::string::npos);

  // Every way but broadcast is estimated over the budget: broadcast, beyond the 1/8 margin, and it runs.
  std::string plan = plan_under(tight);
  EXPECT_NE(plan.find("distribution: broadcast"), std::string::npos) << plan;
  StatementResult fits = run_under(tight);
  ASSERT_TRUE(fits.ok()) << fits.error->format();
  StatementResult unconstrained = run_under(8LL << 30);
  ASSERT_TRUE(unconstrained.ok());
  expect_same_row(fits, unconstrained);
  EXPECT_GT(fits.executed.batches.at(0).columns.at(0).ints.at(0), 0);
}

TEST(MemoryAwarePlanningTest, APlanThatFitsOrNoLimitKeepsTheCheapestWay) {
  // No limit: broadcast, as before.
  std::string roomy = plan_under(8LL << 30);
  EXPECT_NE(roomy.find("distribution: broadcast"), std::string::npos) << roomy;
  // 1.1 MB: broadcast is outside the 1/8 margin and the partitioned join is estimated to fit: it stays.
  std::string mid = plan_under(1100 << 10);
  EXPECT_NE(mid.find("distribution: partitioned"), std::string::npos) << mid;
}

TEST(MemoryAwarePlanningTest, WithSpillingAWayOverTheLimitIsPricedByItsSpillNotByItsPeak) {
  // 100 KB: no way is estimated to fit. Without spilling every way over the budget carries the overflow penalty
  // and the one with the lowest estimated peak (broadcasting customer) is the one most likely to run at all. With
  // spilling the excess is written out: the plan is priced by its work plus that spill, with no penalty (a join
  // order that put fewer joins over the budget used to win at any price), and broadcasting customer, whose copies
  // spill a little, still costs less than repartitioning the wide orders.
  const int64_t tight = 100 << 10;
  const Settings in_memory = settings_under(tight, "cost", false), spilling = settings_under(tight, "cost", true);
  auto cost = [](const Settings& s) { return testing::compile(kWideOrdersJoin, s)->physical->subtree_cost; };
  CostModelOptions o;
  EXPECT_GE(cost(in_memory), o.overflow_penalty);
  EXPECT_LT(cost(spilling), o.overflow_penalty / 1e6);
  std::string plan = plan_under(tight, "cost", true);
  EXPECT_NE(plan.find("distribution: broadcast"), std::string::npos) << plan;
  StatementResult spilled = run_under(tight, "cost", true);
  ASSERT_TRUE(spilled.ok()) << spilled.error->format();
  StatementResult unconstrained = run_under(8LL << 30);
  ASSERT_TRUE(unconstrained.ok());
  expect_same_row(spilled, unconstrained);
}

TEST(MemoryAwarePlanningTest, WithSpillingABroadcastMayTakeHalfTheBudget) {
  // 1.1 MB: customer's four copies exceed the 1/8 margin that guards against an underestimated broadcast failing
  // the query, so without spilling orders is repartitioned. With spilling such a broadcast would spill, not fail:
  // up to half the budget is allowed, and the cheaper broadcast is taken.
  const int64_t mid = 1100 << 10;
  std::string in_memory = plan_under(mid);
  EXPECT_NE(in_memory.find("distribution: partitioned"), std::string::npos) << in_memory;
  std::string spilling = plan_under(mid, "cost", true);
  EXPECT_NE(spilling.find("distribution: broadcast"), std::string::npos) << spilling;
}

/// A random query over TPC-H: a tree of foreign-key joins with filters, then an aggregate, a top-N or a CTE read
/// twice.
std::string random_query(uint64_t& seed) {
  auto next = [&](uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % n;
  };
  struct Edge {
    const char *a, *b, *cond;
  };
  static const Edge edges[] = {
      {"lineitem", "orders", "l_orderkey = o_orderkey"},   {"orders", "customer", "o_custkey = c_custkey"},
      {"customer", "nation", "c_nationkey = n_nationkey"}, {"supplier", "nation", "s_nationkey = n_nationkey"},
      {"lineitem", "supplier", "l_suppkey = s_suppkey"},   {"lineitem", "part", "l_partkey = p_partkey"},
      {"partsupp", "part", "ps_partkey = p_partkey"},      {"nation", "region", "n_regionkey = r_regionkey"},
  };
  static const std::map<std::string, std::pair<const char*, int>> filter = {
      {"lineitem", {"l_quantity", 50}}, {"orders", {"o_totalprice", 400000}}, {"customer", {"c_acctbal", 10000}},
      {"nation", {"n_nationkey", 25}},  {"supplier", {"s_acctbal", 10000}},   {"part", {"p_size", 50}},
      {"partsupp", {"ps_availqty", 10000}}, {"region", {"r_regionkey", 5}},
  };
  static const std::map<std::string, const char*> key = {
      {"lineitem", "l_orderkey"}, {"orders", "o_custkey"},   {"customer", "c_nationkey"}, {"nation", "n_name"},
      {"supplier", "s_suppkey"},  {"part", "p_brand"},       {"partsupp", "ps_suppkey"},  {"region", "r_name"},
  };
  std::vector<std::string> tables = {edges[next(8)].a};
  std::vector<std::string> conds;
  const size_t joins = next(5);
  for (size_t tries = 0; tables.size() <= joins && tries < 50; ++tries) {
    const Edge& e = edges[next(8)];
    bool has_a = std::count(tables.begin(), tables.end(), e.a) > 0, has_b = std::count(tables.begin(), tables.end(), e.b) > 0;
    if (has_a == has_b) continue;
    tables.push_back(has_a ? e.b : e.a);
    conds.push_back(e.cond);
  }
  for (const auto& t : tables)
    if (next(2)) {
      auto [col, range] = filter.at(t);
      conds.push_back(fmt::format("{} < {}", col, 1 + next(static_cast<uint64_t>(range))));
    }
  std::string from, where;
  for (size_t i = 0; i < tables.size(); ++i) from += (i ? ", " : "") + tables[i];
  for (size_t i = 0; i < conds.size(); ++i) where += (i ? " AND " : " WHERE ") + conds[i];
  const std::string k = key.at(tables[next(tables.size())]);
  switch (next(4)) {
    case 0: return "SELECT count(*) FROM " + from + where;
    case 1: return fmt::format("SELECT {0}, count(*) FROM {1}{2} GROUP BY {0}", k, from, where);
    case 2: return fmt::format("SELECT {0} FROM {1}{2} ORDER BY {0} LIMIT 7", k, from, where);
    default:
      return fmt::format("WITH t AS (SELECT {0} AS k, count(*) AS c FROM {1}{2} GROUP BY {0}) "
                         "SELECT count(*), sum(a.c) FROM t a, t b WHERE a.k = b.k",
                         k, from, where);
  }
}

// The scheduler and the estimate follow one order: build_exec_plan's fragments, ordered by the scheduler, come
// in the order estimate_peak_memory replays, on random plans at 1, 2 and 4 workers and several limits.
TEST(MemoryEstimateTest, TheEstimateReplaysTheSchedulersOrder) {
  uint64_t seed = 2026;
  int multi = 0;
  for (int round = 0; round < 60; ++round) {
    const std::string sql = random_query(seed);
    Settings s;
    s.workers = 1 << (round % 3);
    s.memory_limit = round % 4 == 3 ? (600 << 10) : (8LL << 30);
    auto cq = testing::compile(sql, s);
    std::vector<const PhysicalOperator*> ctes;
    for (auto& c : cq->ctes) ctes.push_back(c.physical.get());
    MemoryTracker memory(int64_t{1} << 40);
    ExecContext ctx;
    ctx.memory = &memory;
    ctx.workers = cq->workers;
    auto plan = build_exec_plan(*cq->physical, cq->ctx, &ctx, ctes);
    auto e = estimate_peak_memory(*cq->physical, cq->ctx, cq->workers, ctes, true, executor_threads());
    EXPECT_EQ(FragmentScheduler::schedule(plan->fragments), e.order) << sql;
    ASSERT_EQ(e.order.size(), plan->fragments.size()) << sql;
    if (plan->fragments.size() > 2) ++multi;
  }
  EXPECT_GT(multi, 20);  // the plans have exchanges to order
}

}  // namespace
}  // namespace hindsight
