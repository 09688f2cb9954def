#pragma once
#include <memory>
#include <string>
#include <vector>

#include "planner/storage/table.hpp"
#include "planner/storage/table_loader.hpp"

namespace hindsight {

/// A table of a SQLite database file declared in catalog.json ("connector": "sqlite"). No rows are held: the
/// buckets stay empty and every scan runs its own read-only query (planner/storage/connector/sqlite_scan_op.hpp).
/// row_count is `SELECT count(*)` when the table was opened (the Database reopens it when the file's stamp
/// (size, mtime, ctime, inode, device) changes, so it is cached per data version).
struct SqliteTable : Table {
  std::string path;                         ///< the database file
  std::string sqlite_table;                 ///< the table (or view) as SQLite spells it
  std::vector<std::string> sqlite_columns;  ///< per declared column, its name in SQLite
  bool has_rowid = false;                   ///< false for WITHOUT ROWID tables and views
};

/// Opens and validates a SQLite table: the file must exist and be a SQLite database, the table (or view) must
/// exist and every declared column must be one of its columns (names compared case-insensitively, as SQLite
/// does). Throws DATA_ERROR naming the catalog file, the table and the field ("sqlite.file", "sqlite.table",
/// "column 3 ('s_nope')").
std::shared_ptr<const SqliteTable> open_sqlite_table(const std::string& folder, const TableDef& def,
                                                     LoadInfo* info = nullptr);

}  // namespace hindsight
