#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "planner/catalog/table_def.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// A loaded table in columnar form, split into buckets per its distribution:
/// Hash tables put a row in bucket bucket_of(hash of distribution columns, buckets);
/// Random tables deal rows round-robin; Replicated tables have one bucket that every worker reads.
/// Worker w of W reads the buckets b with b % W == w (all of bucket 0 for Replicated).
struct Table {
  TableDef def;
  /// buckets[b][c] is column c of bucket b.
  std::vector<std::vector<ColumnVector>> buckets;
  uint64_t row_count = 0;
  /// Changes whenever the underlying data changes (hash of the source file's FileStamp and the schema).
  uint64_t data_version = 0;
};

using TablePtr = std::shared_ptr<const Table>;

}  // namespace hindsight
