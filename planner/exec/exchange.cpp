#include "planner/exec/exchange.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"

namespace hindsight {

ExchangeBuffer::ExchangeBuffer(ExchangeKind kind, int consumers, std::vector<DataType> types, MemoryTracker* memory,
                               std::vector<int> keys, int buckets)
    : kind_(kind),
      consumers_(consumers),
      types_(std::move(types)),
      memory_(memory),
      keys_(std::move(keys)),
      buckets_(buckets > 0 ? buckets : consumers) {
  HS_ASSERT(consumers_ >= 1, "exchange without consumers");
  HS_ASSERT(kind_ != ExchangeKind::Gather || consumers_ == 1, "a gather exchange has one consumer");
  HS_ASSERT(kind_ != ExchangeKind::Repartition || !keys_.empty(), "repartition exchange without key columns");
  for (int k : keys_) HS_ASSERT(k >= 0 && static_cast<size_t>(k) < types_.size(), "exchange key out of range");
  parts_.resize(static_cast<size_t>(consumers_));
  read_pos_.assign(static_cast<size_t>(consumers_), 0);
}

ExchangeBuffer::~ExchangeBuffer() {
  if (memory_ && charged_ > 0) memory_->release(charged_);
}

int64_t ExchangeBuffer::buffered_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return charged_;
}

void ExchangeBuffer::push(int consumer, Batch batch, const std::string& producer_label) {
  if (batch.rows == 0) return;
  const int64_t bytes = static_cast<int64_t>(batch.byte_size());
  const int copies = kind_ == ExchangeKind::Broadcast ? consumers_ : 1;
  if (memory_) memory_->charge(bytes * copies, producer_label);
  rows_moved_.fetch_add(batch.rows * static_cast<uint64_t>(copies), std::memory_order_relaxed);
  bytes_moved_.fetch_add(static_cast<uint64_t>(bytes * copies), std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mu_);
  charged_ += bytes * copies;
  if (kind_ == ExchangeKind::Broadcast) {
    shared_.push_back({std::make_shared<const Batch>(std::move(batch)), bytes, consumers_});
    return;
  }
  HS_ASSERT(consumer >= 0 && consumer < consumers_, fmt::format("exchange consumer {} out of range", consumer));
  parts_[static_cast<size_t>(consumer)].push_back({std::move(batch), bytes});
}

bool ExchangeBuffer::pop(int consumer, Batch& out) {
  HS_ASSERT(consumer >= 0 && consumer < consumers_, fmt::format("exchange consumer {} out of range", consumer));
  int64_t freed = 0;
  std::shared_ptr<const Batch> shared;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (kind_ == ExchangeKind::Broadcast) {
      size_t& pos = read_pos_[static_cast<size_t>(consumer)];
      if (pos >= shared_.size()) return false;
      SharedEntry& e = shared_[pos++];
      shared = e.batch;
      if (--e.readers_left == 0) e.batch.reset();
      freed = e.bytes;
    } else {
      auto& q = parts_[static_cast<size_t>(consumer)];
      if (q.empty()) return false;
      out = std::move(q.front().batch);
      freed = q.front().bytes;
      q.pop_front();
    }
    charged_ -= freed;
  }
  // Copy outside the lock (concurrent reads of one batch are safe); the last reference frees it.
  if (shared) out = *shared;
  if (memory_) memory_->release(freed);
  return true;
}

}  // namespace hindsight
