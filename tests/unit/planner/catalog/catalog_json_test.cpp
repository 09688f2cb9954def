#include "planner/catalog/catalog_json.hpp"

#include <gtest/gtest.h>

#include "../storage/storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::expect_throws;
using storage_test::TempDir;
using storage_test::write_file;

const char* kValid = R"json({"tables": [
  {"name": "orders", "file": "orders.csv",
   "columns": [{"name": "o_orderkey", "type": "BIGINT", "nullable": false},
               {"name": "o_total", "type": "decimal(15,2)"},
               {"name": "o_date", "type": "DATE"}],
   "distribution": {"kind": "hash", "columns": ["O_ORDERKEY"], "buckets": 8}},
  {"name": "nation", "file": "nation.csv", "columns": [{"name": "n_name", "type": "VARCHAR"}],
   "distribution": {"kind": "replicated"}},
  {"name": "events", "file": "/abs/events.csv", "columns": [{"name": "e", "type": "DOUBLE"}],
   "distribution": {"kind": "random", "buckets": 3}},
  {"name": "plain", "file": "plain.csv", "columns": [{"name": "b", "type": "BOOLEAN"}]}
]})json";

Catalog parse(const std::string& text) { return parse_catalog(text, "dir/catalog.json", "dir"); }

std::string semantic_error(const std::string& text) {
  return expect_throws([&] { parse(text); }, ErrorCode::DATA_ERROR).message();
}

TEST(CatalogJsonTest, ParsesTablesColumnsAndDistributions) {
  Catalog c = parse(kValid);
  ASSERT_EQ(c.tables.size(), 4u);
  EXPECT_EQ(c.folder, "dir");
  const TableDef* orders = c.find("ORDERS");
  ASSERT_NE(orders, nullptr);
  EXPECT_EQ(orders->file, "orders.csv");
  ASSERT_EQ(orders->columns.size(), 3u);
  EXPECT_FALSE(orders->columns[0].nullable);
  EXPECT_TRUE(orders->columns[1].nullable);
  EXPECT_EQ(orders->columns[1].type, DataType::decimal(15, 2));
  EXPECT_EQ(orders->columns[2].type, DataType::date());
  EXPECT_EQ(orders->distribution, DistributionKind::Hash);
  ASSERT_EQ(orders->distribution_columns.size(), 1u);
  EXPECT_EQ(orders->distribution_columns[0], "o_orderkey");  // normalised to the declared spelling
  EXPECT_EQ(orders->buckets, 8);
  EXPECT_EQ(orders->column_index("O_Total"), 1);
  EXPECT_EQ(orders->column_index("nope"), -1);
  EXPECT_EQ(c.find("nation")->distribution, DistributionKind::Replicated);
  EXPECT_EQ(c.find("nation")->buckets, 1);
  EXPECT_EQ(c.find("events")->distribution, DistributionKind::Random);
  EXPECT_EQ(c.find("events")->buckets, 3);
  EXPECT_EQ(c.find("plain")->distribution, DistributionKind::Random);
  EXPECT_EQ(c.find("plain")->buckets, 1);
  EXPECT_EQ(c.find("missing"), nullptr);
}

TEST(CatalogJsonTest, RoundTripsThroughCatalogToJson) {
  Catalog c = parse(kValid);
  Catalog back = parse(catalog_to_json(c));
  ASSERT_EQ(back.tables.size(), c.tables.size());
  for (size_t t = 0; t < c.tables.size(); ++t) {
    const auto &a = c.tables[t], &b = back.tables[t];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.file, b.file);
    EXPECT_EQ(a.distribution, b.distribution);
    EXPECT_EQ(a.distribution_columns, b.distribution_columns);
    EXPECT_EQ(a.buckets, b.buckets);
    ASSERT_EQ(a.columns.size(), b.columns.size());
    for (size_t i = 0; i < a.columns.size(); ++i) {
      EXPECT_EQ(a.columns[i].name, b.columns[i].name);
      EXPECT_EQ(a.columns[i].type, b.columns[i].type);
      EXPECT_EQ(a.columns[i].nullable, b.columns[i].nullable);
    }
  }
}

TEST(CatalogJsonTest, LoadsFromFolderAndReportsMissingFileAsIoError) {
  TempDir dir;
  write_file(dir.file("catalog.json"), kValid);
  Catalog c = load_catalog(dir.path());
  EXPECT_EQ(c.folder, dir.path());
  EXPECT_EQ(c.tables.size(), 4u);

  TempDir empty;
  Error e = expect_throws([&] { load_catalog(empty.path()); }, ErrorCode::IO_ERROR);
  EXPECT_NE(e.message().find("catalog.json"), std::string::npos) << e.message();
}

TEST(CatalogJsonTest, MalformedJsonReportsFileLineAndColumn) {
  TempDir dir;
  // Line 3 has a '}' where a value is expected, at column 14.
  write_file(dir.file("catalog.json"), "{\n  \"tables\": [\n    {\"name\": }\n  ]\n}\n");
  Error e = expect_throws([&] { load_catalog(dir.path()); }, ErrorCode::DATA_ERROR);
  EXPECT_EQ(e.pos().file, dir.file("catalog.json"));
  EXPECT_EQ(e.pos().line, 3);
  EXPECT_EQ(e.pos().col, 14);
  EXPECT_NE(e.message().find("malformed JSON"), std::string::npos) << e.message();

  Error eof = expect_throws([&] { parse("{\"tables\": [\n"); }, ErrorCode::DATA_ERROR);
  EXPECT_EQ(eof.pos().line, 2);

  // A number beyond a double (found by fuzz_catalog: it ended in std::terminate).
  Error big = expect_throws([&] { parse("{\"tables\": [],\n \"x\": 1e400}"); }, ErrorCode::DATA_ERROR);
  EXPECT_NE(big.message().find("1e400"), std::string::npos) << big.message();
  EXPECT_EQ(big.pos().line, 2);
  EXPECT_EQ(big.pos().col, 7);
}

TEST(CatalogJsonTest, SemanticErrorsNameTheTableAndField) {
  auto table = [](const std::string& cols, const std::string& dist = "") {
    return R"({"tables": [{"name": "orders", "file": "orders.csv", "columns": [)" + cols + "]" +
           (dist.empty() ? "" : ", \"distribution\": " + dist) + "}]}";
  };
  const std::string a = R"({"name": "a", "type": "INTEGER"})", b = R"({"name": "b", "type": "INTEGER"})";

  std::string msg = semantic_error(table(a + "," + b + R"(,{"name": "c", "type": "blob"})"));
  EXPECT_NE(msg.find("table 'orders' column 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown type 'blob'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("dir/catalog.json"), std::string::npos) << msg;

  msg = semantic_error(table(a, R"({"kind": "hash", "columns": ["zz"], "buckets": 4})"));
  EXPECT_NE(msg.find("hash column 'zz' is not a column"), std::string::npos) << msg;
  EXPECT_NE(msg.find("orders"), std::string::npos) << msg;

  msg = semantic_error(table(a, R"({"kind": "hash", "columns": ["a"], "buckets": 0})"));
  EXPECT_NE(msg.find("buckets must be between 1 and 4096"), std::string::npos) << msg;
  msg = semantic_error(table(a, R"({"kind": "random", "buckets": 5000})"));
  EXPECT_NE(msg.find("got 5000"), std::string::npos) << msg;
  // A count that cannot be honoured is reported as written (2^40 was shown as 1073741824), as is one beyond int64.
  msg = semantic_error(table(a, R"({"kind": "random", "buckets": 1099511627776})"));
  EXPECT_NE(msg.find("between 1 and 4096, got 1099511627776"), std::string::npos) << msg;
  msg = semantic_error(table(a, R"({"kind": "random", "buckets": 18446744073709551615})"));
  EXPECT_NE(msg.find("got 18446744073709551615"), std::string::npos) << msg;
  msg = semantic_error(table(a, R"({"kind": "random", "buckets": -3})"));
  EXPECT_NE(msg.find("got -3"), std::string::npos) << msg;
  msg = semantic_error(table(a, R"({"kind": "sharded"})"));
  EXPECT_NE(msg.find("unknown kind 'sharded'"), std::string::npos) << msg;
  msg = semantic_error(table(a + "," + R"({"name": "A", "type": "INTEGER"})"));
  EXPECT_NE(msg.find("duplicate column name 'A'"), std::string::npos) << msg;
  msg = semantic_error(table(R"({"name": "a"})"));
  EXPECT_NE(msg.find("missing field 'type'"), std::string::npos) << msg;
  msg = semantic_error(R"({"tables": [{"name": "t", "columns": [{"name": "a", "type": "INTEGER"}]}]})");
  EXPECT_NE(msg.find("table 't': missing field 'file'"), std::string::npos) << msg;
  const std::string one_column = R"("columns": [{"name": "a", "type": "INTEGER"}])";
  msg = semantic_error(R"({"tables": [{"name": "t", "file": "t.csv", )" + one_column + R"(},
                                      {"name": "T", "file": "u.csv", )" +
                       one_column + "}]}");
  EXPECT_NE(msg.find("duplicate table name 'T'"), std::string::npos) << msg;
  msg = semantic_error(R"({"tables": {}})");
  EXPECT_NE(msg.find("'tables' must be an array"), std::string::npos) << msg;
  msg = semantic_error(table(R"({"name": "a", "type": "INTEGER", "nullable": "yes"})"));
  EXPECT_NE(msg.find("'nullable' must be true or false"), std::string::npos) << msg;
}

}  // namespace
}  // namespace hindsight
