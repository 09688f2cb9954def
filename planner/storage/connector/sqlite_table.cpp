#include "planner/storage/connector/sqlite_table.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "planner/common/error.hpp"
#include "planner/storage/connector/connector.hpp"
#include "planner/storage/connector/sqlite_handle.hpp"

namespace hindsight {

namespace {

bool iequals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

/// Runs `sql` with `params`, calling `row` for each result row. Returns the SQLite code of the failure (SQLITE_OK
/// if none) with `error` set.
template <class Fn>
int query(sqlite3* db, const std::string& sql, const std::vector<SqlParam>& params, std::string& error, Fn&& row) {
  SqliteStatement st;
  int rc = st.prepare(db, sql, params, error);
  if (rc != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) row(st.get());
  if (rc != SQLITE_DONE) {
    error = sqlite3_errmsg(db);
    return rc;
  }
  return SQLITE_OK;
}

std::string column_text(sqlite3_stmt* st, int i) {
  const unsigned char* p = sqlite3_column_text(st, i);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st, i))) : "";
}

}  // namespace

std::shared_ptr<const SqliteTable> open_sqlite_table(const std::string& folder, const TableDef& def, LoadInfo* info) {
  auto t0 = std::chrono::steady_clock::now();
  LoadInfo local;
  LoadInfo& li = info ? *info : local;
  li = LoadInfo{};
  const std::string catalog = catalog_path_of(folder);
  auto fail = [&](const std::string& field, const std::string& what) -> Error {
    return Error(ErrorCode::DATA_ERROR, fmt::format("{}: table '{}' {}: {}", catalog, def.name, field, what));
  };
  li.source_path = table_source_path(folder, def);
  if (!stat_file(li.source_path, li.stamp))
    throw fail("sqlite.file", fmt::format("cannot open '{}': {}", li.source_path, std::strerror(errno)));

  SqliteConnection conn;
  std::string error;
  if (!conn.open_readonly(li.source_path, error))
    throw fail("sqlite.file", fmt::format("cannot open SQLite database '{}': {}", li.source_path, error));

  const std::string& wanted = def.connector_options.count("table") ? def.connector_options.at("table") : def.name;
  auto t = std::make_shared<SqliteTable>();
  t->def = def;
  t->path = li.source_path;
  // Identifiers are case-insensitive (ASCII) in SQLite: find the table as SQLite spells it.
  int matches = 0;
  int rc = query(conn.get(), "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE",
                 {SqlParam::text(wanted)}, error, [&](sqlite3_stmt* st) {
                   t->sqlite_table = column_text(st, 0);
                   ++matches;
                 });
  if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
    throw fail("sqlite.file", fmt::format("'{}' is not a SQLite database ({})", li.source_path, error));
  if (rc != SQLITE_OK)
    throw fail("sqlite.file", fmt::format("cannot read the schema of '{}': {}", li.source_path, error));
  if (matches == 0) throw fail("sqlite.table", fmt::format("no table or view '{}' in '{}'", wanted, li.source_path));

  std::vector<std::string> names;
  rc = query(conn.get(), "SELECT name FROM pragma_table_info(?1)", {SqlParam::text(t->sqlite_table)}, error,
             [&](sqlite3_stmt* st) { names.push_back(column_text(st, 0)); });
  if (rc != SQLITE_OK)
    throw fail("sqlite.table", fmt::format("cannot read the columns of '{}': {}", t->sqlite_table, error));
  for (size_t c = 0; c < def.columns.size(); ++c) {
    const std::string& declared = def.columns[c].name;
    const std::string* found = nullptr;
    for (auto& n : names)
      if (iequals(n, declared)) found = &n;
    if (!found) {
      std::string have;
      for (size_t i = 0; i < names.size(); ++i) have += (i ? ", " : "") + names[i];
      throw fail(fmt::format("column {} ('{}')", c + 1, declared),
                 fmt::format("no column '{}' in SQLite table '{}' of '{}' (it has: {})", declared, t->sqlite_table,
                             li.source_path, have));
    }
    t->sqlite_columns.push_back(*found);
  }

  const std::string from = " FROM " + quote_sqlite_identifier(t->sqlite_table);
  {
    SqliteStatement probe;  // WITHOUT ROWID tables and views have no rowid: errors then name the row's position
    t->has_rowid = probe.prepare(conn.get(), "SELECT rowid" + from + " LIMIT 0", {}, error) == SQLITE_OK;
  }
  rc = query(conn.get(), "SELECT count(*)" + from, {}, error,
             [&](sqlite3_stmt* st) { t->row_count = static_cast<uint64_t>(sqlite3_column_int64(st, 0)); });
  if (rc != SQLITE_OK)
    throw fail("sqlite.table", fmt::format("cannot count the rows of '{}': {}", t->sqlite_table, error));
  t->data_version = data_version_of(li.stamp, def);
  li.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

}  // namespace hindsight
