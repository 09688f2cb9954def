#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/optimizer/stats/column_statistics.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

/// How many distinct non-NULL combinations a set of a table's columns holds (rows with a NULL in any of them are
/// left out: they never match a key). Composite join keys need it: l_partkey and l_suppkey together reference one
/// partsupp row, which no single column's distinct count can tell.
struct ColumnSetStatistics {
  std::vector<std::string> columns;  ///< lower-cased and sorted (see column_set_key)
  double distinct = 0;               ///< HyperLogLog over all rows, clamped to what is possible
};

/// Statistics of one table: one ColumnStatistics per column, in the table's column order, and the column sets
/// whose distinct counts were asked for so far (computed on first use, not by analyze_table).
struct TableStatistics {
  std::string table;
  uint64_t row_count = 0;
  uint64_t data_version = 0;  ///< the Table::data_version the statistics were computed from
  std::vector<ColumnStatistics> columns;
  std::vector<ColumnSetStatistics> column_sets;
  /// About kFilterSampleRows rows of the table (a seeded Bernoulli sample; every row of a smaller table), one
  /// column per table column in the table's order: a scan's whole filter is judged by the share of them it keeps,
  /// which sees correlated predicates that per-column statistics multiply as independent (docs/join-order.md
  /// "Filters judged on a row sample"). Empty for no rows.
  std::vector<ColumnVector> filter_sample;

  /// The rows filter_sample holds (0: none).
  uint64_t filter_sample_rows() const { return filter_sample.empty() ? 0 : filter_sample[0].size(); }

  /// The column called `name` (case-insensitive), or nullptr.
  const ColumnStatistics* column(const std::string& name) const;
  /// The column set with these names (any case and order), or nullptr.
  const ColumnSetStatistics* column_set(const std::vector<std::string>& names) const;
};

/// `names` lower-cased, sorted and without repeats: the one spelling of a column set.
std::vector<std::string> column_set_key(std::vector<std::string> names);

/// Tables with more rows than this have their histograms and most-common values computed from a row sample of
/// about this size (fixed seed); smaller tables are read completely.
constexpr uint64_t kStatisticsSampleRows = 1'000'000;
constexpr uint64_t kStatisticsSampleSeed = 0x5EED5A3B1E;
constexpr uint64_t kFilterSampleRows = 1024;
constexpr uint64_t kFilterSampleBytes = 4 << 20;  ///< text in the sampled rows beyond this: no filter sample
constexpr uint64_t kFilterSampleSeed = 0xF117E45A3B1E;

/// Analyzes every column of `table` over all its buckets (a column the table has not loaded is read for the
/// analysis alone, charged to `guard` (may be null), and not kept) (columns in parallel on up to hardware-concurrency
/// threads). Deterministic: the same table gives identical statistics. Every row is read for row/null counts,
/// min, max and the distinct count; see compute_column_statistics.
TableStatistics analyze_table(const Table& table, LoadGuard* guard = nullptr);

/// The distinct count of column set `names` of `table`, reading every row of those columns (those the table has
/// not loaded are read for it alone, charged to `guard`, and not kept). Single-threaded: at SF 1 lineitem's two
/// key columns take about a tenth of a second. Deterministic. `stats` must describe `table`; throws
/// std::out_of_range for a name that is not one of its columns.
ColumnSetStatistics compute_column_set_statistics(const Table& table, const TableStatistics& stats,
                                                  const std::vector<std::string>& names, LoadGuard* guard = nullptr);

/// True when `stats` no longer describe `table`: its data_version (or row count) changed.
bool is_stale(const TableStatistics& stats, const Table& table);

}  // namespace hindsight
