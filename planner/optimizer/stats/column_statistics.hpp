#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planner/common/types.hpp"
#include "planner/common/value.hpp"
#include "planner/optimizer/stats/equi_depth_histogram.hpp"
#include "planner/optimizer/stats/row_sample.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// Statistics of one column, as computed by compute_column_statistics.
/// Values (min, max, histogram bounds, most common values) have the column's type: Int64-physical types hold
/// their int64 form (DATE as days since 1970-01-01, DECIMAL as value * 10^scale, BOOLEAN as 0/1).
struct ColumnStatistics {
  static constexpr size_t kMostCommonValues = 16;
  static constexpr uint64_t kPatternSampleValues = 1024;
  static constexpr uint64_t kPatternSampleBytes = 256 * 1024;  ///< long values: fewer of them
  static constexpr uint64_t kMinPatternSample = 64;            ///< fewer fitting than this: no sample

  std::string name;
  DataType type;
  uint64_t rows = 0;        ///< all rows, NULLs included
  uint64_t null_count = 0;  ///< exact
  /// Distinct non-NULL values: exact when every row was read into the histogram (no sampling), else a
  /// HyperLogLog estimate over all rows (about 1.6 % relative standard error), clamped to what is possible.
  double distinct = 0;
  bool distinct_exact = false;
  /// True when the histogram and most-common values come from a row sample (counts scaled to the table).
  bool sampled = false;
  std::optional<Value> min;  ///< exact (all rows); absent when every row is NULL
  std::optional<Value> max;
  /// Over non-NULL values; empty for BOOLEAN columns (their most-common values say everything).
  EquiDepthHistogram histogram;
  /// Up to kMostCommonValues (value, rows) pairs, most frequent first (ties by ascending value). Exact counts when
  /// not sampled; with sampling, scaled sample counts of values seen often enough that the count is reliable.
  std::vector<std::pair<Value, uint64_t>> most_common;
  /// VARCHAR columns: up to kPatternSampleValues of the sampled non-NULL values that are not most common (fewer
  /// when they are long: at most kPatternSampleBytes by their mean length), taken at equal steps through them in
  /// sorted order, each as often as that step meets it, so each stands for the same number of rows. LIKE is
  /// estimated by the share of them a pattern matches (selectivity.cpp): 128 histogram bounds gave a one-in-twenty
  /// word of part names 1 match for 7 (7x under).
  std::vector<std::string> pattern_sample;

  uint64_t non_null_rows() const { return rows - null_count; }
  double null_fraction() const { return rows == 0 ? 0.0 : static_cast<double>(null_count) / static_cast<double>(rows); }
  /// Rows covered by most_common.
  uint64_t most_common_rows() const;
};

/// Computes the statistics of one column from its parts (column c of every bucket of a table, in bucket order)
/// and the table's row sample (see sample_rows). Null count, min, max and the distinct count read every row; the
/// histogram and most-common values read the sampled rows only. Deterministic.
ColumnStatistics compute_column_statistics(std::string name, DataType type,
                                           const std::vector<const ColumnVector*>& parts, const RowSample& sample);

}  // namespace hindsight
