#pragma once
#include <memory>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight {

/// Keeps the rows of its child for which `predicate` is TRUE. Output: the child's layout.
class FilterOp : public ExecOperator {
 public:
  FilterOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, ExprPtr predicate);

 protected:
  bool next_impl(Batch& out) override;

 private:
  ExprPtr predicate_;
  Batch in_;
  std::vector<uint32_t> sel_;
};

}  // namespace hindsight
