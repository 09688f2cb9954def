#include "planner/exec/operators/table_scan.hpp"

#include <algorithm>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/expr/evaluator.hpp"

namespace hindsight {

TableScanOp::TableScanOp(ExecContext* ctx, int worker, TablePtr table, std::vector<int> columns, ExprPtr filter,
                         int64_t limit, size_t produced)
    : ExecOperator("TableScan", ctx, worker),
      table_(std::move(table)),
      columns_(std::move(columns)),
      produced_columns_(std::min(produced, columns_.size())),
      filter_(std::move(filter)),
      limit_(limit) {
  HS_ASSERT(table_ != nullptr, "TableScanOp without a table");
  HS_ASSERT(filter_ != nullptr || produced_columns_ == columns_.size(), "a scan reads columns only for its filter");
  for (int c : columns_)
    HS_ASSERT(c >= 0 && static_cast<size_t>(c) < table_->def.columns.size(), "scan column out of range");
  for (size_t i = 0; i < produced_columns_; ++i)
    output_types_.push_back(table_->def.columns[static_cast<size_t>(columns_[i])].type);
  // The planner loaded them (charged to the statement); a plan built some other way loads them here.
  table_->load_columns(columns_);
  const size_t workers = static_cast<size_t>(std::max(ctx->workers, 1));
  if (table_->def.distribution == DistributionKind::Replicated) {
    if (!table_->buckets.empty()) buckets_.push_back(0);
  } else {
    for (size_t b = static_cast<size_t>(worker); b < table_->buckets.size(); b += workers) buckets_.push_back(b);
  }
  for (size_t b : buckets_) stats_.rows_to_read += static_cast<uint64_t>(table_->rows_in_bucket(b));
}

bool TableScanOp::next_impl(Batch& out) {
  while (true) {
    if (limit_ >= 0 && produced_ >= limit_) return false;
    if (bucket_pos_ >= buckets_.size()) return false;
    const auto& bucket = table_->buckets[buckets_[bucket_pos_]];
    const auto bucket_rows = static_cast<size_t>(table_->rows_in_bucket(buckets_[bucket_pos_]));
    if (row_pos_ >= bucket_rows) {
      ++bucket_pos_;
      row_pos_ = 0;
      continue;
    }
    size_t end = std::min(bucket_rows, row_pos_ + kBatchSize);
    if (!filter_ && limit_ >= 0) end = std::min(end, row_pos_ + static_cast<size_t>(limit_ - produced_));
    const size_t begin = row_pos_;
    row_pos_ = end;
    stats_.rows_read += end - begin;
    reset_batch(out, output_types_);
    if (filter_) {
      // The filter reads the table's columns in place: only the rows it keeps are copied.
      view_.resize(columns_.size());
      for (size_t c = 0; c < columns_.size(); ++c) view_[c] = &bucket[static_cast<size_t>(columns_[c])];
      evaluate_filter(*filter_, view_, begin, end, sel_);
      if (sel_.empty()) continue;
      if (limit_ >= 0 && static_cast<int64_t>(sel_.size()) > limit_ - produced_)
        sel_.resize(static_cast<size_t>(limit_ - produced_));
      if (sel_.size() == end - begin) {
        for (size_t c = 0; c < produced_columns_; ++c) append_range(out.columns[c], *view_[c], begin, end);
      } else {
        for (size_t c = 0; c < produced_columns_; ++c) out.columns[c].append_selected(*view_[c], sel_);
      }
      out.rows = sel_.size();
    } else {
      for (size_t c = 0; c < columns_.size(); ++c)
        append_range(out.columns[c], bucket[static_cast<size_t>(columns_[c])], begin, end);
      out.rows = end - begin;
    }
    produced_ += static_cast<int64_t>(out.rows);
    return true;
  }
}

}  // namespace hindsight
