#include "planner/optimizer/stats/row_sample.hpp"

#include "planner/common/hashing.hpp"

namespace hindsight {

RowSample sample_rows(const Table& table, uint64_t target_rows, uint64_t seed) {
  RowSample sample;
  uint64_t total = 0;
  for (size_t b = 0; b < table.buckets.size(); ++b) total += table.rows_in_bucket(b);
  sample.sampled_rows = total;
  if (total <= target_rows || table.def.columns.empty()) return sample;

  sample.all = false;
  sample.sampled_rows = 0;
  // Keep a row when its hash, as a fraction of 2^64, falls below target/total.
  const auto threshold = static_cast<uint64_t>(static_cast<long double>(target_rows) / static_cast<long double>(total) *
                                               18446744073709551615.0L);
  const uint64_t salt = hash_int64(static_cast<int64_t>(seed));
  sample.rows.resize(table.buckets.size());
  uint64_t global = 0;
  for (size_t b = 0; b < table.buckets.size(); ++b) {
    const auto n = static_cast<size_t>(table.rows_in_bucket(b));
    auto& chosen = sample.rows[b];
    chosen.reserve(static_cast<size_t>(static_cast<double>(n) * target_rows / total * 1.1) + 16);
    for (size_t r = 0; r < n; ++r, ++global) {
      if (hash_int64(static_cast<int64_t>(global ^ salt)) < threshold) chosen.push_back(static_cast<uint32_t>(r));
    }
    sample.sampled_rows += chosen.size();
  }
  return sample;
}

}  // namespace hindsight
