#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "planner/common/value.hpp"

namespace hindsight {

/// One histogram bucket: the non-NULL values v with lower <= v <= upper (both bounds occur in the data).
struct HistogramBucket {
  Value lower;
  Value upper;
  double count = 0;     ///< rows in the bucket (scaled to the whole table when built from a sample)
  double distinct = 0;  ///< distinct values seen in the bucket (exact without sampling, a lower bound with it)
};

/// Equi-depth histogram over the non-NULL values of one column: up to kMaxBuckets buckets in ascending order
/// (numbers by value, strings by bytes) holding about equal row counts. A run of equal values is never split,
/// so buckets do not overlap and a heavy value may make its bucket deeper than the others.
struct EquiDepthHistogram {
  static constexpr size_t kMaxBuckets = 64;

  std::vector<HistogramBucket> buckets;

  bool empty() const { return buckets.empty(); }
  /// Sum of the bucket counts (= non-NULL rows of the column).
  double total() const;
  /// "[lower, upper] count/distinct" per bucket, one per line (for debugging and tests).
  std::string to_string() const;
};

/// A bucket plan over sorted runs of equal values: runs [first_run, last_run] (inclusive) form one bucket.
struct HistogramCut {
  size_t first_run = 0;
  size_t last_run = 0;
};

/// Splits runs (counts of consecutive distinct values in ascending value order) into at most `max_buckets`
/// buckets of about equal total count without splitting a run. Deterministic.
std::vector<HistogramCut> equi_depth_cuts(const std::vector<uint64_t>& run_counts, size_t max_buckets);

}  // namespace hindsight
