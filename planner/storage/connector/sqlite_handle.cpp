#include "planner/storage/connector/sqlite_handle.hpp"

namespace hindsight {

std::string quote_sqlite_identifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

SqliteConnection::~SqliteConnection() { close(); }

void SqliteConnection::close() {
  if (db_) sqlite3_close_v2(db_);
  db_ = nullptr;
}

bool SqliteConnection::open_readonly(const std::string& path, std::string& error) {
  close();
  int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr);
  if (rc != SQLITE_OK) {
    error = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    if (db_) sqlite3_close_v2(db_);
    db_ = nullptr;
    return false;
  }
  // A writer holding a lock briefly must not fail the query at once.
  sqlite3_busy_timeout(db_, 5000);
  return true;
}

std::string SqliteConnection::last_error() const { return db_ ? sqlite3_errmsg(db_) : "no connection"; }

SqliteStatement::~SqliteStatement() { reset(); }

void SqliteStatement::reset() {
  if (stmt_) sqlite3_finalize(stmt_);
  stmt_ = nullptr;
}

int SqliteStatement::prepare(sqlite3* db, const std::string& sql, const std::vector<SqlParam>& params,
                             std::string& error) {
  reset();
  const char* tail = nullptr;
  int rc = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt_, &tail);
  if (rc != SQLITE_OK) {
    error = sqlite3_errmsg(db);
    return rc;
  }
  // The text is ours and holds one statement; anything after it would be a bug, never run.
  for (const char* p = tail; p && *p; ++p)
    if (*p != ' ' && *p != '\n' && *p != '\t' && *p != ';') {
      error = "internal: trailing text after the statement";
      return SQLITE_MISUSE;
    }
  if (static_cast<size_t>(sqlite3_bind_parameter_count(stmt_)) != params.size()) {
    error = "internal: parameter count mismatch";
    return SQLITE_MISUSE;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const SqlParam& p = params[i];
    int idx = static_cast<int>(i) + 1;
    switch (p.kind) {
      case SqlParam::Kind::Int: rc = sqlite3_bind_int64(stmt_, idx, p.i); break;
      case SqlParam::Kind::Double: rc = sqlite3_bind_double(stmt_, idx, p.d); break;
      case SqlParam::Kind::Text:
        rc = sqlite3_bind_text(stmt_, idx, p.s.data(), static_cast<int>(p.s.size()), SQLITE_TRANSIENT);
        break;
    }
    if (rc != SQLITE_OK) {
      error = sqlite3_errmsg(db);
      return rc;
    }
  }
  return SQLITE_OK;
}

const char* sqlite_storage_class_name(int type) {
  switch (type) {
    case SQLITE_INTEGER: return "INTEGER";
    case SQLITE_FLOAT: return "REAL";
    case SQLITE_TEXT: return "TEXT";
    case SQLITE_BLOB: return "BLOB";
    case SQLITE_NULL: return "NULL";
  }
  return "?";
}

}  // namespace hindsight
