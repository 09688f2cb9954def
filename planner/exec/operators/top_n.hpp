#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/sort_key.hpp"

namespace hindsight {

/// ORDER BY ... LIMIT limit OFFSET offset without a full sort: keeps only the best limit + offset rows seen so far
/// (buffered, and cut back to that many whenever the buffer doubles), then emits rows offset.. in order.
/// Ties keep input order, exactly as SortOp followed by LimitOp. Output: the child's layout.
class TopNOp : public ExecOperator {
 public:
  TopNOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<SortKey> keys, int64_t limit,
         int64_t offset = 0);

 protected:
  bool next_impl(Batch& out) override;

 private:
  /// Sorts the buffer and keeps its first keep_ rows, in order.
  void compact();

  std::vector<SortKey> keys_;
  size_t keep_;
  size_t offset_;
  std::vector<ColumnVector> rows_;
  size_t row_count_ = 0;
  int64_t charged_ = 0;
  std::vector<uint32_t> perm_;
  bool done_input_ = false;
  size_t emit_pos_ = 0;
};

}  // namespace hindsight
