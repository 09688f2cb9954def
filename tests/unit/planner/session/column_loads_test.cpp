// A statement loads only the table columns its scans read, straight from the binary cache; a column loaded once
// is shared by every later statement (and every worker) of the process.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <thread>

#include "../storage/storage_test_util.hpp"
#include "planner/optimizer/stats/statistics_file.hpp"
#include "planner/optimizer/stats/table_statistics_store.hpp"
#include "planner/session/session.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

/// A Database over the TPC-H test data whose tables open from their caches (written first if missing), with
/// lineitem's and orders' statistics known to the process (an analysis, which reads every column, is not what
/// is measured).
std::unique_ptr<Database> cached_db() {
  {
    Database warm(testing::tpch_dir());
    for (const char* t : {"lineitem", "orders"}) table_statistics(warm, *warm.table(t));
  }
  return std::make_unique<Database>(testing::tpch_dir());
}

std::string first_cell(const StatementResult& r) {
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->format() : "");
  if (!r.ok() || r.executed.batches.empty()) return "";
  return r.executed.batches.at(0).columns.at(0).get(0).to_string();
}

StatementResult run(Database& db, const std::string& sql, int workers = 2) {
  Session s(db);
  apply_setting(s.settings(), "workers", std::to_string(workers));
  return s.run_script(sql);
}

/// The names of the loaded columns of `table`.
std::vector<std::string> loaded(Database& db, const std::string& table) {
  LoadInfo info;
  TablePtr t = db.table(table, info);
  std::vector<std::string> names;
  for (size_t c = 0; c < t->def.columns.size(); ++c)
    if (t->column_loaded(c)) names.push_back(t->def.columns[c].name);
  return names;
}

/// The columns of `table` that the scans of the plan `r` ran produce, in table order (a column only a scan's
/// filter reads is read in place and not produced: it is loaded but not listed here).
std::vector<std::string> scanned(const StatementResult& r, const std::string& table) {
  std::set<int> columns;
  std::function<void(const PhysicalOperator&)> walk = [&](const PhysicalOperator& op) {
    if (op.kind == PhysicalOpKind::TableScan && op.as<PhysicalTableScan>().table->def.name == table)
      for (int c : op.as<PhysicalTableScan>().columns) columns.insert(c);
    for (const auto& child : op.children) walk(*child);
  };
  if (r.compiled && r.compiled->physical) walk(*r.compiled->physical);
  if (r.compiled)
    for (const auto& cte : r.compiled->ctes) walk(*cte.physical);
  std::vector<std::string> names;
  LoadInfo info;
  for (int c : columns) names.push_back(testing::tpch_db().table(table, info)->def.columns.at(static_cast<size_t>(c)).name);
  return names;
}

TEST(ColumnLoadsTest, AQueryLoadsOnlyTheColumnsItsScansRead) {
  Database whole(testing::tpch_dir(), LoadOptions{false, false});  // parses the CSV: every column
  struct Case {
    std::string sql;
    std::vector<std::string> columns;   ///< what the scans read: what loads
    std::vector<std::string> produced;  ///< what the scans output (the columns less those only filters read)
  };
  const std::vector<Case> cases = {
      // Column pruning keeps one column of a scan whose rows are only counted: the table's first.
      {"SELECT count(*) FROM lineitem", {"l_orderkey"}, {"l_orderkey"}},
      {"SELECT sum(l_quantity) FROM lineitem", {"l_quantity"}, {"l_quantity"}},
      {"SELECT sum(l_extendedprice * l_discount) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' "
       "AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24",
       {"l_quantity", "l_extendedprice", "l_discount", "l_shipdate"},
       {"l_extendedprice", "l_discount"}},
      {"SELECT l_returnflag, l_linestatus, sum(l_quantity), avg(l_discount), count(*) FROM lineitem "
       "WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus",
       {"l_quantity", "l_discount", "l_returnflag", "l_linestatus", "l_shipdate"},
       {"l_quantity", "l_discount", "l_returnflag", "l_linestatus"}},
  };
  for (const Case& c : cases) {
    std::unique_ptr<Database> db = cached_db();
    LoadInfo info;
    ASSERT_EQ(db->table("lineitem", info)->loaded_column_count(), 0u);
    ASSERT_TRUE(info.from_cache);
    StatementResult r = run(*db, c.sql, 3);
    EXPECT_EQ(first_cell(r), first_cell(run(whole, c.sql, 3))) << c.sql;
    EXPECT_EQ(scanned(r, "lineitem"), c.produced) << c.sql;
    EXPECT_EQ(loaded(*db, "lineitem"), c.columns) << c.sql;
  }
  EXPECT_EQ(loaded(whole, "lineitem").size(), 16u);
}

TEST(ColumnLoadsTest, ConcurrentStatementsReadingDifferentColumnsOfOneTable) {
  std::unique_ptr<Database> db = cached_db();
  Database whole(testing::tpch_dir(), LoadOptions{false, false});
  const std::vector<std::string> queries = {
      "SELECT sum(l_quantity) FROM lineitem", "SELECT sum(l_extendedprice) FROM lineitem",
      "SELECT count(DISTINCT l_comment) FROM lineitem", "SELECT max(l_shipdate) FROM lineitem WHERE l_tax > 0.02"};
  std::vector<std::string> expected;
  for (const auto& q : queries) expected.push_back(first_cell(run(whole, q)));
  for (int round = 0; round < 3; ++round) {
    std::unique_ptr<Database> fresh = cached_db();
    std::vector<std::string> got(queries.size() * 2);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < got.size(); ++i)
      threads.emplace_back([&, i] { got[i] = first_cell(run(*fresh, queries[i % queries.size()], 2)); });
    for (auto& t : threads) t.join();
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i % queries.size()]) << queries[i % queries.size()];
    EXPECT_EQ(loaded(*fresh, "lineitem").size(), 5u);
  }
}

TEST(ColumnLoadsTest, StatisticsFromTheirFileLoadNoColumn) {
  storage_test::TempDir dir;
  storage_test::write_file(dir.file("catalog.json"), R"json({"tables": [
    {"name": "kv", "file": "kv.csv", "columns": [{"name": "k", "type": "BIGINT", "nullable": false},
                                                  {"name": "v", "type": "VARCHAR"},
                                                  {"name": "n", "type": "INTEGER"}],
     "distribution": {"kind": "hash", "columns": ["k"], "buckets": 3}}]})json");
  std::string csv = "k,v,n\n";
  for (int i = 0; i < 500; ++i) csv += std::to_string(i) + ",v" + std::to_string(i % 7) + "," + std::to_string(i % 13) + "\n";
  storage_test::write_file(dir.file("kv.csv"), csv);
  const std::string sql = "SELECT count(*) FROM kv WHERE n = 3";
  {
    Database first(dir.path());  // parses the CSV, writes the cache; the first plan analyzes kv, writing its file
    EXPECT_EQ(first_cell(run(first, sql)), "39");
  }
  statistics_cache(Database(dir.path())).invalidate("kv");  // as in a new process: the statistics come from the file
  Database db(dir.path());
  StatementResult r = run(db, sql);
  EXPECT_EQ(first_cell(r), "39");
  EXPECT_EQ(loaded(db, "kv"), (std::vector<std::string>{"k", "n"}));  // the filter's column, k kept for counting
  EXPECT_EQ(statistics_cache(db).analyses(), 1u);  // the first process's only
  EXPECT_EQ(statistics_cache(db).loads(), 1u);     // read from the file
}

TEST(ColumnLoadsTest, AnAnalysisReadsEveryColumnAndKeepsNone) {
  std::unique_ptr<Database> db = cached_db();
  Database whole(testing::tpch_dir(), LoadOptions{false, false});
  LoadInfo info;
  TablePtr orders = db->table("orders", info);
  ASSERT_TRUE(info.from_cache);
  TablePtr parsed = whole.table("orders", info);
  ASSERT_EQ(parsed->loaded_column_count(), 9u);
  orders->load_columns({2});  // one column loaded before: used in place
  const TableStatistics lazy = analyze_table(*orders);
  EXPECT_EQ(orders->loaded_column_count(), 1u);  // the other eight were read for the analysis and dropped
  TableStatistics full = analyze_table(*parsed);
  full.data_version = lazy.data_version;  // the CSV copy and the cache differ in nothing else
  EXPECT_EQ(encode_table_statistics(lazy), encode_table_statistics(full));

  // ANALYZE through a session likewise.
  StatementResult r = run(*db, "ANALYZE lineitem");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(loaded(*db, "lineitem"), std::vector<std::string>{});
}

}  // namespace
}  // namespace hindsight
