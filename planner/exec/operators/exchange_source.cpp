#include "planner/exec/operators/exchange_source.hpp"

#include "planner/common/error.hpp"

namespace hindsight {

ExchangeSourceOp::ExchangeSourceOp(ExecContext* ctx, int worker, std::shared_ptr<ExchangeBuffer> buffer)
    : ExecOperator("ExchangeSource", ctx, worker), buffer_(std::move(buffer)) {
  HS_ASSERT(buffer_ != nullptr, "ExchangeSourceOp without a buffer");
  HS_ASSERT(worker >= 0 && worker < buffer_->consumers(), "exchange source worker is not a consumer of its buffer");
  output_types_ = buffer_->types();
}

bool ExchangeSourceOp::next_impl(Batch& out) { return buffer_->pop(worker_, out, label()); }

double ExchangeSourceOp::progress() const {
  const uint64_t total = buffer_->rows_for(worker_);
  if (exhausted_ || total == 0) return 1.0;
  return static_cast<double>(stats_.rows_out) / static_cast<double>(total);
}

}  // namespace hindsight
