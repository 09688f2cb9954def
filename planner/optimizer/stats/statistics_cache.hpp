#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "planner/optimizer/stats/table_statistics.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

/// Table statistics by table name (case-insensitive), computed on first use and recomputed when the table's
/// data_version (or row count) changes. Thread-safe: concurrent get() calls for one table wait for a single
/// analysis; different tables are analyzed independently. Returned statistics are immutable and stay valid
/// after invalidation or recomputation.
///
/// With a directory (see statistics_directory), statistics are also persisted there, one file per table (see
/// statistics_file.hpp): a table missing from memory is read from its file when that file describes the table's
/// current data_version and schema, and every analysis rewrites the file. An unusable file (corrupt, truncated,
/// another format version) is ignored with one warning on stderr and replaced; a stale one is replaced silently.
/// Persisting is best effort: if the file cannot be written the statistics are still used (one warning).
class StatisticsCache {
 public:
  StatisticsCache() = default;
  /// Also removes the temp files of killed writers from `directory`.
  explicit StatisticsCache(std::string directory);

  /// The statistics of `table`: cached, else from its file, else analyzed (if absent or stale, see is_stale).
  /// An analysis reads every column of the table, charging `guard` (may be null) for those it reads from the
  /// table's cache (read for the analysis only, not kept loaded).
  std::shared_ptr<const TableStatistics> get(const Table& table, LoadGuard* guard = nullptr);
  /// Analyzes `table` again even if its statistics are fresh (ANALYZE), caching and persisting the result.
  /// nullptr, like get(), for a table without columnar data (a connector table).
  std::shared_ptr<const TableStatistics> refresh(const Table& table, LoadGuard* guard = nullptr);
  /// The distinct count of the column set `names` of `table` (see ColumnSetStatistics): kept in its statistics
  /// once computed, so the first plan that asks pays for reading those columns (compute_column_set_statistics)
  /// and later ones, in this process or (through the statistics file) the next, read a number. nullopt for a
  /// table without statistics or a name that is not one of its columns.
  std::optional<double> column_set_distinct(const Table& table, const std::vector<std::string>& names,
                                            LoadGuard* guard = nullptr);
  /// The cached statistics of table `name` without analyzing anything (nullptr if absent; may be stale). Waits
  /// if an analysis of that table is running.
  std::shared_ptr<const TableStatistics> find(const std::string& name) const;
  /// Drops the in-memory statistics of table `name`; the next get() reads its file again or recomputes them.
  void invalidate(const std::string& name);
  void clear();
  /// Number of analyze_table runs so far (for tests and diagnostics).
  uint64_t analyses() const;
  /// Number of statistics read from files so far.
  uint64_t loads() const;
  /// Where statistics are persisted; empty: memory only.
  const std::string& directory() const { return directory_; }

 private:
  struct Slot {
    std::mutex mu;
    std::shared_ptr<const TableStatistics> stats;
  };
  std::shared_ptr<Slot> slot_for(const std::string& name);
  /// The statistics in `table`'s file if they describe it now, else nullptr (no file, unusable or stale).
  std::shared_ptr<const TableStatistics> load(const Table& table);
  /// The statistics of `table` in `slot` (locked by the caller) if fresh, else its file's, else analyzed.
  std::shared_ptr<const TableStatistics> current(Slot& slot, const Table& table, LoadGuard* guard);
  /// Runs analyze_table, counts it and persists the result.
  std::shared_ptr<const TableStatistics> analyze(const Table& table, LoadGuard* guard);
  /// Writes `stats` to their table's file (best effort, one warning if it cannot).
  void persist(const TableStatistics& stats);

  std::string directory_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;  ///< by lower-cased table name
  uint64_t analyses_ = 0;
  uint64_t loads_ = 0;
};

}  // namespace hindsight
