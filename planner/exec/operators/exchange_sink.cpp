#include "planner/exec/operators/exchange_sink.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/storage/bucketing.hpp"

namespace hindsight {

ExchangeSinkOp::ExchangeSinkOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child,
                               std::shared_ptr<ExchangeBuffer> buffer)
    : ExecOperator("ExchangeSink", ctx, worker), buffer_(std::move(buffer)) {
  HS_ASSERT(buffer_ != nullptr, "ExchangeSinkOp without a buffer");
  output_types_ = child->output_types();
  HS_ASSERT(output_types_.size() == buffer_->types().size(), "exchange sink layout differs from its buffer");
  for (size_t c = 0; c < output_types_.size(); ++c) {
    const DataType& have = output_types_[c];
    const DataType& want = buffer_->types()[c];
    // Consumers read values by the buffer's types: a different representation (or decimal scale) would be misread.
    HS_ASSERT(have.physical() == want.physical() &&
                  ((have.id != TypeId::Decimal && want.id != TypeId::Decimal) || have.scale == want.scale),
              fmt::format("exchange column {} is {} but the exchange carries {}", c, have.to_string(), want.to_string()));
  }
  add_child(std::move(child));
  spill_now_ = [this] { return spill_in_place(); };
  if (buffer_->kind() == ExchangeKind::Repartition && buffer_->consumers() > 1) {
    pending_.resize(static_cast<size_t>(buffer_->consumers()));
    selections_.resize(pending_.size());
    for (auto& p : pending_) reset_batch(p, buffer_->types());
  }
}

bool ExchangeSinkOp::next_impl(Batch& out) {
  Batch in;
  while (pull(0, in)) {
    switch (buffer_->kind()) {
      case ExchangeKind::Gather: push(0, std::move(in)); break;
      case ExchangeKind::Broadcast: push(-1, std::move(in)); break;
      case ExchangeKind::Repartition:
        if (pending_.empty()) push(0, std::move(in));
        else route(in);
        break;
    }
    in = Batch();
  }
  for (size_t c = 0; c < pending_.size(); ++c) flush(c);
  return false;
}

void ExchangeSinkOp::push(int consumer, Batch&& batch) {
  const ExchangeBuffer::Pushed s = buffer_->push(consumer, std::move(batch), label(), spill_now_);
  if (s.in_memory > 0) {
    pushed_live_ += s.in_memory;
    fail_early_if_over(pushed_live_);  // the buffer keeps this instance's rows until the consumers run
  }
  if (s.rows == 0 && !s.started) return;
  stats_.spilled_rows += s.rows;
  stats_.spilled_bytes += s.bytes;
  if (s.started) stats_.spills += 1;
}

void ExchangeSinkOp::route(Batch& in) {
  std::vector<const ColumnVector*> keys;
  keys.reserve(buffer_->keys().size());
  for (int k : buffer_->keys()) keys.push_back(&in.columns[static_cast<size_t>(k)]);
  row_hashes(keys, in.rows, hashes_);
  for (auto& s : selections_) s.clear();
  for (size_t r = 0; r < in.rows; ++r)
    selections_[static_cast<size_t>(buffer_->consumer_of(hashes_[r]))].push_back(static_cast<uint32_t>(r));
  for (size_t c = 0; c < pending_.size(); ++c) {
    if (selections_[c].empty()) continue;
    Batch& p = pending_[c];
    // Each row goes to one consumer and `in` is dropped afterwards: its strings change hands, uncopied.
    for (size_t col = 0; col < in.columns.size(); ++col)
      append_selected_moved(p.columns[col], in.columns[col], selections_[c]);
    p.rows += selections_[c].size();
    if (p.rows >= kBatchSize) flush(c);
  }
}

void ExchangeSinkOp::flush(size_t consumer) {
  Batch& p = pending_[consumer];
  if (p.rows == 0) return;
  push(static_cast<int>(consumer), std::move(p));
  p = Batch();
  reset_batch(p, buffer_->types());
}

}  // namespace hindsight
