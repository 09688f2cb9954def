#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "planner/catalog/table_def.hpp"
#include "planner/storage/column_vector.hpp"
#include "planner/storage/load_guard.hpp"

namespace hindsight {

/// Where the columns of a table opened without its data come from (its binary cache, table_cache.hpp).
class ColumnSource {
 public:
  virtual ~ColumnSource() = default;
  /// Column `column` of every bucket, in bucket order. Charges `guard` (may be null) with what it allocates as it
  /// goes (LoadGuard::add). Throws IO_ERROR / DATA_ERROR, or what the guard throws.
  virtual std::vector<ColumnVector> read_column(size_t column, LoadGuard* guard) = 0;
};

/// A loaded table in columnar form, split into buckets per its distribution:
/// Hash tables put a row in bucket bucket_of(hash of distribution columns, buckets);
/// Random tables deal rows round-robin; Replicated tables have one bucket that every worker reads.
/// Worker w of W reads the buckets b with b % W == w (all of bucket 0 for Replicated).
///
/// A table opened from its binary cache holds no column at first (its row counts come from the cache's
/// header): load_columns() reads the columns a statement needs, once, for every statement of the process that
/// shares the table. The Table is the one owner of which of its columns are loaded. Read a column of `buckets`
/// only after load_columns() returned for it (that call is what makes the column's data visible to the thread).
struct Table {
  TableDef def;
  /// buckets[b][c] is column c of bucket b; a column not loaded yet is an empty ColumnVector of its type.
  /// Filled in by load_columns (hence mutable: the data a shared, otherwise immutable table reads on demand).
  mutable std::vector<std::vector<ColumnVector>> buckets;
  /// Rows per bucket when known without the columns (a table opened from its cache); empty: the buckets' columns
  /// tell (see rows_in_bucket).
  std::vector<uint64_t> bucket_rows;
  uint64_t row_count = 0;
  /// Changes whenever the underlying data changes (hash of the source file's FileStamp and the schema).
  uint64_t data_version = 0;

  /// Rows of bucket `b`.
  uint64_t rows_in_bucket(size_t b) const;

  /// Makes sure the table columns `columns` (indexes into def.columns) are in `buckets`: reads the missing ones
  /// from the table's ColumnSource, charging `guard` (the statement asking) for what it reads; columns already
  /// loaded are shared and not charged again. Thread-safe (concurrent callers for one table take turns; a column
  /// is read once). A failed read leaves the column unloaded (the next call retries). Throws what
  /// ColumnSource::read_column throws.
  void load_columns(const std::vector<int>& columns, LoadGuard* guard = nullptr) const;
  /// load_columns of every column.
  void load_all_columns(LoadGuard* guard = nullptr) const;
  /// Column `c` of every bucket, for a reader that needs it once (an analysis): `parts[b]` is the column of
  /// bucket b, the loaded one when the column is loaded, else a copy read from the source for the caller
  /// alone (charged to `guard`, not kept: `owner` holds it). Thread-safe; throws like load_columns.
  struct ColumnParts {
    std::vector<const ColumnVector*> parts;
    std::shared_ptr<const std::vector<ColumnVector>> owner;
  };
  ColumnParts column_parts(size_t c, LoadGuard* guard = nullptr) const;
  /// True when column `c` is in `buckets`.
  bool column_loaded(size_t c) const;
  /// How many of the table's columns are in `buckets`.
  size_t loaded_column_count() const;

  /// Makes this table load its columns from `source` on demand: every bucket gets an empty column of each type,
  /// and none counts as loaded. `bucket_rows` must be set.
  void set_column_source(std::shared_ptr<ColumnSource> source);

 private:
  struct Pending {
    std::mutex mu;
    std::shared_ptr<ColumnSource> source;
    std::vector<uint8_t> loaded;  ///< per column; guarded by mu
  };
  /// Null when every column is in `buckets` (a table parsed from CSV, or built in memory).
  std::unique_ptr<Pending> pending_;
};

using TablePtr = std::shared_ptr<const Table>;

}  // namespace hindsight
