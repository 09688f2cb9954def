#pragma once
// A data folder mixing both connectors, built once per test binary: the TPC-H SF 0.01 supplier, nation and
// orders tables as CSV (columnar, the generated files) and the same rows copied into a SQLite file
// (supplier_sql, nation_sql, orders_sql), plus small SQLite tables for collation, quoting and bad values.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "planner/catalog/catalog_json.hpp"
#include "planner/session/explain.hpp"
#include "planner/session/session.hpp"
#include "tests/unit/planner/tpch_fixture.hpp"

namespace hindsight::connector_test {

inline void exec_sql(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "?";
    sqlite3_free(err);
    throw std::runtime_error("sqlite: " + msg + " in " + sql);
  }
}

inline std::string sqlite_type(const DataType& t) {
  switch (t.id) {
    case TypeId::Double:
    case TypeId::Decimal: return "REAL";
    case TypeId::Varchar:
    case TypeId::Date: return "TEXT";
    default: return "INTEGER";
  }
}

inline std::string quoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// Copies a loaded columnar table into SQLite table `name` (DECIMAL as REAL, DATE as 'YYYY-MM-DD' text).
inline void copy_table(sqlite3* db, const Table& t, const std::string& name) {
  std::string create = "CREATE TABLE " + quoted(name) + " (";
  std::string insert = "INSERT INTO " + quoted(name) + " VALUES (";
  for (size_t c = 0; c < t.def.columns.size(); ++c) {
    create += (c ? ", " : "") + quoted(t.def.columns[c].name) + " " + sqlite_type(t.def.columns[c].type);
    insert += c ? ", ?" : "?";
  }
  exec_sql(db, create + ")");
  exec_sql(db, "BEGIN");
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, (insert + ")").c_str(), -1, &st, nullptr);
  for (auto& bucket : t.buckets) {
    size_t rows = bucket.empty() ? 0 : bucket[0].size();
    for (size_t r = 0; r < rows; ++r) {
      for (size_t c = 0; c < bucket.size(); ++c) {
        const ColumnVector& col = bucket[c];
        int idx = static_cast<int>(c) + 1;
        if (col.is_null(r)) {
          sqlite3_bind_null(st, idx);
          continue;
        }
        switch (col.type.id) {
          case TypeId::Decimal:
            sqlite3_bind_double(st, idx, static_cast<double>(col.ints[r]) / static_cast<double>(pow10_i64(col.type.scale)));
            break;
          case TypeId::Double: sqlite3_bind_double(st, idx, col.dbls[r]); break;
          case TypeId::Varchar: sqlite3_bind_text(st, idx, col.strs[r].c_str(), -1, SQLITE_TRANSIENT); break;
          case TypeId::Date: {
            std::string d = col.get(r).to_string();
            sqlite3_bind_text(st, idx, d.c_str(), -1, SQLITE_TRANSIENT);
            break;
          }
          default: sqlite3_bind_int64(st, idx, col.ints[r]);
        }
      }
      if (sqlite3_step(st) != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db));
      sqlite3_reset(st);
    }
  }
  sqlite3_finalize(st);
  exec_sql(db, "COMMIT");
}

inline TableDef sqlite_def(const std::string& name, const std::string& file, const std::string& table,
                           std::vector<ColumnDef> columns) {
  TableDef d;
  d.name = name;
  d.connector = "sqlite";
  d.file = file;
  d.connector_options["table"] = table;
  d.columns = std::move(columns);
  return d;
}

struct MixedData {
  std::string dir;
  std::string db_path;  ///< suppliers.db
  std::unique_ptr<Database> db;
};

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline const std::string& mixed_dir() {
  // Never destroyed: the exit handler that removes the folder runs after function-local statics
  // constructed before it was registered are gone.
  static const std::string& dir = *[] {
    auto* d = new std::string(
        (std::filesystem::temp_directory_path() / ("hindsight-connector-test-" + std::to_string(getpid()))).string());
    std::filesystem::remove_all(*d);
    std::filesystem::create_directories(*d);
    std::atexit([] { std::filesystem::remove_all(mixed_dir()); });
    return d;
  }();
  return dir;
}

inline MixedData& mixed() {
  static MixedData m = [] {
    MixedData d;
    d.dir = mixed_dir();
    d.db_path = d.dir + "/suppliers.db";
    Database& tpch = testing::tpch_db();
    Catalog cat;
    cat.folder = d.dir;
    sqlite3* db = nullptr;
    sqlite3_open(d.db_path.c_str(), &db);
    for (const char* t : {"supplier", "nation", "orders", "region", "lineitem"}) {
      TableDef def = *tpch.catalog().find(t);
      def.file = testing::tpch_dir() + "/" + def.file;  // the generated CSV, by absolute path
      cat.tables.push_back(def);
      if (std::string(t) == "region" || std::string(t) == "lineitem") continue;
      copy_table(db, *tpch.table(t), t);
      TableDef s = sqlite_def(std::string(t) + "_sql", "suppliers.db", t, def.columns);
      cat.tables.push_back(s);
    }
    // Identifiers with double quotes; a NOCASE column (the engine compares bytes); LIKE/GLOB metacharacters.
    exec_sql(db, R"(CREATE TABLE "we""ird" ("col""q" TEXT, "n" INTEGER))");
    exec_sql(db, R"(INSERT INTO "we""ird" VALUES ('a', 1), ('b"', 2), (NULL, 3))");
    exec_sql(db, "CREATE TABLE names (name TEXT COLLATE NOCASE)");
    exec_sql(db, "INSERT INTO names VALUES ('abc'), ('ABC'), ('Abc'), ('a*c'), ('[x]'), ('\xC3\xA9'), ('a_c')");
    // Values of the wrong storage class for the declared types.
    exec_sql(db, "CREATE TABLE bad (k INTEGER, v ANY, d REAL, s TEXT)");
    exec_sql(db, "INSERT INTO bad VALUES (1, 10, 1.5, 'x'), (2, 20, 2.25, 'y'), (3, 'oops', 3.0, 'z')");
    exec_sql(db, "CREATE TABLE bad_decimal (d REAL)");
    exec_sql(db, "INSERT INTO bad_decimal VALUES (1.25), (1.005)");
    exec_sql(db, "CREATE TABLE bad_null (s TEXT)");
    exec_sql(db, "INSERT INTO bad_null VALUES ('x'), (NULL)");
    sqlite3_close(db);
    cat.tables.push_back(sqlite_def("we\"ird", "suppliers.db", "we\"ird",
                                    {{"col\"q", DataType::varchar(), true}, {"n", DataType::bigint(), true}}));
    cat.tables.push_back(sqlite_def("names_sql", "suppliers.db", "NAMES", {{"name", DataType::varchar(), true}}));
    cat.tables.push_back(sqlite_def("bad_sql", "suppliers.db", "bad",
                                    {{"k", DataType::bigint(), true}, {"v", DataType::bigint(), true}}));
    cat.tables.push_back(sqlite_def("bad_decimal_sql", "suppliers.db", "bad_decimal",
                                    {{"d", DataType::decimal(15, 2), true}}));
    cat.tables.push_back(sqlite_def("bad_null_sql", "suppliers.db", "bad_null", {{"s", DataType::varchar(), false}}));
    // Written as catalog.json and read back: the connector fields round-trip.
    std::ofstream(d.dir + "/catalog.json") << catalog_to_json(cat);
    d.db = std::make_unique<Database>(d.dir);
    return d;
  }();
  return m;
}

inline StatementResult run(const std::string& sql, int workers = 2) {
  Session s(*mixed().db);
  s.settings().workers = workers;
  return s.run_script(sql);
}

/// Every row of a result as "v1|v2|...", in result order.
inline std::vector<std::string> rows_of(const StatementResult& r) {
  std::vector<std::string> out;
  for (const Batch& b : r.executed.batches)
    for (size_t i = 0; i < b.rows; ++i) {
      std::string row;
      for (size_t c = 0; c < b.columns.size(); ++c) row += (c ? "|" : "") + b.columns[c].get(i).to_string();
      out.push_back(row);
    }
  return out;
}

inline std::vector<std::string> sorted_rows(const std::string& sql, int workers = 2) {
  auto r = run(sql, workers);
  EXPECT_TRUE(r.ok()) << sql << "\n" << (r.error ? r.error->format() : "");
  auto rows = rows_of(r);
  std::sort(rows.begin(), rows.end());
  return rows;
}

inline std::string explain(const std::string& sql) {
  auto r = run("EXPLAIN " + sql);
  EXPECT_TRUE(r.ok()) << sql << "\n" << (r.error ? r.error->format() : "");
  return r.compiled ? explain_text(*r.compiled, nullptr) : "";
}

/// `text` with every "{x}" replaced by "x_sql" (sqlite = true) or "x" (columnar).
inline std::string with_tables(std::string text, bool sqlite) {
  for (size_t p; (p = text.find('{')) != std::string::npos;) {
    size_t e = text.find('}', p);
    std::string name = text.substr(p + 1, e - p - 1);
    text.replace(p, e - p + 1, sqlite ? name + "_sql" : name);
  }
  return text;
}

}  // namespace hindsight::connector_test
