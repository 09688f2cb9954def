// A statement's memory_limit and timeout cover the tables it loads: a load that cannot fit fails
// early with MEMORY_LIMIT_EXCEEDED naming the table, a load past the deadline with TIMEOUT, and
// neither leaves anything half-loaded behind. Loaded tables stay charged until the statement ends.
#include <gtest/gtest.h>

#include "planner/session/session.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight {
namespace {

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
    Database db(testing::tpch_dir(), options);
    auto r = run_fresh(db, "SELECT count(*) FROM lineitem", "1MB");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code(), ErrorCode::MEMORY_LIMIT_EXCEEDED) << r.error->format();
    EXPECT_NE(r.error->message().find("loading table 'lineitem'"), std::string::npos) << r.error->format();
    // Nothing half-loaded was kept: without the limit the whole table loads and counts right.
    auto ok = run_fresh(db, "SELECT count(*) FROM lineitem", "8GB");
    ASSERT_TRUE(ok.ok()) << ok.error->format();
    EXPECT_EQ(static_cast<uint64_t>(ok.executed.batches.at(0).columns.at(0).ints.at(0)),
              testing::tpch_db().table("lineitem")->row_count);
  }
}

TEST(QueryLimitsTest, LoadedTablesCountTowardsThePeakAndAreNotChargedTwice) {
  Database db(testing::tpch_dir());
  auto first = run_fresh(db, "SELECT count(*) FROM orders", "8GB");
  ASSERT_TRUE(first.ok()) << first.error->format();
  const int64_t table_bytes = static_cast<int64_t>(table_allocated_bytes(*db.table("orders")));
  EXPECT_GE(first.executed.peak_memory, table_bytes);
  // The second statement finds the table loaded: its budget is its own operators'.
  auto second = run_fresh(db, "SELECT count(*) FROM orders", "8GB");
  ASSERT_TRUE(second.ok()) << second.error->format();
  EXPECT_LT(second.executed.peak_memory, table_bytes);
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
