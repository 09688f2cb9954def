#pragma once
#include <memory>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/sort_key.hpp"

namespace hindsight {

/// Materialises its child (memory charged), sorts a row permutation stably by `keys` and emits the rows in
/// order in batches of kBatchSize. Output: the child's layout.
class SortOp : public ExecOperator {
 public:
  SortOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<SortKey> keys);

 protected:
  bool next_impl(Batch& out) override;

 private:
  std::vector<SortKey> keys_;
  std::vector<ColumnVector> rows_;  ///< the materialised input, one vector per column
  size_t row_count_ = 0;
  std::vector<uint32_t> perm_;
  std::vector<uint32_t> slice_;
  size_t emit_pos_ = 0;
  bool sorted_ = false;
};

}  // namespace hindsight
