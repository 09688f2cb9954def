#include "planner/exec/operators/project.hpp"

#include "planner/common/error.hpp"
#include "planner/expr/evaluator.hpp"

namespace hindsight {

ProjectOp::ProjectOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<ExprPtr> exprs)
    : ExecOperator("Project", ctx, worker), exprs_(std::move(exprs)) {
  const auto& in_types = child->output_types();
  source_.assign(exprs_.size(), -1);
  last_use_.assign(exprs_.size(), false);
  std::vector<int> last(in_types.size(), -1);
  for (size_t i = 0; i < exprs_.size(); ++i) {
    HS_ASSERT(exprs_[i] != nullptr, "ProjectOp with a null expression");
    output_types_.push_back(exprs_[i]->type);
    if (exprs_[i]->kind == ExprKind::ColumnRef) {
      int src = exprs_[i]->index;
      HS_ASSERT(src >= 0 && static_cast<size_t>(src) < in_types.size(), "projected column out of range");
      source_[i] = src;
      last[static_cast<size_t>(src)] = static_cast<int>(i);
    }
  }
  for (int i : last)
    if (i >= 0) last_use_[static_cast<size_t>(i)] = true;
  add_child(std::move(child));
}

bool ProjectOp::next_impl(Batch& out) {
  if (!pull(0, in_)) return false;
  out.columns.resize(exprs_.size());
  // Evaluate first: computed expressions read input columns that the moves below take away.
  for (size_t i = 0; i < exprs_.size(); ++i)
    if (source_[i] < 0) out.columns[i] = evaluate(*exprs_[i], in_);
  for (size_t i = 0; i < exprs_.size(); ++i) {
    if (source_[i] < 0 || last_use_[i]) continue;
    out.columns[i] = in_.columns[static_cast<size_t>(source_[i])];
  }
  for (size_t i = 0; i < exprs_.size(); ++i) {
    if (source_[i] < 0 || !last_use_[i]) continue;
    std::swap(out.columns[i], in_.columns[static_cast<size_t>(source_[i])]);
  }
  for (size_t i = 0; i < exprs_.size(); ++i) out.columns[i].type = exprs_[i]->type;
  out.rows = in_.rows;
  return true;
}

}  // namespace hindsight
