#pragma once
#include <memory>
#include <vector>

#include "planner/exec/exec_operator.hpp"

namespace hindsight {

/// Concatenates its children, one after the other. All children have the same layout, which is the output.
class UnionAllOp : public ExecOperator {
 public:
  UnionAllOp(ExecContext* ctx, int worker, std::vector<std::unique_ptr<ExecOperator>> children);

 protected:
  bool next_impl(Batch& out) override;

 private:
  size_t current_ = 0;
};

}  // namespace hindsight
