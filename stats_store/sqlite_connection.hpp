#pragma once
// A SQLite connection with cached prepared statements and checked calls: every failure is a StoreError
// carrying the SQLite result code. Used by SqliteStatsStore only.
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "stats_store/store_error.hpp"

namespace hindsight::stats {

class SqliteConnection;

/// A prepared statement, reset on every bind_all/first use; owned by its connection's cache.
class SqliteStatement {
 public:
  SqliteStatement(SqliteConnection& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  /// Clears the previous run and bindings: call before binding a new run.
  SqliteStatement& reset();
  SqliteStatement& bind(int i, int64_t v);
  SqliteStatement& bind(int i, double v);
  SqliteStatement& bind(int i, std::string_view v);
  SqliteStatement& bind_null(int i);
  /// true: a row is available; false: done. Throws StoreError on failure.
  bool step();
  /// Runs to completion (statements without result rows).
  void run() { while (step()) {} }

  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  /// SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL: what the row holds (before a conversion).
  int type(int col) const { return sqlite3_column_type(stmt_, col); }
  int64_t int64(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  std::string text(int col) const;
  std::string_view text_view(int col) const;

 private:
  SqliteConnection* db_;
  sqlite3_stmt* stmt_;
};

class SqliteConnection {
 public:
  /// Opens `path` (flags as sqlite3_open_v2). Throws StoreError when SQLite cannot open it at all.
  SqliteConnection(const std::string& path, int flags);
  ~SqliteConnection();
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  /// The cached statement for `sql` (prepared on first use), reset and unbound.
  SqliteStatement& statement(const std::string& sql);
  /// Runs one or more statements without results (schema, PRAGMA writes, BEGIN/COMMIT).
  void exec(const std::string& sql);
  /// The first column of the first row of `sql` as text (PRAGMAs, counts); empty when no row.
  std::string query_text(const std::string& sql);
  int64_t query_int(const std::string& sql);
  int64_t last_insert_id() const { return sqlite3_last_insert_rowid(db_); }
  bool read_only() const { return sqlite3_db_readonly(db_, "main") == 1; }
  /// Drops every cached statement (before a schema change, or closing).
  void clear_statements() { statements_.clear(); }

  /// Throws StoreError("<what>: <sqlite message>") when rc is an error code.
  void check(int rc, std::string_view what) const;
  sqlite3* raw() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::unordered_map<std::string, std::unique_ptr<SqliteStatement>> statements_;
};

}  // namespace hindsight::stats
