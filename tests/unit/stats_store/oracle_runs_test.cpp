// The store's oracle replays (table oracle_runs, schema version 3): docs/stats-store.md, docs/workload.md.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "stats_store/sqlite_store.hpp"
#include "stats_store/store_error.hpp"
#include "tests/unit/stats_store/stats_builders.hpp"

namespace hindsight::stats {
namespace {

using testing::attempt;
using testing::stat;
using testing::TempDir;

void exec_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

OracleRun run_of(const std::string& data_key, double ms, int64_t recorded) {
  OracleRun r;
  r.workload_key = "w1";
  r.data_key = data_key;
  r.recorded_ms = recorded;
  r.queries = {{"a", true, ms, 100, "p1"}, {"b", false, 2 * ms, 0, ""}};
  return r;
}

TEST(OracleRunsTest, RecordedPerWorkloadAndDataAndReplacedWhole) {
  TempDir dir;
  const auto path = dir.file("s.db");
  {
    SqliteStatsStore store(path);
    store.record_oracle_run(run_of("d1", 5, 1000));
    store.record_oracle_run(run_of("d2", 7, 2000));
    OracleRun again = run_of("d1", 3, 3000);
    again.queries.pop_back();  // the new run replaces the old whole: "b" goes
    store.record_oracle_run(again);
  }
  SqliteStatsStore::Options ro;
  ro.read_only = true;
  SqliteStatsStore store(path, ro);
  auto runs = store.oracle_runs("w1");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].data_key, "d1");
  EXPECT_EQ(runs[0].recorded_ms, 3000);
  ASSERT_EQ(runs[0].queries.size(), 1u);
  EXPECT_EQ(runs[0].queries[0].name, "a");
  EXPECT_DOUBLE_EQ(runs[0].queries[0].ms, 3);
  EXPECT_DOUBLE_EQ(runs[0].queries[0].work, 100);
  EXPECT_EQ(runs[0].queries[0].plan_hash, "p1");
  EXPECT_EQ(runs[1].data_key, "d2");
  ASSERT_EQ(runs[1].queries.size(), 2u);
  EXPECT_FALSE(runs[1].queries[1].ok);
  EXPECT_TRUE(store.oracle_runs("other workload").empty());
  EXPECT_THROW(store.record_oracle_run(run_of("d3", 1, 1)), StoreError);  // read-only
}

TEST(OracleRunsTest, CorruptRowsAreLeftOutAndCounted) {
  TempDir dir;
  const auto path = dir.file("s.db");
  { SqliteStatsStore(path).record_oracle_run(run_of("d1", 5, 1000)); }
  exec_sql(path, "UPDATE oracle_runs SET ms = 'slow' WHERE query_name = 'a'; "
                 "UPDATE oracle_runs SET work = 1e999 WHERE query_name = 'b';");
  SqliteStatsStore store(path);
  auto runs = store.oracle_runs("w1");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].queries.empty());
  EXPECT_EQ(runs[0].corrupt_rows, 2u);
}

TEST(OracleRunsTest, AVersion2StoreIsMigratedAndReadOnlyItHasNone) {
  TempDir dir;
  const auto path = dir.file("s.db");
  { SqliteStatsStore(path).record(attempt({stat(1, 100)})); }
  // What a version-2 store looks like.
  exec_sql(path, "DROP TABLE oracle_runs; DROP INDEX observations_by_attempt; PRAGMA user_version = 2;");
  {
    SqliteStatsStore::Options ro;
    ro.read_only = true;
    SqliteStatsStore store(path, ro);
    EXPECT_TRUE(store.oracle_runs("w1").empty());  // no table yet: nothing recorded, no error
    EXPECT_EQ(store.summary().schema_version, 2);
  }
  SqliteStatsStore store(path);
  EXPECT_TRUE(store.writable());
  EXPECT_EQ(store.summary().schema_version, SqliteStatsStore::kSchemaVersion);
  store.record_oracle_run(run_of("d1", 5, 1000));
  ASSERT_EQ(store.oracle_runs("w1").size(), 1u);
  EXPECT_EQ(store.summary().observations, 1u);  // what it held before is still there
}

}  // namespace
}  // namespace hindsight::stats
