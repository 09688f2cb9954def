#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hindsight {

/// "name" with every embedded double quote doubled: a SQLite identifier that can only ever name `name`.
std::string quote_sqlite_identifier(std::string_view name);

/// A value bound to a `?` of a SQLite statement (never spliced into the SQL text).
struct SqlParam {
  enum class Kind : uint8_t { Int, Double, Text } kind = Kind::Int;
  int64_t i = 0;
  double d = 0;
  std::string s;
  static SqlParam integer(int64_t v) { return {Kind::Int, v, 0, {}}; }
  static SqlParam real(double v) { return {Kind::Double, 0, v, {}}; }
  static SqlParam text(std::string v) { return {Kind::Text, 0, 0, std::move(v)}; }
};

/// One read-only connection (closed by the destructor). Never creates the file.
class SqliteConnection {
 public:
  SqliteConnection() = default;
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;
  ~SqliteConnection();
  /// Opens `path` with SQLITE_OPEN_READONLY; false with `error` set if it cannot.
  bool open_readonly(const std::string& path, std::string& error);
  sqlite3* get() const { return db_; }
  void close();
  std::string last_error() const;

 private:
  sqlite3* db_ = nullptr;
};

/// One prepared statement (finalized by the destructor).
class SqliteStatement {
 public:
  SqliteStatement() = default;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();
  /// sqlite3_prepare_v2 of exactly one statement (trailing text is refused) and binds `params` to ?1..?n.
  /// Returns the SQLite result code (SQLITE_OK on success); `error` holds the message otherwise.
  int prepare(sqlite3* db, const std::string& sql, const std::vector<SqlParam>& params, std::string& error);
  sqlite3_stmt* get() const { return stmt_; }
  /// Finalizes the statement (ends its read transaction).
  void reset();

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

/// The SQLite name of a storage class (SQLITE_INTEGER -> "INTEGER").
const char* sqlite_storage_class_name(int type);

}  // namespace hindsight
