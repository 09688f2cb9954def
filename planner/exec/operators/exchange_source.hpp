#pragma once
#include <memory>

#include "planner/exec/exchange.hpp"
#include "planner/exec/exec_operator.hpp"

namespace hindsight {

/// Leaf of a consuming fragment instance: reads this worker's share of an ExchangeBuffer (Gather: worker 0 gets
/// everything; Broadcast: every worker gets all rows; Repartition: the worker's partition).
/// Output: the buffer's layout.
class ExchangeSourceOp : public ExecOperator {
 public:
  ExchangeSourceOp(ExecContext* ctx, int worker, std::shared_ptr<ExchangeBuffer> buffer);

  const ExchangeBuffer& buffer() const { return *buffer_; }

  /// Rows taken of the rows the buffer holds for this worker (its producers have finished).
  double progress() const override;

 protected:
  bool next_impl(Batch& out) override;

 private:
  std::shared_ptr<ExchangeBuffer> buffer_;
};

}  // namespace hindsight
