#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/expr/expr.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

/// Reads this worker's buckets of a table (buckets b with b % workers == worker; the single bucket of a
/// Replicated table on every worker) in slices of kBatchSize rows. The filter is
/// evaluated on the table's columns in place; only the rows it keeps are copied into the output.
/// Output: the projected table columns, in `columns` order, the first `produced` of them (all by default; the
/// others are read by the filter only). `filter` (over the whole projected layout, may be null) keeps rows where
/// it is TRUE; `limit` >= 0 stops this instance after that many output rows.
class TableScanOp : public ExecOperator {
 public:
  TableScanOp(ExecContext* ctx, int worker, TablePtr table, std::vector<int> columns, ExprPtr filter,
              int64_t limit = -1, size_t produced = SIZE_MAX);

  /// Rows read of the rows of this worker's buckets, without a filter or a limit (unknown with one).
  double progress() const override {
    if (exhausted_ || stats_.rows_to_read == 0) return 1.0;
    if (filter_ || limit_ >= 0) return -1.0;
    return static_cast<double>(stats_.rows_read) / static_cast<double>(stats_.rows_to_read);
  }

 protected:
  bool next_impl(Batch& out) override;

 private:
  TablePtr table_;
  std::vector<int> columns_;  ///< read: the outputs first, then the columns only the filter reads
  size_t produced_columns_;   ///< outputs: the first produced_columns_ of columns_
  ExprPtr filter_;
  int64_t limit_;
  std::vector<size_t> buckets_;  ///< the buckets this worker reads
  size_t bucket_pos_ = 0;        ///< index into buckets_
  size_t row_pos_ = 0;           ///< next row within the current bucket
  int64_t produced_ = 0;
  std::vector<const ColumnVector*> view_;  ///< the current bucket's projected columns, read in place by the filter
  std::vector<uint32_t> sel_;
};

}  // namespace hindsight
