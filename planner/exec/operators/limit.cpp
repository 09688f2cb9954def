#include "planner/exec/operators/limit.hpp"

#include <algorithm>

#include "planner/exec/batch_gather.hpp"

namespace hindsight {

LimitOp::LimitOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, int64_t limit, int64_t offset)
    : ExecOperator("Limit", ctx, worker), limit_(limit), to_skip_(std::max<int64_t>(offset, 0)) {
  output_types_ = child->output_types();
  add_child(std::move(child));
}

bool LimitOp::next_impl(Batch& out) {
  while (limit_ < 0 || produced_ < limit_) {
    if (!pull(0, in_)) return false;
    size_t begin = 0;
    if (to_skip_ > 0) {
      size_t skip = static_cast<size_t>(std::min<int64_t>(to_skip_, static_cast<int64_t>(in_.rows)));
      to_skip_ -= static_cast<int64_t>(skip);
      begin = skip;
    }
    size_t end = in_.rows;
    if (limit_ >= 0) end = std::min(end, begin + static_cast<size_t>(limit_ - produced_));
    if (end <= begin) continue;
    if (begin == 0 && end == in_.rows) {
      std::swap(out, in_);
    } else {
      reset_batch(out, output_types_);
      for (size_t c = 0; c < out.columns.size(); ++c) append_range(out.columns[c], in_.columns[c], begin, end);
      out.rows = end - begin;
    }
    produced_ += static_cast<int64_t>(out.rows);
    return true;
  }
  return false;
}

}  // namespace hindsight
