// Co-location mappings (catalog "colocation"): tables hashed on a tenant key that their customer
// key determines join co-located on the customer key, with no exchange; a wrong layout keeps the
// exchange; a mapping naming a dropped column is ignored with a warning.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "planner/catalog/catalog_json.hpp"
#include "planner/session/explain.hpp"
#include "planner/session/session.hpp"
#include "planner/sql/parser.hpp"
#include "tests/unit/planner/storage/storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::TempDir;
using storage_test::write_file;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

/// tenant = custkey % 5 in every table: the customer key determines the tenant key the tables are
/// hashed on, which is what the mapping declares.
class ColocationMappingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string orders = "tenant,custkey,amount\n", customers = "tenant,custkey,name\n";
    for (int i = 0; i < 3000; ++i) {
      int cust = (i * 7) % 400;  // customers 0..399; 300..399 have orders, no customer row
      orders += fmt::format("{},{},{}\n", cust % 5, cust, i);
    }
    for (int c = 0; c < 300; ++c) customers += fmt::format("{},{},cust{}\n", c % 5, c, c);
    write_file(dir_.file("orders_t.csv"), orders);
    write_file(dir_.file("customers_t.csv"), customers);
    write_file(dir_.file("catalog.json"), R"({"tables": [
      {"name": "orders_t", "file": "orders_t.csv",
       "columns": [{"name": "tenant", "type": "INTEGER"}, {"name": "custkey", "type": "BIGINT"}, {"name": "amount", "type": "BIGINT"}],
       "distribution": {"kind": "hash", "columns": ["tenant"], "buckets": 4,
                        "colocation": [{"mapping": "tenant_of_customer", "columns": ["custkey"]}]}},
      {"name": "customers_t", "file": "customers_t.csv",
       "columns": [{"name": "tenant", "type": "INTEGER"}, {"name": "custkey", "type": "BIGINT"}, {"name": "name", "type": "VARCHAR"}],
       "distribution": {"kind": "hash", "columns": ["tenant"], "buckets": 4,
                        "colocation": [{"mapping": "tenant_of_customer", "columns": ["custkey"]}]}},
      {"name": "customers_3", "file": "customers_t.csv",
       "columns": [{"name": "tenant", "type": "INTEGER"}, {"name": "custkey", "type": "BIGINT"}, {"name": "name", "type": "VARCHAR"}],
       "distribution": {"kind": "hash", "columns": ["tenant"], "buckets": 3,
                        "colocation": [{"mapping": "tenant_of_customer", "columns": ["custkey"]}]}},
      {"name": "customers_old", "file": "customers_t.csv",
       "columns": [{"name": "tenant", "type": "INTEGER"}, {"name": "custkey", "type": "BIGINT"}, {"name": "name", "type": "VARCHAR"}],
       "distribution": {"kind": "hash", "columns": ["tenant"], "buckets": 4,
                        "colocation": [{"mapping": "tenant_of_customer", "columns": ["cust_id"]}]}}
    ]})");
    db_ = std::make_unique<Database>(dir_.path());
  }

  std::string plan(const std::string& sql, int workers = 4) {
    Session s(*db_);
    s.settings().workers = workers;
    auto r = s.run_script(sql, /*explain=*/true);
    if (!r.ok()) ADD_FAILURE() << r.error->format();
    return r.compiled ? explain_text(*r.compiled, nullptr) : "";
  }
  std::pair<int64_t, int64_t> count_and_sum(const std::string& sql, int workers) {
    Session s(*db_);
    s.settings().workers = workers;
    auto r = s.run_script(sql);
    if (!r.ok()) {
      ADD_FAILURE() << r.error->format();
      return {-1, -1};
    }
    const Batch& b = r.executed.batches.at(0);
    return {b.columns.at(0).ints.at(0), b.columns.at(1).ints.at(0)};
  }

  // Orders whose customer exists: custkey < 300.
  std::pair<int64_t, int64_t> expected() const {
    int64_t n = 0, sum = 0;
    for (int i = 0; i < 3000; ++i)
      if ((i * 7) % 400 < 300) {
        ++n;
        sum += i;
      }
    return {n, sum};
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(ColocationMappingTest, CatalogKeepsMappingsAndWarnsAboutDroppedColumns) {
  const Catalog& cat = db_->catalog();
  ASSERT_EQ(cat.find("orders_t")->colocation.size(), 1u);
  EXPECT_EQ(cat.find("orders_t")->colocation[0].id, "tenant_of_customer");
  EXPECT_EQ(cat.find("orders_t")->colocation[0].columns, std::vector<std::string>{"custkey"});
  EXPECT_TRUE(cat.find("customers_old")->colocation.empty());
  ASSERT_EQ(cat.warnings.size(), 1u);
  EXPECT_NE(cat.warnings[0].find("customers_old"), std::string::npos) << cat.warnings[0];
  EXPECT_NE(cat.warnings[0].find("cust_id"), std::string::npos) << cat.warnings[0];
  // Written back, the mapping survives a round trip.
  Catalog again = parse_catalog(catalog_to_json(cat), "again.json", dir_.path());
  EXPECT_EQ(again.find("customers_t")->colocation.size(), 1u);
}

TEST_F(ColocationMappingTest, MappingOnNonHashTableIsIgnoredWithAWarning) {
  Catalog cat = parse_catalog(R"({"tables": [{"name": "r", "file": "r.csv", "columns": [{"name": "k", "type": "BIGINT"}],
     "distribution": {"kind": "random", "buckets": 2, "colocation": [{"mapping": "m", "columns": ["k"]}]}}]})",
                              "c.json", "");
  EXPECT_TRUE(cat.find("r")->colocation.empty());
  ASSERT_EQ(cat.warnings.size(), 1u);
  EXPECT_NE(cat.warnings[0].find("not hash-distributed"), std::string::npos);
}

TEST_F(ColocationMappingTest, ReservedMappingIdIsADataError) {
  // "=key" is the planner's own: columns equal to the hash key after an inner join (join_ways: add_equal_keys).
  try {
    parse_catalog(R"({"tables": [{"name": "r", "file": "r.csv", "columns": [{"name": "k", "type": "BIGINT"}],
       "distribution": {"kind": "hash", "columns": ["k"], "colocation": [{"mapping": "=key", "columns": ["k"]}]}}]})",
                  "c.json", "");
    ADD_FAILURE() << "expected DATA_ERROR";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR);
    EXPECT_NE(e.format().find("reserved"), std::string::npos) << e.format();
  }
}

TEST_F(ColocationMappingTest, BadlyShapedMappingIsADataError) {
  try {
    parse_catalog(R"({"tables": [{"name": "r", "file": "r.csv", "columns": [{"name": "k", "type": "BIGINT"}],
       "distribution": {"kind": "hash", "columns": ["k"], "colocation": [{"columns": ["k"]}]}}]})",
                  "c.json", "");
    ADD_FAILURE() << "expected DATA_ERROR";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR);
    EXPECT_NE(e.format().find("mapping"), std::string::npos) << e.format();
  }
}

TEST_F(ColocationMappingTest, DeclaredMappingRemovesTheExchange) {
  const char* q = "SELECT count(*), sum(o.amount) FROM orders_t o JOIN customers_t c ON o.custkey = c.custkey";
  std::string p = plan(q);
  EXPECT_NE(p.find("distribution: colocated"), std::string::npos) << p;
  EXPECT_EQ(count(p, "Repartition") + count(p, "Broadcast"), 0) << p;
  EXPECT_NE(p.find("mapping tenant_of_customer(custkey)"), std::string::npos) << p;
  // And it is right: matching rows really are on the same worker, for any worker count.
  for (int w : {1, 2, 3, 4}) EXPECT_EQ(count_and_sum(q, w), expected()) << w << " workers";
}

TEST_F(ColocationMappingTest, WrongBucketLayoutKeepsTheExchange) {
  const char* q = "SELECT count(*), sum(o.amount) FROM orders_t o JOIN customers_3 c ON o.custkey = c.custkey";
  std::string p = plan(q);
  EXPECT_EQ(p.find("distribution: colocated"), std::string::npos) << p;
  EXPECT_GE(count(p, "Repartition") + count(p, "Broadcast"), 1) << p;
  for (int w : {1, 4}) EXPECT_EQ(count_and_sum(q, w), expected()) << w << " workers";
}

TEST_F(ColocationMappingTest, IgnoredMappingIsNeverUsed) {
  const char* q = "SELECT count(*), sum(o.amount) FROM orders_t o JOIN customers_old c ON o.custkey = c.custkey";
  std::string p = plan(q);
  EXPECT_EQ(p.find("distribution: colocated"), std::string::npos) << p;
  EXPECT_EQ(count_and_sum(q, 4), expected());
}

TEST_F(ColocationMappingTest, JoinOnOtherColumnsIsNotColocatedByTheMapping) {
  const char* q = "SELECT count(*), sum(o.amount) FROM orders_t o JOIN customers_t c ON o.amount = c.custkey";
  std::string p = plan(q);
  EXPECT_EQ(p.find("distribution: colocated"), std::string::npos) << p;
}

TEST_F(ColocationMappingTest, GroupingOnMappedColumnsIsSinglePhase) {
  std::string p = plan("SELECT custkey, count(*) FROM orders_t GROUP BY custkey");
  EXPECT_NE(p.find("mode: SINGLE"), std::string::npos) << p;
  EXPECT_EQ(count(p, "Repartition"), 0) << p;
  Session s(*db_);
  s.settings().workers = 3;
  auto r = s.run_script("SELECT count(*) FROM (SELECT custkey, count(*) AS n FROM orders_t GROUP BY custkey) g");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(r.executed.batches.at(0).columns.at(0).ints.at(0), 400);
}

}  // namespace
}  // namespace hindsight
