#include "planner/storage/bucketing.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "planner/common/error.hpp"

namespace hindsight {

void row_hashes(const std::vector<const ColumnVector*>& key_cols, size_t rows, std::vector<uint64_t>& out) {
  out.assign(rows, 0);
  for (const ColumnVector* col : key_cols) {
    HS_ASSERT(col->size() >= rows, "row_hashes: key column shorter than the row count");
    const uint8_t* nulls = col->has_nulls() ? col->nulls.data() : nullptr;
    switch (col->type.physical()) {
      case PhysicalKind::Int64: {
        const int64_t* v = col->ints.data();
        for (size_t r = 0; r < rows; ++r)
          out[r] = hash_combine(out[r], nulls && nulls[r] ? kNullHash : value_hash_int(v[r]));
        break;
      }
      case PhysicalKind::Double: {
        const double* v = col->dbls.data();
        for (size_t r = 0; r < rows; ++r)
          out[r] = hash_combine(out[r], nulls && nulls[r] ? kNullHash : value_hash_double(v[r]));
        break;
      }
      case PhysicalKind::String: {
        const std::string* v = col->strs.data();
        for (size_t r = 0; r < rows; ++r)
          out[r] = hash_combine(out[r], nulls && nulls[r] ? kNullHash : value_hash_string(v[r]));
        break;
      }
    }
  }
}

std::vector<int> distribution_column_indexes(const TableDef& def) {
  std::vector<int> idx;
  if (def.distribution != DistributionKind::Hash) return idx;
  for (const auto& name : def.distribution_columns) {
    int i = def.column_index(name);
    HS_ASSERT(i >= 0, fmt::format("distribution column '{}' not in table '{}'", name, def.name));
    idx.push_back(i);
  }
  return idx;
}

void assign_buckets(const TableDef& def, const std::vector<ColumnVector>& columns, size_t rows, uint64_t first_row,
                    std::vector<uint32_t>& out) {
  out.resize(rows);
  int buckets = def.distribution == DistributionKind::Replicated ? 1 : std::max(def.buckets, 1);
  if (def.distribution == DistributionKind::Replicated || buckets == 1) {
    std::fill(out.begin(), out.end(), 0u);
    return;
  }
  if (def.distribution == DistributionKind::Random) {
    for (size_t r = 0; r < rows; ++r) out[r] = static_cast<uint32_t>((first_row + r) % static_cast<uint64_t>(buckets));
    return;
  }
  std::vector<const ColumnVector*> keys;
  for (int i : distribution_column_indexes(def)) keys.push_back(&columns[static_cast<size_t>(i)]);
  std::vector<uint64_t> hashes;
  row_hashes(keys, rows, hashes);
  for (size_t r = 0; r < rows; ++r) out[r] = static_cast<uint32_t>(bucket_of(hashes[r], buckets));
}

}  // namespace hindsight
