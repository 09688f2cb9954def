#pragma once
#include <string>

#include "planner/catalog/table_def.hpp"
#include "planner/storage/table.hpp"
#include "planner/storage/load_guard.hpp"
#include "planner/storage/table_cache.hpp"

namespace hindsight {

struct LoadOptions {
  bool use_cache = true;    ///< read "<csv>.hsc" when it matches the CSV and schema
  bool write_cache = true;  ///< write "<csv>.hsc" after loading from CSV
  LoadGuard* guard = nullptr;  ///< the limits of the statement that triggered the load (none: unlimited)
};

/// What a load did (for tests, timings and EXPLAIN-style reporting).
struct LoadInfo {
  std::string source_path;
  FileStamp stamp;
  bool from_cache = false;
  bool cache_written = false;
  double seconds = 0;
};

/// Path of `def`'s source file: def.file, relative to `folder` unless absolute.
std::string table_source_path(const std::string& folder, const TableDef& def);

/// What a loaded table's loaded columns hold in allocated memory (what a load charges the statement's memory budget).
size_t table_allocated_bytes(const Table& table);

/// Loads one table: from its binary cache when valid (its header only: the columns load on demand, see
/// Table::load_columns), else from the CSV, every column (then writes the cache; a damaged cache is reported on
/// stderr and rewritten). Sets row_count and data_version. Throws IO_ERROR (missing/unreadable file) or DATA_ERROR (bad CSV), and
/// what options.guard throws (MEMORY_LIMIT_EXCEEDED, TIMEOUT) when the load outgrows the statement's limits.
TablePtr load_table(const std::string& folder, const TableDef& def, const LoadOptions& options = {},
                    LoadInfo* info = nullptr);

}  // namespace hindsight
