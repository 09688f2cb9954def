#include "stats_store/sqlite_connection.hpp"

#include <fmt/format.h>

namespace hindsight::stats {

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  return *this;
}

SqliteStatement& SqliteStatement::bind(int i, int64_t v) {
  db_->check(sqlite3_bind_int64(stmt_, i, v), "bind");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int i, double v) {
  db_->check(sqlite3_bind_double(stmt_, i, v), "bind");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int i, std::string_view v) {
  db_->check(sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8), "bind");
  return *this;
}

SqliteStatement& SqliteStatement::bind_null(int i) {
  db_->check(sqlite3_bind_null(stmt_, i), "bind");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // The statement's own error code (sqlite3_step's legacy code can be generic).
  const int code = sqlite3_reset(stmt_);
  db_->check(code != SQLITE_OK ? code : rc, "step");
  return false;
}

std::string SqliteStatement::text(int col) const { return std::string(text_view(col)); }

std::string_view SqliteStatement::text_view(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (!p) return {};
  return {p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

SqliteConnection::SqliteConnection(const std::string& path, int flags) {
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError(fmt::format("cannot open {}: {}", path, msg), rc);
  }
  sqlite3_extended_result_codes(db_, 1);
}

SqliteConnection::~SqliteConnection() {
  statements_.clear();
  if (db_) sqlite3_close_v2(db_);
}

SqliteStatement& SqliteConnection::statement(const std::string& sql) {
  auto it = statements_.find(sql);
  if (it == statements_.end()) {
    sqlite3_stmt* stmt = nullptr;
    check(sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt,
                             nullptr),
          "prepare");
    it = statements_.emplace(sql, std::make_unique<SqliteStatement>(*this, stmt)).first;
  }
  return it->second->reset();
}

void SqliteConnection::exec(const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    throw StoreError(msg, sqlite3_extended_errcode(db_) ? sqlite3_extended_errcode(db_) : rc);
  }
}

std::string SqliteConnection::query_text(const std::string& sql) {
  auto& st = statement(sql);
  std::string out = st.step() ? st.text(0) : std::string();
  st.reset();
  return out;
}

int64_t SqliteConnection::query_int(const std::string& sql) {
  auto& st = statement(sql);
  int64_t out = st.step() ? st.int64(0) : 0;
  st.reset();
  return out;
}

void SqliteConnection::check(int rc, std::string_view what) const {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
  const char* msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  throw StoreError(fmt::format("{}: {}", what, msg), rc);
}

}  // namespace hindsight::stats
