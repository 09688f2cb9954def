#pragma once
#include <memory>
#include <vector>

#include "planner/exec/exchange.hpp"
#include "planner/exec/exec_operator.hpp"

namespace hindsight {

/// Root of a producing fragment instance: drains its child into an ExchangeBuffer (Repartition: routes each row
/// by the storage row hash of the buffer's key columns, accumulating about kBatchSize rows per consumer before
/// handing a batch over). Produces no rows itself; next() returns false once the child is drained.
/// output_types() reports the layout that flows through it. What the buffer writes to spill files for its pushes
/// shows in this instance's stats (spilled rows/bytes; spills: the consumer queues whose spilling it started).
class ExchangeSinkOp : public ExecOperator {
 public:
  ExchangeSinkOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child,
                 std::shared_ptr<ExchangeBuffer> buffer);

  const ExchangeBuffer& buffer() const { return *buffer_; }

 protected:
  bool next_impl(Batch& out) override;

 private:
  void push(int consumer, Batch&& batch);
  void route(Batch& in);
  void flush(size_t consumer);

  std::shared_ptr<ExchangeBuffer> buffer_;
  std::function<bool()> spill_now_;  ///< asked by the buffer when a push is refused with spilling off
  std::vector<Batch> pending_;  ///< Repartition: rows gathered per consumer
  std::vector<std::vector<uint32_t>> selections_;
  std::vector<uint64_t> hashes_;
  int64_t pushed_live_ = 0;  ///< live bytes this instance has put in the buffer's memory
};

}  // namespace hindsight
