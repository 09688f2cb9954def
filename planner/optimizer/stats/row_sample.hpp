#pragma once
#include <cstdint>
#include <vector>

#include "planner/storage/table.hpp"

namespace hindsight {

/// The rows of a table that feed histograms and most-common values. Either every row (`all`) or, per bucket of
/// the table, ascending row indices chosen by a seeded hash of the row's global position (Bernoulli sampling).
struct RowSample {
  bool all = true;
  std::vector<std::vector<uint32_t>> rows;  ///< rows[b]: sampled rows of bucket b (empty when `all`)
  uint64_t sampled_rows = 0;                ///< rows chosen (= the table's rows when `all`)
};

/// Every row when the table has at most `target_rows` rows, else a Bernoulli sample of about `target_rows` rows.
/// Deterministic: the same table, target and seed give the same sample.
RowSample sample_rows(const Table& table, uint64_t target_rows, uint64_t seed);

}  // namespace hindsight
