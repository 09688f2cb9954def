// The regression guard's memory (stats_store/plan_history.hpp): plan runs folded per template, kept by
// the process scope and the SQLite store (schema 2, migrated from 1), answers recorded and replayed.
#include "stats_store/plan_history.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "planner/session/regression_guard.hpp"
#include "stats_store/memory_repository.hpp"
#include "stats_store/sqlite_store.hpp"
#include "tests/unit/stats_store/stats_builders.hpp"

namespace hindsight::stats {
namespace {

using testing::TempDir;
using testing::attempt;
const std::vector<TableVersion> kT = {{"t", "v1", 1000}};
using testing::sig_of;
using testing::stat;

PlannedAnswer answer(PlannedAnswer::Call call, uint64_t n, double rows, EstimateSource source = EstimateSource::Runtime) {
  PlannedAnswer a;
  a.call = call;
  a.signature = sig_of(n);
  a.observed.rows = rows;
  a.observed.bytes = 8 * static_cast<uint64_t>(rows);
  a.observed.confidence = 0.75;
  a.source = source;
  return a;
}

PlanRun plan_run(const std::string& plan, double ms, int64_t at, std::vector<PlannedAnswer> answers = {}) {
  PlanRun r;
  r.template_signature = std::string(32, 'a');
  r.plan_hash = plan;
  r.elapsed_ms = ms;
  r.at_unix_ms = at;
  r.query_text = "SELECT 1";
  r.answers = std::move(answers);
  return r;
}

void sql_exec(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

TEST(PlanHistoryTest, FoldKeepsTheFastestRunPerPlanAndBoundsThePlans) {
  std::vector<PlanRecord> plans;
  fold_plan_run(plans, plan_run("p1", 50, 1));
  fold_plan_run(plans, plan_run("p1", 30, 2));
  fold_plan_run(plans, plan_run("p1", 70, 3));
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].runs, 3u);
  EXPECT_EQ(plans[0].best_ms, 30);
  EXPECT_EQ(plans[0].last_ms, 70);
  EXPECT_EQ(plans[0].first_seen_ms, 1);
  EXPECT_EQ(plans[0].last_seen_ms, 3);
  for (int i = 0; i < 40; ++i) fold_plan_run(plans, plan_run("q" + std::to_string(i), 10, 10 + i));
  EXPECT_EQ(plans.size(), kPlansPerTemplate);
  for (auto& p : plans) EXPECT_NE(p.plan_hash, "p1");  // the least recently run went first
}

TEST(PlanHistoryTest, AnswersRoundTripAsTextAndReplayExactly) {
  std::vector<PlannedAnswer> in = {answer(PlannedAnswer::Call::Lookup, 1, 1500, EstimateSource::JoinSet),
                                   answer(PlannedAnswer::Call::FindJoinSet, 2, 0.5)};
  in[1].observed.lower_bound = true;
  in[1].observed.peak_memory = 123456789;
  auto out = decode_answers(encode_answers(in) + "garbage line\n");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].signature, sig_of(1));
  EXPECT_EQ(out[0].source, EstimateSource::JoinSet);
  EXPECT_EQ(out[1].observed.rows, 0.5);
  EXPECT_TRUE(out[1].observed.lower_bound);
  EXPECT_EQ(out[1].observed.peak_memory, 123456789);
  EXPECT_DOUBLE_EQ(out[0].observed.confidence, 0.75);

  ReplayStatsSource replay(out);
  auto hit = replay.lookup({sig_of(1), std::nullopt, sig_of(9)});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->observed.rows, 1500);
  EXPECT_EQ(hit->source, EstimateSource::JoinSet);
  EXPECT_FALSE(replay.lookup({sig_of(2), std::nullopt, sig_of(9)}));  // recorded as a find, not a lookup
  EXPECT_TRUE(replay.find(StatsSource::KeyKind::JoinSet, sig_of(2)));
  EXPECT_FALSE(replay.find(StatsSource::KeyKind::Exact, sig_of(2)));
}

TEST(PlanHistoryTest, RecordingRemembersWhatTheInnerSourceAnswered) {
  MemoryStatsRepository repo;
  repo.record(attempt({stat(1, 100), stat(2, 7, {"t"}, false, StatsSource::KeyKind::JoinSet)}));
  auto rec = std::make_shared<RecordingStatsSource>(repo.snapshot(kT, 0.1));
  EXPECT_TRUE(rec->lookup({sig_of(1), std::nullopt, sig_of(50)}));
  EXPECT_TRUE(rec->find(StatsSource::KeyKind::JoinSet, sig_of(2)));
  EXPECT_FALSE(rec->lookup({sig_of(3), std::nullopt, sig_of(51)}));  // nothing known: not recorded
  auto answers = rec->answers();
  ASSERT_EQ(answers.size(), 2u);
  ReplayStatsSource replay(answers);
  EXPECT_EQ(replay.lookup({sig_of(1), std::nullopt, sig_of(50)})->observed.rows, 100);
  EXPECT_EQ(replay.find(StatsSource::KeyKind::JoinSet, sig_of(2))->rows, 7);
}

TEST(PlanHistoryTest, TheProcessScopeAndTheStoreRememberPlansPerTemplate) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  const auto answers = std::vector<PlannedAnswer>{answer(PlannedAnswer::Call::Lookup, 1, 42)};
  MemoryStatsRepository memory;
  {
    SqliteStatsStore store(path);
    for (StatsRepository* r : {static_cast<StatsRepository*>(&memory), static_cast<StatsRepository*>(&store)}) {
      r->record_plan_run(plan_run("fast", 10, 1, answers));
      r->record_plan_run(plan_run("slow", 300, 2));
      r->record_plan_run(plan_run("fast", 12, 3, answers));
    }
    EXPECT_TRUE(store.take_warnings().empty());
  }
  SqliteStatsStore reopened(path);
  for (StatsRepository* r : {static_cast<StatsRepository*>(&memory), static_cast<StatsRepository*>(&reopened)}) {
    auto plans = r->plan_history(std::string(32, 'a'));
    ASSERT_EQ(plans.size(), 2u);
    auto merged = merge_plan_histories({plans});
    const std::vector<PlannedAnswer>* best = nullptr;
    auto report = demotion(merged, "slow", &best);
    ASSERT_TRUE(report);
    EXPECT_EQ(report->best_plan, "fast");
    EXPECT_EQ(report->best_ms, 10);
    EXPECT_EQ(report->best_runs, 2u);
    EXPECT_EQ(report->demoted_ms, 300);
    ASSERT_TRUE(best);
    ASSERT_EQ(best->size(), 1u);
    EXPECT_EQ((*best)[0].observed.rows, 42);
    EXPECT_FALSE(demotion(merged, "fast", nullptr));     // the best is never demoted
    EXPECT_FALSE(demotion(merged, "unknown", nullptr));  // a plan that never ran gets its chance
    EXPECT_TRUE(r->plan_history(std::string(32, 'b')).empty());
  }
  EXPECT_EQ(reopened.plans("aaaa").size(), 2u);
  EXPECT_EQ(reopened.summary().plans, 2u);
  reopened.clear();
  EXPECT_TRUE(reopened.plan_history(std::string(32, 'a')).empty());
}

TEST(PlanHistoryTest, ExportAndImportCarryThePlanHistoryAndMergeIt) {
  TempDir dir;
  const auto answers = std::vector<PlannedAnswer>{answer(PlannedAnswer::Call::Lookup, 1, 42)};
  const auto file = dir.file("stats.pb");
  {
    SqliteStatsStore source(dir.file("a.db"));
    source.record(attempt({stat(1, 100)}));
    source.record_plan_run(plan_run("fast", 10, 1, answers));
    source.record_plan_run(plan_run("slow", 300, 2));
    source.export_to(file);
  }
  SqliteStatsStore target(dir.file("b.db"));
  target.record_plan_run(plan_run("fast", 8, 5));  // seen here later and faster, without answers
  const ImportResult r = target.import_from(file);
  EXPECT_EQ(r.plans, 2u);
  auto plans = target.plan_history(std::string(32, 'a'));
  ASSERT_EQ(plans.size(), 2u);
  const PlanRecord* fast = plans[0].plan_hash == "fast" ? &plans[0] : &plans[1];
  EXPECT_EQ(fast->runs, 2u);
  EXPECT_EQ(fast->best_ms, 8);            // the best of both
  EXPECT_EQ(fast->last_seen_ms, 5);       // the target ran it last: its latest run stays
  EXPECT_TRUE(fast->answers.empty());
  auto report = demotion(merge_plan_histories({plans}), "slow", nullptr);
  ASSERT_TRUE(report);  // the imported slow plan is demoted in the new store as in the old
  EXPECT_EQ(report->best_plan, "fast");

  // A second import of the same file adds runs again (an import is a merge, like the signatures').
  target.import_from(file);
  plans = target.plan_history(std::string(32, 'a'));
  const PlanRecord* slow = plans[0].plan_hash == "slow" ? &plans[0] : &plans[1];
  EXPECT_EQ(slow->runs, 2u);
  EXPECT_EQ(slow->best_ms, 300);
}

TEST(PlanHistoryTest, DemotionNeedsMoreThanTenPercentAndANoticeableDifference) {
  PlanRecord best, p;
  best.plan_hash = "b";
  best.best_ms = 100;
  p.plan_hash = "p";
  p.best_ms = 109;  // within 10 %
  EXPECT_FALSE(is_demoted(p, best));
  p.best_ms = 125;
  EXPECT_TRUE(is_demoted(p, best));
  best.best_ms = 1;  // 10x slower, but by 9 ms: noise on a busy machine
  p.best_ms = 10;
  EXPECT_FALSE(is_demoted(p, best));
}

TEST(PlanHistoryTest, AVersionOneStoreIsMigratedAndKeepsItsObservations) {
  TempDir dir;
  const auto path = dir.file("stats.db");
  {
    SqliteStatsStore store(path);
    store.record(attempt({stat(1, 100)}));
  }
  // What a version-1 store looks like: no plan_history table.
  sql_exec(path, "DROP TABLE plan_history; DROP TABLE oracle_runs; DROP INDEX observations_by_attempt; "
                 "PRAGMA user_version = 1;");
  SqliteStatsStore store(path);
  EXPECT_TRUE(store.writable());
  EXPECT_TRUE(store.take_warnings().empty());
  EXPECT_EQ(store.summary().schema_version, SqliteStatsStore::kSchemaVersion);
  EXPECT_EQ(store.snapshot(kT, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1))->rows, 100);
  store.record_plan_run(plan_run("p", 5, 1));
  EXPECT_EQ(store.plan_history(std::string(32, 'a')).size(), 1u);
  EXPECT_TRUE(store.take_warnings().empty());
}

}  // namespace
}  // namespace hindsight::stats
