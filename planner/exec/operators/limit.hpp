#pragma once
#include <cstdint>
#include <memory>

#include "planner/exec/exec_operator.hpp"

namespace hindsight {

/// Skips `offset` rows, then passes at most `limit` rows (limit < 0: no limit) and stops pulling its child once
/// satisfied — the child's stats then stay incomplete (its counts are lower bounds). Output: the child's layout.
class LimitOp : public ExecOperator {
 public:
  LimitOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, int64_t limit, int64_t offset = 0);

 protected:
  bool next_impl(Batch& out) override;

 private:
  int64_t limit_;
  int64_t to_skip_;
  int64_t produced_ = 0;
  Batch in_;
};

}  // namespace hindsight
