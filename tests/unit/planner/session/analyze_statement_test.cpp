// ANALYZE through a Session, and statistics persisted beside the data ("automatically on first load").
#include <gtest/gtest.h>

#include <filesystem>

#include "../storage/storage_test_util.hpp"
#include "planner/optimizer/stats/statistics_file.hpp"
#include "planner/optimizer/stats/table_statistics_store.hpp"
#include "planner/session/session.hpp"

namespace hindsight {
namespace {

using storage_test::set_mtime;
using storage_test::TempDir;
using storage_test::write_file;

class AnalyzeStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_.file("catalog.json"), R"json({"tables": [
      {"name": "kv", "file": "kv.csv", "columns": [{"name": "k", "type": "BIGINT", "nullable": false},
                                                    {"name": "v", "type": "VARCHAR"},
                                                    {"name": "d", "type": "DATE"},
                                                    {"name": "p", "type": "DECIMAL(15,2)"}],
       "distribution": {"kind": "hash", "columns": ["k"], "buckets": 3}},
      {"name": "tiny", "file": "tiny.csv", "columns": [{"name": "a", "type": "INTEGER"}]}]})json");
    write_file(dir_.file("kv.csv"), "k,v,d,p\n1,a,1995-01-01,1.50\n2,b,1996-02-03,\n3,,1997-12-31,-2.25\n");
    write_file(dir_.file("tiny.csv"), "a\n7\n");
  }
  std::string stats_file(const std::string& table) const {
    return statistics_file_path(statistics_directory(dir_.path()), table);
  }
  TempDir dir_;
};

TEST_F(AnalyzeStatementTest, AnalyzeOneTableWritesItsFileAndReturnsARow) {
  Database db(dir_.path());
  Session session(db);
  StatementResult r = session.run_script("ANALYZE KV");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_TRUE(r.is_analyze_statement);
  EXPECT_FALSE(r.is_explain);
  ASSERT_NE(r.compiled, nullptr);
  EXPECT_EQ(r.compiled->names, (std::vector<std::string>{"table", "rows", "columns", "seconds"}));
  ASSERT_EQ(r.compiled->outputs.size(), 4u);
  EXPECT_EQ(r.compiled->ctx.column(r.compiled->outputs[1]).type, DataType::bigint());
  ASSERT_EQ(r.executed.row_count(), 1u);
  const Batch& b = r.executed.batches.at(0);
  EXPECT_EQ(b.columns[0].get(0).to_string(), "kv");
  EXPECT_EQ(b.columns[1].get(0).i, 3);
  EXPECT_EQ(b.columns[2].get(0).i, 4);
  EXPECT_GE(b.columns[3].get(0).d, 0.0);
  ASSERT_EQ(r.attempts.size(), 1u);
  EXPECT_FALSE(r.attempts[0].error.has_value());

  EXPECT_TRUE(std::filesystem::exists(stats_file("kv")));
  EXPECT_FALSE(std::filesystem::exists(stats_file("tiny")));
  StatisticsFileRead read = read_statistics_file(stats_file("kv"));
  ASSERT_TRUE(read.stats.has_value()) << read.problem;
  EXPECT_EQ(read.stats->data_version, db.table("kv")->data_version);
  EXPECT_EQ(read.stats->column("v")->null_count, 1u);
  EXPECT_EQ(read.stats->column("p")->min->to_string(), "-2.25");

  // ANALYZE forces a new analysis even though the statistics are fresh.
  const uint64_t before = statistics_cache(db).analyses();
  ASSERT_TRUE(session.run_script("analyze kv").ok());
  EXPECT_EQ(statistics_cache(db).analyses(), before + 1);
}

TEST_F(AnalyzeStatementTest, AnalyzeWithoutATableDoesEveryTable) {
  Database db(dir_.path());
  Session session(db);
  StatementResult r = session.run_script("SET workers = 2; ANALYZE;");
  ASSERT_TRUE(r.ok()) << r.error->format();
  ASSERT_EQ(r.executed.row_count(), 2u);
  EXPECT_EQ(r.executed.batches[0].columns[0].get(0).to_string(), "kv");
  EXPECT_EQ(r.executed.batches[0].columns[0].get(1).to_string(), "tiny");
  EXPECT_EQ(r.executed.batches[0].columns[1].get(1).i, 1);
  EXPECT_TRUE(std::filesystem::exists(stats_file("kv")));
  EXPECT_TRUE(std::filesystem::exists(stats_file("tiny")));
}

TEST_F(AnalyzeStatementTest, UnknownTableIsABindErrorWithItsPosition) {
  Database db(dir_.path());
  Session session(db);
  StatementResult r = session.run_script("SELECT 1;\nANALYZE  nope");
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->code(), ErrorCode::BIND_ERROR);
  EXPECT_EQ(r.error->pos().line, 2);
  EXPECT_EQ(r.error->pos().col, 10);
  EXPECT_NE(r.error->message().find("'nope'"), std::string::npos);
  EXPECT_NE(r.error->detail().find('^'), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(statistics_directory(dir_.path())));
}

TEST_F(AnalyzeStatementTest, FirstQueryPersistsAndTheNextProcessLoadsWithoutAnalyzing) {
  {
    Database db(dir_.path());
    Session session(db);
    StatementResult r = session.run_script("SELECT v FROM kv WHERE k > 1 AND d < DATE '1997-01-01'");
    ASSERT_TRUE(r.ok()) << r.error->format();
    EXPECT_EQ(r.executed.row_count(), 1u);
  }
  EXPECT_TRUE(std::filesystem::exists(stats_file("kv")));  // analyzed for planning and written

  Database db(dir_.path());
  TablePtr kv = db.table("kv");
  StatisticsCache next_process(statistics_directory(dir_.path()));
  auto stats = next_process.get(*kv);
  EXPECT_EQ(next_process.analyses(), 0u);
  EXPECT_EQ(next_process.loads(), 1u);
  EXPECT_EQ(stats->row_count, 3u);
  EXPECT_EQ(stats->data_version, kv->data_version);
}

TEST_F(AnalyzeStatementTest, ChangedCsvMakesTheStatisticsStale) {
  uint64_t old_version;
  {
    Database db(dir_.path());
    Session session(db);
    ASSERT_TRUE(session.run_script("ANALYZE kv").ok());
    old_version = db.table("kv")->data_version;
  }
  write_file(dir_.file("kv.csv"), "k,v,d,p\n1,a,1995-01-01,1.50\n2,b,1996-02-03,\n3,c,1997-12-31,-2.25\n4,d,,9.99\n");
  set_mtime(dir_.file("kv.csv"), 2'000'000'000);

  Database db(dir_.path());
  TablePtr kv = db.table("kv");
  ASSERT_NE(kv->data_version, old_version);
  StatisticsCache next_process(statistics_directory(dir_.path()));
  auto stats = next_process.get(*kv);
  EXPECT_EQ(next_process.analyses(), 1u);  // the file was stale
  EXPECT_EQ(next_process.loads(), 0u);
  EXPECT_EQ(stats->row_count, 4u);
  EXPECT_EQ(stats->column("v")->null_count, 0u);
  StatisticsFileRead read = read_statistics_file(stats_file("kv"));
  ASSERT_TRUE(read.stats.has_value());
  EXPECT_EQ(read.stats->data_version, kv->data_version);  // rewritten

  StatisticsCache third(statistics_directory(dir_.path()));
  third.get(*kv);
  EXPECT_EQ(third.analyses(), 0u);
  EXPECT_EQ(third.loads(), 1u);
}

}  // namespace
}  // namespace hindsight
