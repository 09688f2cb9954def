#include "planner/exec/operators/sort.hpp"

#include <algorithm>
#include <numeric>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/exec/row_comparator.hpp"

namespace hindsight {

SortOp::SortOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<SortKey> keys)
    : ExecOperator("Sort", ctx, worker), keys_(std::move(keys)) {
  output_types_ = child->output_types();
  for (auto& k : keys_)
    HS_ASSERT(k.column >= 0 && static_cast<size_t>(k.column) < output_types_.size(), "sort key out of range");
  rows_.resize(output_types_.size());
  for (size_t c = 0; c < rows_.size(); ++c) rows_[c].type = output_types_[c];
  add_child(std::move(child));
}

bool SortOp::next_impl(Batch& out) {
  if (!sorted_) {
    Batch in;
    int64_t live = 0;
    while (pull(0, in)) {
      row_count_ += in.rows;
      live += static_cast<int64_t>(in.byte_size());
      charge(append_batch_moved(rows_, std::move(in)), live);
    }
    charge(static_cast<int64_t>(row_count_ * sizeof(uint32_t)));
    perm_.resize(row_count_);
    std::iota(perm_.begin(), perm_.end(), 0u);
    const auto scratch = static_cast<int64_t>(sort_scratch_bytes(row_count_));
    charge(scratch);  // the sort's entries, freed when it returns
    sort_rows(rows_, keys_, perm_);
    release(scratch);
    sorted_ = true;
  }
  if (emit_pos_ >= row_count_) {
    rows_.clear();
    perm_ = {};
    release(held_memory_);
    return false;
  }
  size_t end = std::min(row_count_, emit_pos_ + kBatchSize);
  slice_.assign(perm_.begin() + static_cast<std::ptrdiff_t>(emit_pos_), perm_.begin() + static_cast<std::ptrdiff_t>(end));
  reset_batch(out, output_types_);
  append_selected_columns(rows_, slice_, out.columns, 0);
  out.rows = end - emit_pos_;
  emit_pos_ = end;
  return true;
}

}  // namespace hindsight
