// A statement's memory_limit and timeout cover the tables it loads: a load that cannot fit fails
// early with MEMORY_LIMIT_EXCEEDED naming the table, a load past the deadline with TIMEOUT, and
// neither leaves anything half-loaded behind. Loaded columns stay charged until the statement ends; a statement
// is charged for the columns it loads, not for the whole table.
#include <gtest/gtest.h>

#include "planner/optimizer/stats/table_statistics_store.hpp"
#include "planner/session/session.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

/// A Database whose tables come from their binary caches (written first if missing), so that columns load on
/// demand, and whose statistics the process knows (an analysis would read, and charge, every column).
std::unique_ptr<Database> cached_db() {
  {
    Database warm(testing::tpch_dir());
    // Parses the CSVs (and writes the caches) if needed.
    for (const char* t : {"orders", "lineitem"}) table_statistics(warm, *warm.table(t));
  }
  return std::make_unique<Database>(testing::tpch_dir());
}

/// What column `name` of `t` holds in allocated memory, all buckets.
int64_t column_bytes(const Table& t, const std::string& name) {
  const int c = t.def.column_index(name);
  EXPECT_GE(c, 0) << name;
  int64_t bytes = 0;
  for (const auto& bucket : t.buckets) bytes += static_cast<int64_t>(bucket.at(static_cast<size_t>(c)).allocated_bytes());
  return bytes;
}

StatementResult run_fresh(Database& db, const std::string& sql, const std::string& memory_limit,
                          const std::string& timeout = "") {
  Session s(db);
  apply_setting(s.settings(), "memory_limit", memory_limit);
  if (!timeout.empty()) apply_setting(s.settings(), "timeout", timeout);
  return s.run_script(sql);
}

TEST(QueryLimitsTest, ATableLoadThatCannotFitFailsNamingTheTableAndLeavesNothingLoaded) {
  for (bool use_cache : {true, false}) {
    LoadOptions options;
    options.use_cache = use_cache;  // the binary cache (refused from its size) and the CSV (refused mid-way)
    if (use_cache) cached_db();  // the caches exist: the column is read from the cache
    Database db(testing::tpch_dir(), options);
    // l_comment alone holds several MB (60 k strings, most too long for the inline buffer).
    const std::string sql = "SELECT count(*) FROM lineitem WHERE l_comment <> ''";
    auto r = run_fresh(db, sql, "1MB");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED) << r.error->format();
    EXPECT_NE(r.error->message().find("loading table 'lineitem'"), std::string::npos) << r.error->format();
    if (use_cache) {
      LoadInfo info;
      TablePtr t = db.table("lineitem", info);
      EXPECT_FALSE(t->column_loaded(static_cast<size_t>(t->def.column_index("l_comment"))));
    }
    // Nothing half-loaded was kept: without the limit the column loads and counts right.
    auto ok = run_fresh(db, sql, "8GB");
    ASSERT_TRUE(ok.ok()) << ok.error->format();
    EXPECT_EQ(static_cast<uint64_t>(ok.executed.batches.at(0).columns.at(0).ints.at(0)),
              testing::tpch_db().table("lineitem")->row_count);
  }
}

TEST(QueryLimitsTest, LoadedColumnsCountTowardsThePeakAndAreNotChargedTwice) {
  std::unique_ptr<Database> db = cached_db();
  LoadInfo info;
  TablePtr orders = db->table("orders", info);
  ASSERT_TRUE(info.from_cache);
  ASSERT_EQ(orders->loaded_column_count(), 0u);
  auto first = run_fresh(*db, "SELECT sum(o_totalprice) FROM orders", "8GB");
  ASSERT_TRUE(first.ok()) << first.error->format();
  EXPECT_EQ(orders->loaded_column_count(), 1u);
  const int64_t price_bytes = column_bytes(*orders, "o_totalprice");
  EXPECT_GT(price_bytes, 15000 * 8 - 1);
  EXPECT_GE(first.executed.peak_memory, price_bytes);
  // Charged for the column it read, not the table (o_comment alone is far larger than o_totalprice).
  orders->load_all_columns();
  const int64_t table_bytes = static_cast<int64_t>(table_allocated_bytes(*orders));
  EXPECT_LT(first.executed.peak_memory, table_bytes / 2);
  // The second statement finds the column loaded: its budget is its own operators'.
  auto second = run_fresh(*db, "SELECT sum(o_totalprice) FROM orders", "8GB");
  ASSERT_TRUE(second.ok()) << second.error->format();
  EXPECT_LT(second.executed.peak_memory, price_bytes);
}

TEST(QueryLimitsTest, AStatementIsChargedForEachColumnItLoadsOnce) {
  std::unique_ptr<Database> db = cached_db();
  LoadInfo info;
  TablePtr lineitem = db->table("lineitem", info);
  ASSERT_TRUE(info.from_cache);
  // A self-join reads l_quantity in both scans and l_comment in one: each column is loaded and charged once.
  auto r = run_fresh(*db,
                     "SELECT count(*) FROM lineitem a, lineitem b WHERE a.l_orderkey = b.l_orderkey AND "
                     "a.l_linenumber = b.l_linenumber AND a.l_quantity = b.l_quantity AND b.l_comment <> ''",
                     "8GB");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(lineitem->loaded_column_count(), 4u);
  int64_t loaded = 0;
  for (const char* c : {"l_orderkey", "l_linenumber", "l_quantity", "l_comment"}) loaded += column_bytes(*lineitem, c);
  EXPECT_GE(r.executed.peak_memory, loaded);
  lineitem->load_all_columns();
  EXPECT_LT(r.executed.peak_memory, static_cast<int64_t>(table_allocated_bytes(*lineitem)));
}

TEST(QueryLimitsTest, ALoadPastTheDeadlineTimesOut) {
  LoadOptions options;
  options.use_cache = false;  // parse the CSV: tens of thousands of rows, far longer than 1 ms
  Database db(testing::tpch_dir(), options);
  auto r = run_fresh(db, "SELECT count(*) FROM lineitem", "8GB", "1ms");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::TIMEOUT) << r.error->format();
  EXPECT_NE(r.error->message().find("lineitem"), std::string::npos) << r.error->format();
}

TEST(QueryLimitsTest, ALaterAttemptIsChargedTheTablesTheFirstLoaded) {
  Settings settings;
  settings.memory_limit = 10 << 20;
  QueryLimits first(settings);
  first.check("orders", 3 << 20);
  first.check("customer", 1 << 20);
  QueryLimits second(settings);
  second.charge_loads_of(first);
  EXPECT_EQ(second.memory().used(), 4 << 20);
  second.check("orders", 3 << 20);  // the same table loading again is not charged twice
  EXPECT_EQ(second.memory().used(), 4 << 20);
  settings.memory_limit = 2 << 20;  // a smaller budget (an overlay) cannot hold them
  QueryLimits small(settings);
  testing::expect_error([&] { small.charge_loads_of(first); }, ErrorCode::MEMORY_LIMIT_EXCEEDED);
}

}  // namespace
}  // namespace hindsight
