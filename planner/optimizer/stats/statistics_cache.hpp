#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "planner/optimizer/stats/table_statistics.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

/// Table statistics by table name (case-insensitive), computed on first use and recomputed when the table's
/// data_version (or row count) changes. Thread-safe: concurrent get() calls for one table wait for a single
/// analysis; different tables are analyzed independently. Returned statistics are immutable and stay valid
/// after invalidation or recomputation.
class StatisticsCache {
 public:
  /// The statistics of `table`, analyzing it if absent or stale (see is_stale).
  std::shared_ptr<const TableStatistics> get(const Table& table);
  /// The cached statistics of table `name` without analyzing anything (nullptr if absent; may be stale). Waits
  /// if an analysis of that table is running.
  std::shared_ptr<const TableStatistics> find(const std::string& name) const;
  /// Drops the statistics of table `name`; the next get() recomputes them.
  void invalidate(const std::string& name);
  void clear();
  /// Number of analyze_table runs so far (for tests and diagnostics).
  uint64_t analyses() const;

 private:
  struct Slot {
    std::mutex mu;
    std::shared_ptr<const TableStatistics> stats;
  };

  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;  ///< by lower-cased table name
  uint64_t analyses_ = 0;
};

}  // namespace hindsight
