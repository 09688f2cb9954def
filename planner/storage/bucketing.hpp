#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "planner/catalog/table_def.hpp"
#include "planner/common/hashing.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

// The bucketing rule shared by storage (loading a Hash table) and the executor (hash repartition exchanges):
// row hash = fold over the key columns in order, h = 0; h = hash_combine(h, value_hash), with value_hash from
// the functions below; bucket = bucket_of(h, buckets). Keep every caller on these functions so both sides agree.

/// Hash of an int64-backed value (BOOLEAN, INTEGER, BIGINT, DATE, DECIMAL).
inline uint64_t value_hash_int(int64_t v) { return hash_int64(v); }
/// Hash of a DOUBLE: its bit pattern, with -0.0 normalised to 0.0 so that equal values hash equally.
inline uint64_t value_hash_double(double d) {
  if (d == 0.0) d = 0.0;
  int64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return hash_int64(bits);
}
/// Hash of a VARCHAR.
inline uint64_t value_hash_string(std::string_view s) { return hash_bytes(s); }

/// Row hashes of `rows` rows over `key_cols` (in order); out is resized to `rows`.
/// With no key columns every hash is 0.
void row_hashes(const std::vector<const ColumnVector*>& key_cols, size_t rows, std::vector<uint64_t>& out);

/// Indexes of `def`'s distribution columns in `def.columns` (empty unless Hash). Throws INTERNAL if one is missing.
std::vector<int> distribution_column_indexes(const TableDef& def);

/// Bucket of each of `rows` rows whose columns (all of `def`'s, in order) are `columns`: Hash tables by the rule
/// above, Random tables round-robin by absolute row number (`first_row` is the number of the first row here),
/// Replicated tables bucket 0. out is resized to `rows`.
void assign_buckets(const TableDef& def, const std::vector<ColumnVector>& columns, size_t rows, uint64_t first_row,
                    std::vector<uint32_t>& out);

}  // namespace hindsight
