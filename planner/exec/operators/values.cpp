#include "planner/exec/operators/values.hpp"

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"

namespace hindsight {

ValuesOp::ValuesOp(ExecContext* ctx, int worker, std::vector<Batch> batches)
    : ExecOperator("Values", ctx, worker), batches_(std::move(batches)) {
  if (!batches_.empty()) output_types_ = batch_types(batches_[0]);
  for (auto& b : batches_) HS_ASSERT(batch_types(b) == output_types_, "ValuesOp batches differ in layout");
  if (worker != 0) batches_.clear();
}

bool ValuesOp::next_impl(Batch& out) {
  while (pos_ < batches_.size()) {
    Batch& b = batches_[pos_++];
    if (b.rows == 0) continue;
    out = std::move(b);
    return true;
  }
  return false;
}

}  // namespace hindsight
