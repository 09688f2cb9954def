// The store's automatic trim (docs/stats-store.md "Retention"): bounded after many runs, and never what a snapshot
// answers from (the signatures seen within the retention, their inputs and their latest attempt's table versions).
#include <gtest/gtest.h>

#include "planner/session/settings.hpp"
#include "stats_store/sqlite_store.hpp"
#include "tests/unit/stats_store/stats_builders.hpp"

namespace hindsight::stats {
namespace {

using testing::attempt;
using testing::sig_of;
using testing::stat;
using testing::TempDir;

constexpr int64_t kDay = 24 * 3600 * 1000;

TEST(StoreRetentionTest, ManyRunsOfTheSameQueriesStayBounded) {
  TempDir dir;
  SqliteStatsStore::Options o;
  o.history = 4;
  o.trim_every = 8;
  SqliteStatsStore store(dir.file("s.db"), o);
  for (int run = 0; run < 300; ++run) {
    const std::string q = "SELECT " + std::to_string(run % 3);
    store.record(attempt({stat(1, 100 + run), stat(2 + run % 3, 50)}, {{"t", "v1", 1000}}, 0, q));
  }
  EXPECT_TRUE(store.take_warnings().empty());
  EXPECT_GT(store.trims(), 30u);
  const StoreSummary s = store.summary();
  EXPECT_EQ(s.signatures, 4u);
  EXPECT_LE(s.observations, 4u * 4u);
  // Every kept observation's attempt plus at most the attempts recorded since the last trim.
  EXPECT_LE(s.attempts, 4u * 4u + 8u);
  EXPECT_EQ(s.queries, 3u);
  // The latest figures still answer.
  EXPECT_EQ(store.snapshot({{"t", "v1", 1000}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1))->rows, 399);
}

TEST(StoreRetentionTest, OldSignaturesGoAndWhatThePlannerReadsStays) {
  TempDir dir;
  SqliteStatsStore::Options o;
  o.trim_every = 0;  // trimmed by hand below
  SqliteStatsStore store(dir.file("s.db"), o);
  const int64_t now = unix_now_ms();
  store.record(attempt({stat(1, 100, {"old"})}, {{"old", "v1", 1000}}, now - 40 * kDay, "SELECT old"));
  store.record(attempt({stat(2, 200, {"t"})}, {{"t", "v1", 1000}}, now - 20 * kDay, "SELECT t"));
  for (int i = 0; i < 5; ++i)  // newer runs of t at another version: the latest attempt's tables decide staleness
    store.record(attempt({stat(2, 300, {"t"})}, {{"t", "v2", 2000}}, now - i * kDay, "SELECT t"));
  const TrimResult r = store.trim();
  EXPECT_EQ(r.signatures, 1u);
  EXPECT_EQ(store.summary().signatures, 1u);
  EXPECT_FALSE(store.snapshot({{"old", "v1", 1000}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(1)));
  auto fresh = store.snapshot({{"t", "v2", 2000}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(2));
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->rows, 300);
  EXPECT_EQ(fresh->observations, 6u);
  // Its inputs' versions survive the trim: other data of another size is still stale.
  EXPECT_FALSE(store.snapshot({{"t", "v3", 9000}}, 0.1)->find(StatsSource::KeyKind::Exact, sig_of(2)));
  auto detail = store.show(sig_of(2).hex());
  ASSERT_EQ(detail.size(), 1u);
  EXPECT_EQ(detail[0].observations.size(), 6u);  // none older than 30 days
  EXPECT_EQ(store.list_queries().size(), 1u);    // "SELECT old" went with its attempt
}

TEST(StoreRetentionTest, AtMostMaxSignaturesTheLeastRecentlySeenGoFirst) {
  TempDir dir;
  SqliteStatsStore::Options o;
  o.trim_every = 0;
  o.max_signatures = 10;
  SqliteStatsStore store(dir.file("s.db"), o);
  const int64_t now = unix_now_ms();
  for (int i = 0; i < 30; ++i) store.record(attempt({stat(100 + i, i)}, {{"t", "v1", 1000}}, now - (30 - i) * 1000));
  store.trim();
  EXPECT_EQ(store.summary().signatures, 10u);
  auto snap = store.snapshot({{"t", "v1", 1000}}, 0.1);
  EXPECT_FALSE(snap->find(StatsSource::KeyKind::Exact, sig_of(100 + 19)));
  EXPECT_TRUE(snap->find(StatsSource::KeyKind::Exact, sig_of(100 + 20)));
  EXPECT_TRUE(snap->find(StatsSource::KeyKind::Exact, sig_of(100 + 29)));
}

TEST(StoreRetentionTest, ZeroKeepsEverythingForItsAge) {
  TempDir dir;
  SqliteStatsStore::Options o;
  o.trim_every = 0;
  o.retention_ms = 0;
  SqliteStatsStore store(dir.file("s.db"), o);
  store.record(attempt({stat(1, 100)}, {{"t", "v1", 1000}}, unix_now_ms() - 400 * kDay));
  EXPECT_EQ(store.trim().signatures, 0u);
  EXPECT_EQ(store.summary().signatures, 1u);
}

TEST(StoreRetentionTest, TheSetting) {
  Settings s;
  EXPECT_EQ(s.stats_retention_ms, kDefaultStatsRetentionMs);
  apply_setting(s, "stats_retention", "7d");
  EXPECT_EQ(s.stats_retention_ms, 7 * kDay);
  apply_setting(s, "stats_retention", "12h");
  EXPECT_EQ(s.stats_retention_ms, 12 * 3600 * 1000);
  apply_setting(s, "stats_retention", "2w");
  EXPECT_EQ(s.stats_retention_ms, 14 * kDay);
  apply_setting(s, "stats_retention", "0");
  EXPECT_EQ(s.stats_retention_ms, 0);
  EXPECT_THROW(apply_setting(s, "stats_retention", "forever"), Error);
}

}  // namespace
}  // namespace hindsight::stats
