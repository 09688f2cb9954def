#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/optimizer/stats/column_statistics.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

/// Statistics of one table: one ColumnStatistics per column, in the table's column order.
struct TableStatistics {
  std::string table;
  uint64_t row_count = 0;
  uint64_t data_version = 0;  ///< the Table::data_version the statistics were computed from
  std::vector<ColumnStatistics> columns;

  /// The column called `name` (case-insensitive), or nullptr.
  const ColumnStatistics* column(const std::string& name) const;
};

/// Tables with more rows than this have their histograms and most-common values computed from a row sample of
/// about this size (fixed seed); smaller tables are read completely.
constexpr uint64_t kStatisticsSampleRows = 1'000'000;
constexpr uint64_t kStatisticsSampleSeed = 0x5EED5A3B1E;

/// Analyzes every column of `table` over all its buckets (a column the table has not loaded is read for the
/// analysis alone, charged to `guard` (may be null), and not kept) (columns in parallel on up to hardware-concurrency
/// threads). Deterministic: the same table gives identical statistics. Every row is read for row/null counts,
/// min, max and the distinct count; see compute_column_statistics.
TableStatistics analyze_table(const Table& table, LoadGuard* guard = nullptr);

/// True when `stats` no longer describe `table`: its data_version (or row count) changed.
bool is_stale(const TableStatistics& stats, const Table& table);

}  // namespace hindsight
