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
  if (memory_ && charged_ > 0) memory_->release(charged_, charged_live_);
}

namespace {

size_t batch_allocated_bytes(const Batch& b) {
  size_t bytes = 0;
  for (const auto& c : b.columns) bytes += c.allocated_bytes();
  return bytes;
}

}  // namespace

int64_t ExchangeBuffer::buffered_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return charged_;
}

void ExchangeBuffer::push(int consumer, Batch batch, const std::string& producer_label) {
  if (batch.rows == 0) return;
  const int64_t live = static_cast<int64_t>(batch.byte_size());
  int64_t bytes = static_cast<int64_t>(batch_allocated_bytes(batch));
  if (bytes > 2 * live) {
    // Mostly empty buffers (kept with the capacity of a larger batch): keep a tight copy instead.
    for (auto& c : batch.columns) {
      c.ints.shrink_to_fit();
      c.dbls.shrink_to_fit();
      c.strs.shrink_to_fit();
      c.nulls.shrink_to_fit();
    }
    bytes = static_cast<int64_t>(batch_allocated_bytes(batch));
  }
  const int copies = kind_ == ExchangeKind::Broadcast ? consumers_ : 1;
  if (memory_) memory_->charge(bytes * copies, producer_label, live * copies);
  rows_moved_.fetch_add(batch.rows * static_cast<uint64_t>(copies), std::memory_order_relaxed);
  bytes_moved_.fetch_add(static_cast<uint64_t>(live * copies), std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mu_);
  charged_ += bytes * copies;
  charged_live_ += live * copies;
  if (kind_ == ExchangeKind::Broadcast) {
    shared_.push_back({std::make_shared<const Batch>(std::move(batch)), bytes, live, consumers_});
    return;
  }
  HS_ASSERT(consumer >= 0 && consumer < consumers_, fmt::format("exchange consumer {} out of range", consumer));
  parts_[static_cast<size_t>(consumer)].push_back({std::move(batch), bytes, live});
}

bool ExchangeBuffer::pop(int consumer, Batch& out) {
  HS_ASSERT(consumer >= 0 && consumer < consumers_, fmt::format("exchange consumer {} out of range", consumer));
  int64_t freed = 0, freed_live = 0;
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
      freed_live = e.live;
    } else {
      auto& q = parts_[static_cast<size_t>(consumer)];
      if (q.empty()) return false;
      out = std::move(q.front().batch);
      freed = q.front().bytes;
      freed_live = q.front().live;
      q.pop_front();
    }
    charged_ -= freed;
    charged_live_ -= freed_live;
  }
  // Copy outside the lock (concurrent reads of one batch are safe); the last reference frees it.
  if (shared) out = *shared;
  if (memory_) memory_->release(freed, freed_live);
  return true;
}

}  // namespace hindsight
