// SQLite connector: pushdowns visible in EXPLAIN, results equal to the columnar tables, injection attempts inert,
// declaration and value errors typed and named.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "planner/storage/connector/connector.hpp"
#include "planner/storage/connector/sqlite_table.hpp"
#include "planner/optimizer/stats/statistics_cache.hpp"
#include "tests/unit/planner/storage/connector/sqlite_fixture.hpp"

namespace hindsight {
namespace {

using namespace connector_test;

// Each query runs against the columnar tables ({x} -> x) and the SQLite copies ({x} -> x_sql).
const char* kSameResults[] = {
    "SELECT s_suppkey, s_name, s_acctbal FROM {supplier} WHERE s_acctbal > 0",
    "SELECT s_suppkey, s_acctbal FROM {supplier} WHERE s_nationkey IN (1, 5, 7) AND s_acctbal <= 5000.50",
    "SELECT s_suppkey FROM {supplier} WHERE s_nationkey NOT IN (1, 5, 7) AND s_acctbal BETWEEN -500 AND 2500.5",
    "SELECT s_name FROM {supplier} WHERE s_name LIKE 'Supplier#00000001%'",
    "SELECT s_suppkey FROM {supplier} WHERE s_comment LIKE '%Customer%Complaints%'",
    "SELECT s_suppkey, s_phone FROM {supplier} WHERE s_phone NOT LIKE '1_-%'",
    "SELECT s_suppkey FROM {supplier} WHERE s_suppkey <> 5 AND NOT (s_nationkey = 3) AND 40 > s_suppkey",
    "SELECT s_suppkey FROM {supplier} WHERE s_suppkey = 1 OR s_name = 'Supplier#000000002'",
    "SELECT s_suppkey FROM {supplier} WHERE s_address IS NOT NULL AND s_name >= 'Supplier#000000090'",
    "SELECT count(*), sum(s_acctbal), min(s_name), max(s_acctbal) FROM {supplier} WHERE s_acctbal < 1000",
    "SELECT count(*) FROM {supplier}",
    // Refused conjuncts (arithmetic, function, cast of the column) run in a Filter above the scan.
    "SELECT s_suppkey FROM {supplier} WHERE s_acctbal * 2 > 5000 AND s_nationkey = 3",
    "SELECT s_suppkey FROM {supplier} WHERE upper(s_comment) LIKE '%FURIOUS%'",
    "SELECT s_suppkey FROM {supplier} WHERE s_suppkey < 10.5",
    "SELECT s_suppkey, s_name FROM {supplier} ORDER BY s_acctbal DESC, s_suppkey LIMIT 7",
    // DATE as text, VARCHAR equality, DECIMAL ranges.
    "SELECT o_orderkey FROM {orders} WHERE o_orderdate < DATE '1993-01-01' AND o_orderdate >= '1992-06-01'",
    "SELECT count(*) FROM {orders} WHERE o_orderstatus = 'F' AND o_totalprice > 100000.25",
    "SELECT o_orderpriority, count(*) FROM {orders} WHERE o_orderdate IN (DATE '1995-03-01', DATE '1996-01-02') "
    "GROUP BY o_orderpriority",
    // Joins between SQLite tables.
    "SELECT n_name, count(*), sum(s_acctbal) FROM {supplier}, {nation} WHERE s_nationkey = n_nationkey GROUP BY n_name",
    "SELECT n_name, count(*) FROM {nation} LEFT JOIN {supplier} ON s_nationkey = n_nationkey AND s_acctbal > 9000 "
    "GROUP BY n_name",
};

TEST(SqliteConnectorTest, ResultsEqualTheColumnarTables) {
  for (int workers : {1, 4}) {
    for (const char* q : kSameResults) {
      auto columnar = sorted_rows(with_tables(q, false), workers);
      auto sqlite = sorted_rows(with_tables(q, true), workers);
      EXPECT_FALSE(columnar.empty()) << q;
      EXPECT_EQ(columnar, sqlite) << q << " with " << workers << " workers";
    }
  }
}

TEST(SqliteConnectorTest, JoinsASqliteTableWithColumnarTables) {
  const std::string columnar =
      "SELECT n_name, count(*), sum(l_quantity) FROM lineitem, supplier, nation "
      "WHERE l_suppkey = s_suppkey AND s_nationkey = n_nationkey AND s_acctbal > 0 GROUP BY n_name";
  const std::string mixed_sql =
      "SELECT n_name, count(*), sum(l_quantity) FROM lineitem, supplier_sql, nation "
      "WHERE l_suppkey = s_suppkey AND s_nationkey = n_nationkey AND s_acctbal > 0 GROUP BY n_name";
  for (int workers : {1, 3}) {
    auto want = sorted_rows(columnar, workers);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(sorted_rows(mixed_sql, workers), want) << workers << " workers";
  }
  // The SQLite side as the probe (a single stream probing a distributed build) and as a semi join.
  EXPECT_EQ(sorted_rows("SELECT s_name, n_name FROM supplier_sql JOIN nation ON s_nationkey = n_nationkey "
                        "WHERE n_regionkey = 2"),
            sorted_rows("SELECT s_name, n_name FROM supplier JOIN nation ON s_nationkey = n_nationkey "
                        "WHERE n_regionkey = 2"));
  EXPECT_EQ(sorted_rows("SELECT o_orderkey FROM orders WHERE o_custkey IN (SELECT s_suppkey FROM supplier_sql "
                        "WHERE s_acctbal > 5000)"),
            sorted_rows("SELECT o_orderkey FROM orders WHERE o_custkey IN (SELECT s_suppkey FROM supplier "
                        "WHERE s_acctbal > 5000)"));
}

TEST(SqliteConnectorTest, LimitIsPushedIntoTheQuery) {
  auto r = run("SELECT s_suppkey, s_nationkey FROM supplier_sql WHERE s_nationkey = 3 LIMIT 2 OFFSET 1");
  ASSERT_TRUE(r.ok()) << r.error->format();
  auto rows = rows_of(r);
  EXPECT_EQ(rows.size(), 2u);
  for (auto& row : rows) EXPECT_EQ(row.substr(row.find('|')), "|3");
  std::string text = explain("SELECT s_name FROM supplier_sql WHERE s_nationkey = 3 LIMIT 2 OFFSET 1");
  EXPECT_NE(text.find("limit 3"), std::string::npos) << text;  // limit + offset rows are enough
  EXPECT_NE(text.find("LIMIT ?"), std::string::npos) << text;
  EXPECT_EQ(sorted_rows("SELECT count(*) FROM (SELECT s_name FROM supplier_sql LIMIT 5) t"),
            std::vector<std::string>{"5"});
}

std::string scan_line(const std::string& text) {
  size_t p = text.find("TableScan");
  return p == std::string::npos ? "" : text.substr(p, text.find('\n', p) - p);
}

TEST(SqliteConnectorTest, ExplainShowsTheAcceptedPushdownsAndTheQuery) {
  std::string text =
      explain("SELECT s_name FROM supplier_sql WHERE s_acctbal > 0 AND s_nationkey IN (1, 2) AND "
              "s_name LIKE 'Supp%' LIMIT 10");
  std::string scan = scan_line(text);
  EXPECT_NE(scan.find("pushdown: filter("), std::string::npos) << text;
  EXPECT_NE(scan.find("s_acctbal > 0.00"), std::string::npos) << text;
  EXPECT_NE(scan.find("project(3 of 7)"), std::string::npos) << text;
  EXPECT_NE(scan.find("limit 10"), std::string::npos) << text;
  size_t sql = scan.find("sql: SELECT rowid, ");
  ASSERT_NE(sql, std::string::npos) << text;
  std::string query = scan.substr(sql);
  EXPECT_NE(query.find("FROM \"supplier\" WHERE "), std::string::npos) << query;
  EXPECT_NE(query.find("\"s_acctbal\" > ?"), std::string::npos) << query;
  EXPECT_NE(query.find("\"s_nationkey\" IN (?, ?)"), std::string::npos) << query;
  EXPECT_NE(query.find("\"s_name\" GLOB ?"), std::string::npos) << query;
  EXPECT_NE(query.find("LIMIT ?"), std::string::npos) << query;
  // Literals are bound, never part of the text.
  EXPECT_EQ(query.find("Supp"), std::string::npos) << query;
  EXPECT_EQ(query.find("0.0"), std::string::npos) << query;
  // No Filter is left above the scan.
  EXPECT_EQ(text.find("Filter"), std::string::npos) << text;
}

TEST(SqliteConnectorTest, RefusedConjunctsStayInAFilterAboveTheScan) {
  std::string text = explain("SELECT s_suppkey FROM supplier_sql WHERE s_acctbal * 2 > 5000 AND s_nationkey = 3 LIMIT 4");
  size_t filter = text.find("Filter [predicate: s_acctbal * 2");
  size_t scan = text.find("TableScan");
  ASSERT_NE(filter, std::string::npos) << text;
  ASSERT_NE(scan, std::string::npos) << text;
  EXPECT_LT(filter, scan) << text;
  std::string line = scan_line(text);
  EXPECT_NE(line.find("\"s_nationkey\" = ?"), std::string::npos) << text;
  EXPECT_EQ(line.find("*"), std::string::npos) << text;
  EXPECT_EQ(line.find("LIMIT"), std::string::npos) << "no limit under a refused filter: " << text;
  // Everything refused: the scan reads the table and still shows what it pushed (the projection).
  text = explain("SELECT s_suppkey FROM supplier_sql WHERE length(s_name) = 18");
  EXPECT_NE(scan_line(text).find("pushdown: project(2 of 7)"), std::string::npos) << text;
  EXPECT_EQ(scan_line(text).find("WHERE"), std::string::npos) << text;
}

TEST(SqliteConnectorTest, ColumnarScansShowTheirPushdownsToo) {
  std::string text = explain("SELECT s_name FROM supplier WHERE s_acctbal > 0 LIMIT 10");
  std::string scan = scan_line(text);
  EXPECT_NE(scan.find("pushdown: filter(s_acctbal > 0.00), project(2 of 7), limit 10 per worker"), std::string::npos)
      << text;
  EXPECT_EQ(scan.find("sql:"), std::string::npos) << text;
}

TEST(SqliteConnectorTest, TextSemanticsAreTheEngines) {
  // The SQLite column is COLLATE NOCASE and SQLite's LIKE ignores case: the pushed-down query must not.
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name = 'abc'"), std::vector<std::string>{"abc"});
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name IN ('abc', 'zzz')"), std::vector<std::string>{"abc"});
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name > 'a'"),
            (std::vector<std::string>{"a*c", "a_c", "abc", "\xC3\xA9"}));
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name LIKE 'a%'"),
            (std::vector<std::string>{"a*c", "a_c", "abc"}));
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name LIKE 'A%'"), (std::vector<std::string>{"ABC", "Abc"}));
  // GLOB's own metacharacters are literal in LIKE; '_' is one character (UTF-8 code point).
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name LIKE 'a*%'"), std::vector<std::string>{"a*c"});
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name LIKE '[%'"), std::vector<std::string>{"[x]"});
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name LIKE '_'"), std::vector<std::string>{"\xC3\xA9"});
  EXPECT_EQ(sorted_rows("SELECT name FROM names_sql WHERE name LIKE 'a_c'"),
            (std::vector<std::string>{"a*c", "a_c", "abc"}));
  EXPECT_EQ(sorted_rows("SELECT count(*) FROM names_sql WHERE name NOT LIKE '%c'"), std::vector<std::string>{"3"});
  EXPECT_NE(scan_line(explain("SELECT name FROM names_sql WHERE name = 'abc'")).find("COLLATE BINARY"),
            std::string::npos);
}

TEST(SqliteConnectorTest, InjectionAttemptsAreInert) {
  const std::string before = file_bytes(mixed().db_path);
  ASSERT_FALSE(before.empty());
  const char* attempts[] = {
      "SELECT count(*) FROM supplier_sql WHERE s_name = 'x'' OR 1=1 --'",
      "SELECT count(*) FROM supplier_sql WHERE s_name = '''); DROP TABLE supplier; --'",
      "SELECT count(*) FROM supplier_sql WHERE s_name = '\"; DROP TABLE supplier; --'",
      "SELECT count(*) FROM supplier_sql WHERE s_name IN ('a'' OR ''1''=''1', '''); DELETE FROM supplier; --')",
      "SELECT count(*) FROM supplier_sql WHERE s_name LIKE '%'' OR 1=1 --%'",
      "SELECT count(*) FROM supplier_sql WHERE s_comment > 'zzzz'' OR ''a''=''a'",
  };
  for (const char* q : attempts) EXPECT_EQ(sorted_rows(q), std::vector<std::string>{"0"}) << q;
  // Identifiers with double quotes are quoted, not interpreted.
  EXPECT_EQ(sorted_rows(R"(SELECT "col""q", n FROM "we""ird" WHERE "col""q" = 'b"')"), std::vector<std::string>{"b\"|2"});
  EXPECT_EQ(sorted_rows(R"(SELECT n FROM "we""ird" WHERE "col""q" IS NULL)"), std::vector<std::string>{"3"});
  EXPECT_NE(scan_line(explain(R"(SELECT n FROM "we""ird" WHERE "col""q" = 'a')")).find(R"(FROM "we""ird" WHERE "col""q")"),
            std::string::npos);
  // Nothing was written: the file is byte for byte the same and every row is still there.
  EXPECT_EQ(file_bytes(mixed().db_path), before);
  EXPECT_EQ(sorted_rows("SELECT count(*) FROM supplier_sql"), std::vector<std::string>{"100"});
}

TEST(SqliteConnectorTest, HostileTableNameInTheCatalogNamesNoOtherTable) {
  Catalog cat;
  cat.folder = mixed().dir;
  cat.tables.push_back(sqlite_def("evil", "suppliers.db", "supplier\"; DROP TABLE supplier; --",
                                  {{"s_suppkey", DataType::bigint(), true}}));
  Database db(cat);
  const std::string before = file_bytes(mixed().db_path);
  try {
    db.table("evil");
    ADD_FAILURE() << "expected DATA_ERROR";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR);
    EXPECT_NE(e.message().find("sqlite.table"), std::string::npos) << e.message();
  }
  EXPECT_EQ(file_bytes(mixed().db_path), before);
}

Error error_of(const std::string& sql) {
  auto r = run(sql);
  EXPECT_FALSE(r.ok()) << sql;
  return r.error ? *r.error : Error(ErrorCode::INTERNAL, "no error");
}

TEST(SqliteConnectorTest, ValuesOfTheWrongStorageClassAreDataErrors) {
  Error e = error_of("SELECT k, v FROM bad_sql");
  EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.format();
  EXPECT_NE(e.message().find("table 'bad_sql' column 'v' rowid 3"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("found TEXT 'oops'"), std::string::npos) << e.message();
  // The rows the query does not read are not checked.
  EXPECT_EQ(sorted_rows("SELECT v FROM bad_sql WHERE k < 3"), (std::vector<std::string>{"10", "20"}));
  e = error_of("SELECT d FROM bad_decimal_sql");
  EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.format();
  EXPECT_NE(e.message().find("column 'd' rowid 2"), std::string::npos) << e.message();
  e = error_of("SELECT s FROM bad_null_sql");
  EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.format();
  EXPECT_NE(e.message().find("not nullable"), std::string::npos) << e.message();
}

TEST(SqliteConnectorTest, DeclarationErrorsNameTheCatalogTableAndField) {
  auto error_for = [](TableDef def) {
    Catalog cat;
    cat.folder = mixed().dir;
    cat.tables.push_back(std::move(def));
    Database db(cat);
    try {
      db.table(cat.tables[0].name);
    } catch (const Error& e) {
      return e;
    }
    return Error(ErrorCode::INTERNAL, "no error");
  };
  const std::string catalog = mixed().dir + "/catalog.json";
  Error e = error_for(sqlite_def("t1", "missing.db", "supplier", {{"s_suppkey", DataType::bigint(), true}}));
  EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.format();
  EXPECT_NE(e.message().find(catalog + ": table 't1' sqlite.file: cannot open"), std::string::npos) << e.message();
  EXPECT_NE(e.message().find("missing.db"), std::string::npos) << e.message();

  e = error_for(sqlite_def("t2", "suppliers.db", "suplier", {{"s_suppkey", DataType::bigint(), true}}));
  EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.format();
  EXPECT_NE(e.message().find(catalog + ": table 't2' sqlite.table: no table or view 'suplier'"), std::string::npos)
      << e.message();

  e = error_for(sqlite_def("t3", "suppliers.db", "supplier",
                           {{"s_suppkey", DataType::bigint(), true}, {"s_nope", DataType::varchar(), true}}));
  EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.format();
  EXPECT_NE(e.message().find(catalog + ": table 't3' column 2 ('s_nope'): no column 's_nope'"), std::string::npos)
      << e.message();

  std::ofstream(mixed().dir + "/not_a.db") << "this is not a database, just some text that is long enough........";
  e = error_for(sqlite_def("t4", "not_a.db", "supplier", {{"s_suppkey", DataType::bigint(), true}}));
  EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.format();
  EXPECT_NE(e.message().find("sqlite.file"), std::string::npos) << e.message();

  // Through a query, the error is the statement's.
  Catalog cat;
  cat.folder = mixed().dir;
  cat.tables.push_back(sqlite_def("t5", "missing.db", "supplier", {{"s_suppkey", DataType::bigint(), true}}));
  Database db(cat);
  Session s(db);
  auto r = s.run_script("SELECT * FROM t5");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code(), ErrorCode::DATA_ERROR) << r.error->format();
}

TEST(SqliteConnectorTest, CatalogValidatesConnectorFields) {
  auto parse_error = [](const std::string& table_json) {
    try {
      parse_catalog("{\"tables\": [" + table_json + "]}", "dir/catalog.json", "dir");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::DATA_ERROR) << e.format();
      return e.message();
    }
    return std::string("no error");
  };
  const std::string cols = R"("columns": [{"name": "a", "type": "BIGINT"}])";
  Catalog ok = parse_catalog(R"({"tables": [{"name": "s", "connector": "SQLite", "sqlite": {"file": "x.db", "table": "t"}, )" +
                                 cols + "}]}",
                             "dir/catalog.json", "dir");
  ASSERT_EQ(ok.tables.size(), 1u);
  EXPECT_EQ(ok.tables[0].connector, "sqlite");
  EXPECT_EQ(ok.tables[0].file, "x.db");
  EXPECT_EQ(ok.tables[0].connector_options.at("table"), "t");
  // Round trip through catalog_to_json.
  Catalog again = parse_catalog(catalog_to_json(ok), "dir/catalog.json", "dir");
  EXPECT_EQ(again.tables[0].connector, "sqlite");
  EXPECT_EQ(again.tables[0].file, "x.db");
  EXPECT_EQ(again.tables[0].connector_options, ok.tables[0].connector_options);

  EXPECT_NE(parse_error(R"({"name": "s", "connector": "oracle", )" + cols + "}").find("table 's' connector: unknown connector 'oracle'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"name": "s", "connector": "sqlite", "sqlite": {"file": "x.db"}, )" + cols + "}")
                .find("table 's' sqlite: missing field 'table'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"name": "s", "connector": "sqlite", "sqlite": {"file": "x.db", "table": ""}, )" + cols + "}")
                .find("sqlite.table: must not be empty"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"name": "s", "connector": "sqlite", "sqlite": {"file": "x.db", "table": "t"}, )"
                        R"("distribution": {"kind": "replicated"}, )" + cols + "}")
                .find("table 's' distribution: not allowed for connector 'sqlite'"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"name": "s", "connector": "sqlite", "file": "x.db", )" + cols + "}").find("table 's' file"),
            std::string::npos);
}

TEST(SqliteConnectorTest, RowCountForEstimatesAndNoColumnarStatistics) {
  TablePtr t = mixed().db->table("supplier_sql");
  EXPECT_EQ(t->row_count, 100u);
  EXPECT_TRUE(t->buckets.empty());
  StatisticsCache cache;
  EXPECT_EQ(cache.get(*t), nullptr);  // not analyzed as if it were empty
  auto r = run("EXPLAIN SELECT s_name FROM supplier_sql");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_NEAR(r.compiled->physical->estimated_rows, 100, 1);
}

TEST(SqliteConnectorTest, ReopensTheTableWhenTheFileChanges) {
  const std::string dir = mixed().dir;
  const std::string path = dir + "/counter.db";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  exec_sql(db, "CREATE TABLE c (x INTEGER); INSERT INTO c VALUES (1), (2)");
  Catalog cat;
  cat.folder = dir;
  cat.tables.push_back(sqlite_def("c", "counter.db", "c", {{"x", DataType::bigint(), true}}));
  Database database(cat);
  TablePtr first = database.table("c");
  EXPECT_EQ(first->row_count, 2u);
  EXPECT_EQ(database.table("c"), first);  // same data version: not reopened
  exec_sql(db, "INSERT INTO c VALUES (3), (4), (5)");
  sqlite3_close(db);
  // Make sure the stamp differs even on coarse file-time clocks (the size alone may not change).
  std::filesystem::last_write_time(path, std::filesystem::last_write_time(path) + std::chrono::seconds(2));
  TablePtr second = database.table("c");
  EXPECT_EQ(second->row_count, 5u);
  EXPECT_NE(second->data_version, first->data_version);
  Session s(database);
  auto r = s.run_script("SELECT sum(x) FROM c WHERE x > 1");
  ASSERT_TRUE(r.ok()) << r.error->format();
  EXPECT_EQ(rows_of(r), std::vector<std::string>{"14"});
}

}  // namespace
}  // namespace hindsight
