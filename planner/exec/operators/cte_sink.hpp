#pragma once
#include <memory>

#include "planner/exec/cte_buffer.hpp"
#include "planner/exec/exec_operator.hpp"

namespace hindsight {

/// Root of a materialized CTE's fragment instance: drains its child into the CTE's buffer.
class CteSinkOp : public ExecOperator {
 public:
  CteSinkOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::shared_ptr<CteBuffer> buffer);

 protected:
  bool next_impl(Batch& out) override;

 private:
  std::shared_ptr<CteBuffer> buffer_;
};

/// Reads a materialized CTE: instance w of W gets every W-th batch; `columns` picks and orders the
/// producer's columns.
class CteScanOp : public ExecOperator {
 public:
  CteScanOp(ExecContext* ctx, int worker, int instances, std::shared_ptr<CteBuffer> buffer, std::vector<int> columns);
  void open() override;

 protected:
  bool next_impl(Batch& out) override;

 private:
  std::shared_ptr<CteBuffer> buffer_;
  int instances_;
  std::vector<int> columns_;
  std::vector<std::shared_ptr<const Batch>> mine_;
  size_t next_ = 0;
};

}  // namespace hindsight
