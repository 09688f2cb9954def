#include "planner/exec/operators/filter.hpp"

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/expr/evaluator.hpp"

namespace hindsight {

FilterOp::FilterOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, ExprPtr predicate)
    : ExecOperator("Filter", ctx, worker), predicate_(std::move(predicate)) {
  HS_ASSERT(predicate_ != nullptr, "FilterOp without a predicate");
  output_types_ = child->output_types();
  add_child(std::move(child));
}

bool FilterOp::next_impl(Batch& out) {
  while (pull(0, in_)) {
    evaluate_filter(*predicate_, in_, sel_);
    if (sel_.empty()) continue;
    if (sel_.size() == in_.rows) std::swap(out, in_);
    else gather_batch_moved(in_, sel_, out);  // in_ is refilled by the next pull
    return true;
  }
  return false;
}

}  // namespace hindsight
