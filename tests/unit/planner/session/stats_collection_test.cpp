// Collection: what an attempt observed, per signature, and how the next statement is planned with it.
#include "planner/session/stats_collection.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "planner/session/session.hpp"
#include "stats_store/memory_repository.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

using Kind = stats::StatsSource::KeyKind;

struct Observed {
  std::unique_ptr<CompiledQuery> cq;
  ExecutedQuery run;
  stats::AttemptStats attempt;
};

Observed run_and_collect(const std::string& sql, Settings settings = {}) {
  Observed r;
  r.cq = testing::compile(sql, settings);
  r.run = execute_query(*r.cq, settings);
  auto mapping = map_query(*r.cq, &r.run, settings, false);
  r.attempt = collect_attempt_stats(*r.cq, r.run, *mapping);
  return r;
}

const LogicalOperator* find_logical(const LogicalOperator& op, const std::function<bool(const LogicalOperator&)>& pred) {
  if (pred(op)) return &op;
  for (auto& c : op.children)
    if (auto* f = find_logical(*c, pred)) return f;
  return nullptr;
}

const PhysicalOperator* find_physical(const PhysicalOperator& op, const std::function<bool(const PhysicalOperator&)>& pred) {
  if (pred(op)) return &op;
  for (auto& c : op.children)
    if (auto* f = find_physical(*c, pred)) return f;
  return nullptr;
}

const stats::RuntimeStats* record_of(const stats::AttemptStats& a, Kind kind, const sig::Signature& s) {
  for (auto& r : a.stats)
    if (r.kind == kind && r.signature == s) return &r;
  return nullptr;
}

const LogicalOperator* get_of(const CompiledQuery& cq, const std::string& table) {
  return find_logical(*cq.logical, [&](const LogicalOperator& op) {
    return op.kind == LogicalKind::Get && op.as<LogicalGet>().table.name == table;
  });
}

TEST(StatsCollectionTest, ReplicatedScanIsCountedOnce) {
  // region is a reference table: every worker scans all 5 rows. The observation is 5, not 5 per worker, in the
  // groups, in EXPLAIN and in what is recorded.
  Settings s;
  s.workers = 3;
  Observed r = run_and_collect("SELECT r_name FROM region", s);
  ASSERT_FALSE(r.run.error);
  const LogicalOperator* get = get_of(*r.cq, "region");
  ASSERT_TRUE(get);
  const stats::RuntimeStats* rec = record_of(r.attempt, Kind::Exact, r.cq->signer->sign(*get).exact);
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->rows, 5);
  EXPECT_FALSE(rec->lower_bound);
  auto mapping = map_query(*r.cq, &r.run, s);
  auto group_rows = mapping->mapper.group_stats(*mapping->group_of_logical(get->id));
  ASSERT_TRUE(group_rows);
  EXPECT_EQ(group_rows->rows, 5);
  const PhysicalOperator* scan =
      find_physical(*r.cq->physical, [](const PhysicalOperator& op) { return op.kind == PhysicalOpKind::TableScan; });
  ASSERT_TRUE(scan);
  ASSERT_EQ(scan->distribution.kind, StreamDistribution::Replicated);
  EXPECT_EQ(observed_output(r.run, *scan)->rows, 5u);
}

TEST(StatsCollectionTest, KeysEveryNodeByItsSignaturesWithItsInputTables) {
  // A constant below the join (true of every customer) makes its template differ from its exact signature.
  Observed r = run_and_collect(
      "SELECT c_mktsegment, COUNT(*) FROM orders, customer WHERE o_custkey = c_custkey AND c_acctbal > -5000 "
      "GROUP BY c_mktsegment");
  ASSERT_FALSE(r.run.error);
  ASSERT_EQ(r.attempt.tables.size(), 2u);
  EXPECT_EQ(r.attempt.tables[0].name, "customer");
  EXPECT_EQ(r.attempt.tables[0].rows, 1500u);
  EXPECT_EQ(r.attempt.tables[1].name, "orders");
  EXPECT_TRUE(r.attempt.succeeded);
  const LogicalOperator* join = find_logical(*r.cq->logical, [](const LogicalOperator& op) { return op.kind == LogicalKind::Join; });
  ASSERT_TRUE(join);
  const NodeSignatures& sigs = r.cq->signer->sign(*join);
  ASSERT_TRUE(sigs.join_set);
  ASSERT_NE(sigs.templ, sigs.exact);
  for (auto [kind, s] : {std::pair{Kind::Exact, sigs.exact}, {Kind::JoinSet, *sigs.join_set}, {Kind::Template, sigs.templ}}) {
    const stats::RuntimeStats* rec = record_of(r.attempt, kind, s);
    ASSERT_TRUE(rec) << static_cast<int>(kind);
    EXPECT_EQ(rec->rows, 15000);  // every order has its customer
    EXPECT_FALSE(rec->lower_bound);
    EXPECT_EQ(rec->input_tables, (std::vector<std::string>{"customer", "orders"}));
    EXPECT_EQ(rec->operator_name, "Join");
    EXPECT_GT(rec->build_rows, 0u);
    EXPECT_GT(rec->build_bytes, 0u);
    EXPECT_NE(rec->canonical_text.find("over customer, orders"), std::string::npos) << rec->canonical_text;
  }
  const LogicalOperator* agg =
      find_logical(*r.cq->logical, [](const LogicalOperator& op) { return op.kind == LogicalKind::Aggregate; });
  const stats::RuntimeStats* agg_rec = record_of(r.attempt, Kind::Exact, r.cq->signer->sign(*agg).exact);
  ASSERT_TRUE(agg_rec);
  EXPECT_EQ(agg_rec->rows, 5);  // five market segments
  // A node without constants below has its exact signature as template: stored once, under the exact key.
  const LogicalOperator* orders = get_of(*r.cq, "orders");
  ASSERT_EQ(r.cq->signer->sign(*orders).templ, r.cq->signer->sign(*orders).exact);
  EXPECT_TRUE(record_of(r.attempt, Kind::Exact, r.cq->signer->sign(*orders).exact));
  EXPECT_FALSE(record_of(r.attempt, Kind::Template, r.cq->signer->sign(*orders).exact));
  // No signature twice.
  std::set<std::pair<Kind, sig::Signature>> seen;
  for (auto& rec : r.attempt.stats) EXPECT_TRUE(seen.insert({rec.kind, rec.signature}).second);
}

TEST(StatsCollectionTest, LimitEarlyExitIsALowerBound) {
  Observed r = run_and_collect("SELECT l_orderkey FROM lineitem LIMIT 10");
  ASSERT_FALSE(r.run.error);
  const LogicalOperator* get = get_of(*r.cq, "lineitem");
  const stats::RuntimeStats* rec = record_of(r.attempt, Kind::Exact, r.cq->signer->sign(*get).exact);
  // The limit went into the scan, which then does not implement the Get: nothing is taken for its rows.
  EXPECT_TRUE(!rec || rec->lower_bound);
  const LogicalOperator* limit = find_logical(*r.cq->logical, [](const LogicalOperator& op) { return op.kind == LogicalKind::Limit; });
  ASSERT_TRUE(limit);
  const stats::RuntimeStats* lim = record_of(r.attempt, Kind::Exact, r.cq->signer->sign(*limit).exact);
  ASSERT_TRUE(lim);
  EXPECT_EQ(lim->rows, 10);
  EXPECT_FALSE(lim->lower_bound);

  // A join the limit stops early is a lower bound.
  Observed j = run_and_collect("SELECT o_orderkey FROM orders, customer WHERE o_custkey = c_custkey LIMIT 10");
  ASSERT_FALSE(j.run.error);
  const LogicalOperator* join = find_logical(*j.cq->logical, [](const LogicalOperator& op) { return op.kind == LogicalKind::Join; });
  const stats::RuntimeStats* jrec = record_of(j.attempt, Kind::JoinSet, *j.cq->signer->sign(*join).join_set);
  ASSERT_TRUE(jrec);
  EXPECT_TRUE(jrec->lower_bound);
  EXPECT_LT(jrec->rows, 15000);
}

TEST(StatsCollectionTest, AFailedAttemptKeepsWhatFinishedAndBoundsTheRest) {
  Settings s;
  s.workers = 1;
  s.memory_limit = 200 << 10;  // the orders build side does not fit
  Observed r = run_and_collect("SELECT COUNT(*) FROM lineitem, orders WHERE l_orderkey = o_orderkey", s);
  ASSERT_TRUE(r.run.error);
  EXPECT_FALSE(r.attempt.succeeded);
  int exact = 0;
  for (auto& rec : r.attempt.stats) {
    exact += !rec.lower_bound;
    if (rec.operator_name == "Aggregate") ADD_FAILURE() << "the aggregate never finished: " << rec.canonical_text;
    if (!rec.lower_bound) {
      EXPECT_TRUE(rec.operator_name == "Get" || rec.operator_name.rfind("Exchange", 0) == 0)
          << rec.operator_name << " recorded as exact in a failed attempt";
    }
  }
  EXPECT_GT(exact, 0) << "the scans that finished are exact";
}

// A build side cut short by the memory limit is recorded as what it saw scaled by how far its scan got: the
// re-plan then knows the build is about as large as it is, not as small as what fitted (which gave it the same
// plan again). A count a LIMIT stopped early stays what was seen (LimitEarlyExitIsALowerBound).
TEST(StatsCollectionTest, ACutShortCountIsExtrapolatedByItsScansProgress) {
  const std::string sql = "SELECT COUNT(*), max(o_comment) FROM lineitem, orders WHERE l_orderkey = o_orderkey";
  const double rows = 15000;  // orders at SF 0.01
  Settings s;
  s.workers = 1;
  s.memory_limit = 200 << 10;  // the orders build side does not fit
  Observed r = run_and_collect(sql, s);
  ASSERT_TRUE(r.run.error);
  ASSERT_EQ(r.run.error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
  const LogicalOperator* get = get_of(*r.cq, "orders");
  ASSERT_TRUE(get);
  const stats::RuntimeStats* rec = record_of(r.attempt, Kind::Exact, r.cq->signer->sign(*get).exact);
  ASSERT_TRUE(rec);
  EXPECT_TRUE(rec->lower_bound);
  // What was seen is well under the whole (the build stopped early) ...
  const PhysicalOperator* scan = find_physical(*r.cq->physical, [](const PhysicalOperator& op) {
    return op.kind == PhysicalOpKind::TableScan && op.as<PhysicalTableScan>().table->def.name == "orders";
  });
  ASSERT_TRUE(scan);
  auto seen = observed_output(r.run, *scan);
  ASSERT_TRUE(seen);
  EXPECT_FALSE(seen->complete);
  EXPECT_LT(static_cast<double>(seen->rows), 0.6 * rows);
  // ... and the record estimates the whole, with the observed row width.
  EXPECT_GT(rec->rows, 0.8 * rows);
  EXPECT_LT(rec->rows, 1.25 * rows);
  EXPECT_GT(rec->bytes, 0u);
  const OperatorStats& st = r.run.stats.at(r.run.exec->exec_ids_of.at(scan->id).front());
  ASSERT_GT(st.rows_out, 0u);
  EXPECT_NEAR(static_cast<double>(rec->bytes) / rec->rows, static_cast<double>(st.bytes_out) / st.rows_out, 2.0);
}

// The snapshot spilling in place decides with holds, of the fragment that overflows, only the instances that
// finished and the overflowing one: a count seen in fewer instances than the run's workers is those instances'
// share, and is scaled up to all of them (as plan_progress scales it). Until session 28 the recorded count was
// one instance's share, and the re-plan at the overflow kept a build side 4x too small (big_customers_orders at
// SF 1: 277k estimated for 1.1M).
TEST(StatsCollectionTest, ACutShortCountSeenInFewerInstancesIsScaledToTheWorkers) {
  const std::string sql = "SELECT COUNT(*), max(o_comment) FROM lineitem, orders WHERE l_orderkey = o_orderkey";
  Settings s;
  s.workers = 1;
  s.memory_limit = 200 << 10;  // the orders build side does not fit
  Observed r = run_and_collect(sql, s);
  ASSERT_TRUE(r.run.error);
  const LogicalOperator* get = get_of(*r.cq, "orders");
  ASSERT_TRUE(get);
  const sig::Signature key = r.cq->signer->sign(*get).exact;
  const stats::RuntimeStats* whole = record_of(r.attempt, Kind::Exact, key);
  ASSERT_TRUE(whole);
  ASSERT_TRUE(whole->lower_bound);
  const PhysicalOperator* scan = find_physical(*r.cq->physical, [](const PhysicalOperator& op) {
    return op.kind == PhysicalOpKind::TableScan && op.as<PhysicalTableScan>().table->def.name == "orders";
  });
  ASSERT_TRUE(scan);
  ASSERT_NE(scan->distribution.kind, StreamDistribution::Replicated);
  EXPECT_NEAR(extrapolation(r.run, *scan) * static_cast<double>(observed_output(r.run, *scan)->rows), whole->rows, 1);
  // The same figures as the snapshot of a 4-worker run shows them: one instance of four.
  ExecutedQuery snapshot = r.run;
  snapshot.workers = 4;
  auto mapping = map_query(*r.cq, &snapshot, s, false);
  const stats::AttemptStats seen = collect_attempt_stats(*r.cq, snapshot, *mapping);
  const stats::RuntimeStats* share = record_of(seen, Kind::Exact, key);
  ASSERT_TRUE(share);
  EXPECT_TRUE(share->lower_bound);
  EXPECT_NEAR(share->rows, 4 * whole->rows, 2);
  EXPECT_NEAR(static_cast<double>(share->bytes), 4.0 * static_cast<double>(whole->bytes), 4);
  // A run that did not fail (a LIMIT stopped it) is what it is, in any number of instances.
  snapshot.error.reset();
  EXPECT_EQ(extrapolation(snapshot, *scan), 1);
}

/// Runs `script` in one session and returns the last statement's result (an EXPLAIN ANALYZE).
StatementResult in_one_session(const std::string& script, Settings settings = {}) {
  Session session(testing::tpch_db());
  session.settings() = settings;
  return session.run_script(script);
}

TEST(StatsFeedbackTest, ALaterQueryInAnotherJoinOrderGetsTheObservedRows) {
  // Another join order, conjuncts reordered, other aliases: the join is estimated from what the first statement saw.
  StatementResult r = in_one_session(
      "SELECT COUNT(*) FROM orders, customer WHERE o_custkey = c_custkey AND c_mktsegment = 'BUILDING' "
      "AND o_orderstatus = 'F';"
      "EXPLAIN ANALYZE SELECT COUNT(*) FROM customer c, orders o WHERE o.o_orderstatus = 'F' AND "
      "c.c_custkey = o.o_custkey AND c.c_mktsegment = 'BUILDING'");
  ASSERT_TRUE(r.ok()) << r.error->format();
  const PhysicalOperator* join =
      find_physical(*r.compiled->physical, [](const PhysicalOperator& op) { return op.kind == PhysicalOpKind::HashJoin; });
  ASSERT_TRUE(join);
  EXPECT_TRUE(join->estimate_source == stats::EstimateSource::JoinSet ||
              join->estimate_source == stats::EstimateSource::Runtime)
      << stats::estimate_source_name(join->estimate_source);
  auto actual = observed_output(r.executed, *join);
  ASSERT_TRUE(actual && actual->complete);
  EXPECT_EQ(join->estimated_rows, static_cast<double>(actual->rows));
  // The aggregate above the join too: its signature digests the join set, not the join order.
  const PhysicalOperator* final_agg = find_physical(*r.compiled->physical, [](const PhysicalOperator& op) {
    return op.kind == PhysicalOpKind::HashAggregate && op.logical_id != 0;
  });
  ASSERT_TRUE(final_agg);
  EXPECT_EQ(final_agg->estimate_source, stats::EstimateSource::Runtime);
  // Both filtered scans too.
  for (const char* table : {"orders", "customer"}) {
    const PhysicalOperator* scan = find_physical(*r.compiled->physical, [&](const PhysicalOperator& op) {
      return op.kind == PhysicalOpKind::TableScan && op.as<PhysicalTableScan>().table->def.name == table;
    });
    ASSERT_TRUE(scan);
    EXPECT_EQ(scan->estimate_source, stats::EstimateSource::Runtime) << table;
    EXPECT_EQ(scan->estimated_rows, static_cast<double>(observed_output(r.executed, *scan)->rows)) << table;
  }
}

TEST(StatsFeedbackTest, ALimitRunNeverLowersALaterEstimate) {
  // The first statement stops its scan early: what it saw is a lower bound, below the model's figure.
  const std::string later = "EXPLAIN ANALYZE SELECT COUNT(*) FROM lineitem WHERE l_quantity > 10";
  StatementResult cold = in_one_session(later);
  StatementResult warm = in_one_session("SELECT l_orderkey FROM lineitem WHERE l_quantity > 10 LIMIT 10;" + later);
  ASSERT_TRUE(cold.ok() && warm.ok());
  auto scan_estimate = [](const StatementResult& r) {
    return find_physical(*r.compiled->physical, [](const PhysicalOperator& op) {
             return op.kind == PhysicalOpKind::TableScan;
           })->estimated_rows;
  };
  EXPECT_GE(scan_estimate(warm), scan_estimate(cold));
}

TEST(StatsFeedbackTest, ScopeOffNeitherRecordsNorUses) {
  Settings s;
  s.stats_scope = Settings::StatsScope::Off;
  StatementResult r = in_one_session(
      "SELECT COUNT(*) FROM orders WHERE o_orderstatus = 'F'; EXPLAIN ANALYZE SELECT COUNT(*) FROM orders WHERE "
      "o_orderstatus = 'F'",
      s);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.observed.empty());
  std::function<void(const PhysicalOperator&)> all_model = [&](const PhysicalOperator& op) {
    EXPECT_EQ(op.estimate_source, stats::EstimateSource::Model) << physical_op_name(op.kind);
    for (auto& c : op.children) all_model(*c);
  };
  all_model(*r.compiled->physical);
}

TEST(StatsFeedbackTest, QueryScopeDoesNotOutliveItsStatement) {
  Settings s;
  s.stats_scope = Settings::StatsScope::Query;
  StatementResult r = in_one_session(
      "SELECT COUNT(*) FROM orders WHERE o_orderstatus = 'F'; EXPLAIN ANALYZE SELECT COUNT(*) FROM orders WHERE "
      "o_orderstatus = 'F'",
      s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.observed.size(), 1u);  // recorded into its own scope
  const PhysicalOperator* scan = find_physical(*r.compiled->physical, [](const PhysicalOperator& op) {
    return op.kind == PhysicalOpKind::TableScan;
  });
  EXPECT_EQ(scan->estimate_source, stats::EstimateSource::Model);
}

}  // namespace
}  // namespace hindsight
