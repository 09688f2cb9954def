#pragma once
#include <memory>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight {

/// Computes one output column per expression over the child's batch. A bare column reference moves (or, when
/// referenced more than once, copies) the input column without going through the evaluator.
class ProjectOp : public ExecOperator {
 public:
  ProjectOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<ExprPtr> exprs);

  /// One row out for each row in: the child's progress.
  double progress() const override { return exhausted_ ? 1.0 : children_[0]->progress(); }

 protected:
  bool next_impl(Batch& out) override;

 private:
  std::vector<ExprPtr> exprs_;
  /// Per output column: the input column it moves from (-1: evaluate), and whether it is the last reference.
  std::vector<int> source_;
  std::vector<bool> last_use_;
  Batch in_;
};

}  // namespace hindsight
