#include "planner/exec/operators/top_n.hpp"

#include <algorithm>
#include <numeric>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/exec/row_comparator.hpp"

namespace hindsight {

TopNOp::TopNOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<SortKey> keys,
               int64_t limit, int64_t offset)
    : ExecOperator("TopN", ctx, worker),
      keys_(std::move(keys)),
      keep_(static_cast<size_t>(std::max<int64_t>(limit, 0) + std::max<int64_t>(offset, 0))),
      offset_(static_cast<size_t>(std::max<int64_t>(offset, 0))) {
  HS_ASSERT(limit >= 0, "TopNOp needs a limit");
  output_types_ = child->output_types();
  for (auto& k : keys_)
    HS_ASSERT(k.column >= 0 && static_cast<size_t>(k.column) < output_types_.size(), "sort key out of range");
  rows_.resize(output_types_.size());
  for (size_t c = 0; c < rows_.size(); ++c) rows_[c].type = output_types_[c];
  add_child(std::move(child));
}

void TopNOp::compact() {
  perm_.resize(row_count_);
  std::iota(perm_.begin(), perm_.end(), 0u);
  if (row_count_ > keep_) {
    RowComparator cmp(rows_, keys_);
    // The row index breaks ties: the buffer holds rows in arrival order (survivors first, in order).
    std::partial_sort(perm_.begin(), perm_.begin() + static_cast<std::ptrdiff_t>(keep_), perm_.end(),
                      [&](uint32_t a, uint32_t b) {
                        int c = cmp.compare(a, b);
                        return c != 0 ? c < 0 : a < b;
                      });
    perm_.resize(keep_);
  } else {
    const auto scratch = static_cast<int64_t>(sort_scratch_bytes(row_count_));
    charge(scratch);
    sort_rows(rows_, keys_, perm_);
    release(scratch);
  }
  std::vector<ColumnVector> kept(rows_.size());
  for (size_t c = 0; c < rows_.size(); ++c) {
    kept[c].type = rows_[c].type;
    kept[c].reserve(perm_.size());
    kept[c].append_selected(rows_[c], perm_);
  }
  rows_ = std::move(kept);
  row_count_ = perm_.size();
  int64_t bytes = 0;
  for (auto& c : rows_) bytes += static_cast<int64_t>(c.byte_size());
  if (bytes < charged_) release(charged_ - bytes);
  else charge(bytes - charged_);
  charged_ = bytes;
}

bool TopNOp::next_impl(Batch& out) {
  if (!done_input_) {
    Batch in;
    const size_t threshold = std::max(keep_, kBatchSize) * 2;
    while (keep_ > 0 && pull(0, in)) {
      int64_t bytes = static_cast<int64_t>(in.byte_size());
      charge(bytes);
      charged_ += bytes;
      for (size_t c = 0; c < rows_.size(); ++c) append_moved(rows_[c], std::move(in.columns[c]));
      row_count_ += in.rows;
      if (row_count_ >= threshold) compact();
    }
    compact();
    done_input_ = true;
    emit_pos_ = offset_;
  }
  if (emit_pos_ >= row_count_) {
    rows_.clear();
    release(charged_);
    charged_ = 0;
    return false;
  }
  size_t end = std::min(row_count_, emit_pos_ + kBatchSize);
  reset_batch(out, output_types_);
  for (size_t c = 0; c < rows_.size(); ++c) append_range(out.columns[c], rows_[c], emit_pos_, end);
  out.rows = end - emit_pos_;
  emit_pos_ = end;
  return true;
}

}  // namespace hindsight
