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
  rows_for_.assign(static_cast<size_t>(consumers_), 0);
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

void ExchangeBuffer::enable_spill(std::string directory) {
  if (!memory_) return;  // nothing is charged, so nothing is ever refused
  std::lock_guard<std::mutex> lock(mu_);
  if (spill_.load(std::memory_order_relaxed)) return;
  spill_directory_ = std::move(directory);
  files_.resize(kind_ == ExchangeKind::Broadcast ? 1 : static_cast<size_t>(consumers_));
  readers_.resize(static_cast<size_t>(consumers_));
  file_done_.assign(static_cast<size_t>(consumers_), 0);
  spill_.store(true, std::memory_order_release);
}

uint64_t ExchangeBuffer::spilled_rows() const {
  std::lock_guard<std::mutex> lock(mu_);
  return spilled_rows_;
}

uint64_t ExchangeBuffer::spilled_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return spilled_bytes_;
}

void ExchangeBuffer::enqueue_locked(int consumer, Batch&& batch, int64_t bytes, int64_t live) {
  const int copies = kind_ == ExchangeKind::Broadcast ? consumers_ : 1;
  charged_ += bytes * copies;
  charged_live_ += live * copies;
  if (kind_ == ExchangeKind::Broadcast) {
    shared_.push_back({std::make_shared<const Batch>(std::move(batch)), bytes, live, consumers_});
    return;
  }
  parts_[static_cast<size_t>(consumer)].push_back({std::move(batch), bytes, live});
}

ExchangeBuffer::Pushed ExchangeBuffer::push(int consumer, Batch batch, const std::string& producer_label,
                                             const std::function<bool()>& spill_now) {
  if (batch.rows == 0) return {};
  if (kind_ != ExchangeKind::Broadcast)
    HS_ASSERT(consumer >= 0 && consumer < consumers_, fmt::format("exchange consumer {} out of range", consumer));
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
  auto count_moved = [&] {
    rows_moved_.fetch_add(batch.rows * static_cast<uint64_t>(copies), std::memory_order_relaxed);
    bytes_moved_.fetch_add(static_cast<uint64_t>(live * copies), std::memory_order_relaxed);
  };
  const size_t f = kind_ == ExchangeKind::Broadcast ? 0 : static_cast<size_t>(consumer);
  Pushed out;
  bool spilling = memory_ && spill_.load(std::memory_order_acquire);
  // Refused with spilling off: spill_now() may turn spilling on in place (enable_spill first), or the charge
  // throws MEMORY_LIMIT_EXCEEDED (unless memory was freed in between).
  if (memory_ && !spilling && !memory_->try_charge(bytes * copies, live * copies)) {
    if (spill_now && spill_now() && spill_.load(std::memory_order_acquire)) spilling = true;
    else memory_->charge(bytes * copies, producer_label, live * copies);
  }
  // Under mu_: the batch goes to the consumer's spill file, after what is in it.
  auto append_to_file = [&] {
    HS_ASSERT(!reading_, "exchange: a push to a spill file after its consumers began to read");
    const uint64_t before = files_[f]->bytes();
    files_[f]->append(batch);
    count_moved();
    out.rows += batch.rows;
    out.bytes += files_[f]->bytes() - before;
    spilled_rows_ += out.rows;
    spilled_bytes_ += out.bytes;
    return out;
  };
  if (!spilling) {
    std::lock_guard<std::mutex> lock(mu_);
    rows_for_[f] += batch.rows;
    if (spill_.load(std::memory_order_relaxed) && files_[f]) {
      // Spilling turned on in place while this push was charged, and another push started the consumer's file
      // (with what was queued): this batch follows it there, so that the consumer reads in push order.
      memory_->release(bytes * copies, live * copies);
      return append_to_file();
    }
    count_moved();
    enqueue_locked(consumer, std::move(batch), bytes, live);
    out.in_memory = live * copies;
    return out;
  }
  // Spilling: once a consumer's queue has gone to its file, the rest follows (push order is kept).
  std::lock_guard<std::mutex> lock(mu_);
  rows_for_[f] += batch.rows;
  if (!files_[f]) {
    if (memory_->try_charge(bytes * copies, live * copies)) {
      count_moved();
      enqueue_locked(consumer, std::move(batch), bytes, live);
      out.in_memory = live * copies;
      return out;
    }
    HS_ASSERT(!reading_, "exchange: a spill file would start after its consumers began to read");
    // Start the file with what this consumer has queued (they were pushed first: the order is kept) and free
    // it, then charge the file's write buffer in the room that made.
    const int files = static_cast<int>(files_.size());
    files_[f] = std::make_unique<SpillFile>(types_, spill_directory_, spill_buffer_bytes(memory_->limit(), files));
    SpillFile& file = *files_[f];
    int64_t freed = 0, freed_live = 0;
    auto move_out = [&](const Batch& b, int64_t entry_bytes, int64_t entry_live) {
      const uint64_t before = file.bytes();
      file.append(b);
      out.rows += b.rows;
      out.bytes += file.bytes() - before;
      freed += entry_bytes;
      freed_live += entry_live;
    };
    if (kind_ == ExchangeKind::Broadcast) {
      for (SharedEntry& e : shared_) move_out(*e.batch, e.bytes * copies, e.live * copies);
      shared_.clear();
    } else {
      for (Entry& e : parts_[f]) move_out(e.batch, e.bytes, e.live);
      parts_[f].clear();
    }
    charged_ -= freed;
    charged_live_ -= freed_live;
    memory_->release(freed, freed_live);
    const auto buffer = static_cast<int64_t>(file.buffer_capacity());
    try {
      memory_->charge(buffer,
                      producer_label +
                          ": spilling did not help: the write buffer of the exchange's spill file does not fit even"
                          " with what the exchange held moved to disk:",
                      buffer);
    } catch (...) {
      files_[f].reset();  // nothing is lost: the error fails the query
      throw;
    }
    charged_ += buffer;
    charged_live_ += buffer;
    out.started = true;
  }
  return append_to_file();
}

void ExchangeBuffer::drop_file_locked(size_t index) {
  if (!files_[index]) return;
  const auto buffer = static_cast<int64_t>(files_[index]->buffer_capacity());
  files_[index].reset();
  charged_ -= buffer;
  charged_live_ -= buffer;
  memory_->release(buffer, buffer);
}

uint64_t ExchangeBuffer::rows_for(int consumer) const {
  std::lock_guard<std::mutex> lock(mu_);
  return rows_for_[kind_ == ExchangeKind::Broadcast ? 0 : static_cast<size_t>(consumer)];
}

bool ExchangeBuffer::pop(int consumer, Batch& out, const std::string& consumer_label) {
  HS_ASSERT(consumer >= 0 && consumer < consumers_, fmt::format("exchange consumer {} out of range", consumer));
  const auto c = static_cast<size_t>(consumer);
  int64_t freed = 0, freed_live = 0;
  std::shared_ptr<const Batch> shared;
  SpillFile* file = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (spill_ && !reading_) {
      // The producers have finished (the fragment scheduler runs a fragment after its inputs): make what
      // they spilled readable.
      reading_ = true;
      for (auto& f : files_)
        if (f) f->flush();
      if (kind_ == ExchangeKind::Broadcast && files_[0]) broadcast_readers_left_ = consumers_;
    }
    bool from_memory = false;
    if (kind_ == ExchangeKind::Broadcast) {
      size_t& pos = read_pos_[c];
      if (pos < shared_.size()) {
        SharedEntry& e = shared_[pos++];
        shared = e.batch;
        if (--e.readers_left == 0) e.batch.reset();
        freed = e.bytes;
        freed_live = e.live;
        from_memory = true;
      }
    } else {
      auto& q = parts_[c];
      if (!q.empty()) {
        out = std::move(q.front().batch);
        freed = q.front().bytes;
        freed_live = q.front().live;
        q.pop_front();
        from_memory = true;
      }
    }
    if (!from_memory) {
      if (!spill_ || file_done_[c]) return false;
      const size_t f = kind_ == ExchangeKind::Broadcast ? 0 : c;
      if (!files_[f]) return false;
      file = files_[f].get();
      if (!readers_[c]) {
        const size_t want = spill_buffer_bytes(memory_->limit(), kind_ == ExchangeKind::Broadcast ? consumers_ : 1);
        memory_->charge(static_cast<int64_t>(want),
                        consumer_label +
                            ": spilling did not help: the read buffer of the exchange's spill file does not fit:",
                        static_cast<int64_t>(want));
        charged_ += static_cast<int64_t>(want);
        charged_live_ += static_cast<int64_t>(want);
        readers_[c].emplace(file->reader(want));
      }
    }
    charged_ -= freed;
    charged_live_ -= freed_live;
  }
  if (file) {
    // Only this consumer touches its reader, and nobody writes the file any more: read outside the lock.
    if (readers_[c]->next(out)) return true;
    std::lock_guard<std::mutex> lock(mu_);
    const auto buffer = static_cast<int64_t>(readers_[c]->buffer_capacity());
    readers_[c].reset();
    file_done_[c] = 1;
    charged_ -= buffer;
    charged_live_ -= buffer;
    memory_->release(buffer, buffer);
    if (kind_ != ExchangeKind::Broadcast) drop_file_locked(c);
    else if (--broadcast_readers_left_ == 0) drop_file_locked(0);
    return false;
  }
  // Copy outside the lock (concurrent reads of one batch are safe); the last reference frees it.
  if (shared) out = *shared;
  if (memory_) memory_->release(freed, freed_live);
  return true;
}

}  // namespace hindsight
