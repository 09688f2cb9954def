// Joins whose answer depends on a property of the whole build side — NOT IN (null-aware anti:
// "the build side is empty", "the build side holds a NULL") — must see the whole build side on
// every worker. Co-located tables split it into buckets, and a per-bucket check gave rows where
// the answer is none. Every join type must give the same rows with 1 worker as with many, for
// every layout of its inputs.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "planner/session/explain.hpp"
#include "planner/session/session.hpp"
#include "tests/unit/planner/storage/storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::TempDir;
using storage_test::write_file;

class WholeBuildSideTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // t1: a = 0..39 and one NULL. t2*: b = the even numbers 0..38, with or without a NULL b.
    std::string t1 = "a,tag\n", t2 = "b,y\n", t2n = "b,y\n";
    for (int i = 0; i < 40; ++i) t1 += fmt::format("{},{}\n", i, i % 7);
    t1 += ",99\n";
    for (int i = 0; i < 40; i += 2) {
      t2 += fmt::format("{},{}\n", i, i % 3);
      t2n += fmt::format("{},{}\n", i, i % 3);
    }
    t2 += ",5\n";
    write_file(dir_.file("t1.csv"), t1);
    write_file(dir_.file("t2.csv"), t2);
    write_file(dir_.file("t2n.csv"), t2n);
    write_file(dir_.file("empty.csv"), "b,y\n");
    auto table = [](const std::string& name, const std::string& file, const std::string& key,
                    const std::string& other, const std::string& distribution) {
      return fmt::format(R"({{"name": "{}", "file": "{}", "columns": [{{"name": "{}", "type": "BIGINT"}},
                          {{"name": "{}", "type": "BIGINT"}}], "distribution": {}}})",
                         name, file, key, other, distribution);
    };
    const std::string hash_a = R"({"kind": "hash", "columns": ["a"], "buckets": 4})";
    const std::string hash_b4 = R"({"kind": "hash", "columns": ["b"], "buckets": 4})";
    const std::string hash_b3 = R"({"kind": "hash", "columns": ["b"], "buckets": 3})";
    const std::string replicated = R"({"kind": "replicated"})", random = R"({"kind": "random"})";
    std::vector<std::string> tables = {
        table("t1", "t1.csv", "a", "tag", hash_a),
        table("t1r", "t1.csv", "a", "tag", replicated),
        table("t2", "t2.csv", "b", "y", hash_b4),
        table("t2_3", "t2.csv", "b", "y", hash_b3),
        table("t2r", "t2.csv", "b", "y", replicated),
        table("t2x", "t2.csv", "b", "y", random),
        table("t2n", "t2n.csv", "b", "y", hash_b4),
        table("t2e", "empty.csv", "b", "y", hash_b4),
    };
    std::string catalog = "{\"tables\": [";
    for (size_t i = 0; i < tables.size(); ++i) catalog += (i ? ",\n" : "") + tables[i];
    write_file(dir_.file("catalog.json"), catalog + "]}");
    db_ = std::make_unique<Database>(dir_.path());
  }

  /// Rows the query returns, or -1 on an error.
  int64_t rows(const std::string& sql, int workers, const std::string& optimizer) {
    Session s(*db_);
    s.settings().workers = workers;
    s.settings().optimizer = optimizer;
    auto r = s.run_script(sql);
    if (!r.ok()) {
      ADD_FAILURE() << sql << " (workers=" << workers << ", optimizer=" << optimizer << "): " << r.error->format();
      return -1;
    }
    int64_t n = 0;
    for (const auto& b : r.executed.batches) n += static_cast<int64_t>(b.rows);
    return n;
  }

  void expect_rows(const std::string& sql, int64_t expected) {
    for (const char* optimizer : {"cost", "foundation"})
      for (int workers : {1, 2, 3, 4, 8})
        EXPECT_EQ(rows(sql, workers, optimizer), expected) << sql << " with workers=" << workers << ", optimizer=" << optimizer;
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(WholeBuildSideTest, NotInWithANullOnTheBuildSideReturnsNothingForEveryLayout) {
  for (const char* probe : {"t1", "t1r"})
    for (const char* build : {"t2", "t2_3", "t2r", "t2x"})
      expect_rows(fmt::format("SELECT a FROM {} WHERE a NOT IN (SELECT b FROM {})", probe, build), 0);
}

TEST_F(WholeBuildSideTest, NotInWithoutNullsKeepsUnmatchedNonNullRows) {
  // The odd numbers; the NULL a is unknown against a non-empty build side, so it is dropped.
  expect_rows("SELECT a FROM t1 WHERE a NOT IN (SELECT b FROM t2n)", 20);
  expect_rows("SELECT a FROM t1 WHERE a NOT IN (SELECT b FROM t2 WHERE b IS NOT NULL)", 20);
  expect_rows("SELECT a FROM t1r WHERE a NOT IN (SELECT b FROM t2n)", 20);
}

TEST_F(WholeBuildSideTest, NotInAgainstAnEmptyBuildSideKeepsEveryRowIncludingNull) {
  expect_rows("SELECT a FROM t1 WHERE a NOT IN (SELECT b FROM t2e)", 41);
  expect_rows("SELECT a FROM t1 WHERE a NOT IN (SELECT b FROM t2n WHERE b > 100)", 41);
  // Empty on some workers only: a bucket without build rows must not keep its NULL or its rows.
  expect_rows("SELECT a FROM t1 WHERE a NOT IN (SELECT b FROM t2n WHERE b = 4)", 39);
}

TEST_F(WholeBuildSideTest, NotInPlanBroadcastsTheBuildSideOfCoLocatedTables) {
  Session s(*db_);
  s.settings().workers = 4;
  auto r = s.run_script("SELECT a FROM t1 WHERE a NOT IN (SELECT b FROM t2)", /*explain=*/true);
  ASSERT_TRUE(r.ok()) << r.error->format();
  const std::string plan = explain_text(*r.compiled, nullptr);
  EXPECT_EQ(plan.find("colocated"), std::string::npos) << plan;
  EXPECT_NE(plan.find("broadcast"), std::string::npos) << plan;
}

TEST_F(WholeBuildSideTest, OuterSemiAndAntiJoinsGiveTheSameRowsOnEveryWorkerCount) {
  for (const char* build : {"t2", "t2_3", "t2r", "t2x"}) {
    // Matches: the 20 even a. Unmatched: 20 odd a and the NULL a on the left; the NULL b on the right.
    expect_rows(fmt::format("SELECT * FROM t1 LEFT JOIN {} ON a = b", build), 41);
    expect_rows(fmt::format("SELECT * FROM t1 RIGHT JOIN {} ON a = b", build), 21);
    expect_rows(fmt::format("SELECT * FROM t1 FULL JOIN {} ON a = b", build), 42);
    expect_rows(fmt::format("SELECT * FROM t1r FULL JOIN {} ON a = b", build), 42);
    expect_rows(fmt::format("SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM {} WHERE b = a)", build), 20);
    expect_rows(fmt::format("SELECT a FROM t1 WHERE NOT EXISTS (SELECT 1 FROM {} WHERE b = a)", build), 21);
    expect_rows(fmt::format("SELECT a FROM t1 WHERE a IN (SELECT b FROM {})", build), 20);
    // A residual that no row passes: every probe row is unmatched.
    expect_rows(fmt::format("SELECT * FROM t1 LEFT JOIN {} ON a = b AND tag > 100", build), 41);
    expect_rows(fmt::format("SELECT * FROM t1 FULL JOIN {} ON a = b AND tag > 100", build), 62);
  }
}

TEST_F(WholeBuildSideTest, AFullJoinOfAReplicatedTableRunsOnceWithEveryLayout) {
  // Replicated with replicated runs once (not once per worker); replicated with distributed gathers.
  expect_rows("SELECT * FROM t1r FULL JOIN t2r ON a = b", 42);
  expect_rows("SELECT count(*) FROM t1r FULL JOIN t2r ON a = b", 1);
  expect_rows("SELECT * FROM t1r FULL JOIN t2 ON a = b", 42);
  expect_rows("SELECT * FROM t1 FULL JOIN t2r ON a = b", 42);
}

TEST_F(WholeBuildSideTest, GroupingOnAFullJoinKeyKeepsOneNullGroup) {
  // t1 (a < 10) FULL JOIN t2 on a = b: the rows only t2 has (b = 10..38 and the NULL b) carry a NULL a
  // and sit on the workers of their b, all over the cluster. Grouped on a: 0..9 and one NULL group.
  for (const char* build : {"t2", "t2_3", "t2x"}) {
    expect_rows(fmt::format("SELECT a, count(*) FROM t1 FULL JOIN {} ON a = b WHERE a < 10 OR a IS NULL GROUP BY a", build), 11);
    expect_rows(fmt::format("SELECT a, count(*) FROM (SELECT a FROM t1 WHERE a < 10) s FULL JOIN {} ON a = b GROUP BY a", build), 11);
    expect_rows(fmt::format("SELECT DISTINCT a FROM (SELECT a FROM t1 WHERE a < 10) s FULL JOIN {} ON a = b", build), 11);
    // Grouped on b: the 20 even values and one NULL group (odd a below 10, and t2's NULL b).
    expect_rows(fmt::format("SELECT b, count(*) FROM (SELECT a FROM t1 WHERE a < 10) s FULL JOIN {} ON a = b GROUP BY b", build), 21);
  }
}

TEST_F(WholeBuildSideTest, GlobalAggregatesAndDistinctGiveOneAnswerOnEveryWorkerCount) {
  expect_rows("SELECT count(*), sum(a), min(a) FROM t1 WHERE a > 100", 1);
  expect_rows("SELECT count(*) FROM t2e", 1);
  expect_rows("SELECT DISTINCT y FROM t2", 4);  // 0, 1, 2 and 5
  expect_rows("SELECT y, count(*) FROM t2x GROUP BY y", 4);
  expect_rows("SELECT a FROM t1 ORDER BY a LIMIT 7", 7);
}

}  // namespace
}  // namespace hindsight
