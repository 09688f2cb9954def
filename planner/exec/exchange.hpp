#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "planner/common/hashing.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

enum class ExchangeKind {
  Gather,       ///< every producer's rows go to consumer 0
  Broadcast,    ///< every consumer receives all rows
  Repartition,  ///< a row goes to consumer bucket_of(row hash over the key columns, buckets) % consumers
};

inline const char* exchange_kind_name(ExchangeKind k) {
  switch (k) {
    case ExchangeKind::Gather: return "GATHER";
    case ExchangeKind::Broadcast: return "BROADCAST";
    case ExchangeKind::Repartition: return "REPARTITION";
  }
  return "?";
}

/// The rows an exchange moves from the instances of a producing fragment (ExchangeSinkOp) to the instances of a
/// consuming fragment (ExchangeSourceOp). The producing fragment runs to completion before the consuming one
/// starts, so the buffer holds everything in between. Thread-safe.
/// Memory: what is buffered is charged to the tracker (a broadcast batch once per consumer, as every worker of a
/// cluster would hold its own copy) and released as consumers take it; the destructor releases the rest. A batch
/// is charged what its buffers allocate, and one whose buffers are mostly empty (a selective filter's output) is
/// compacted first, so that what the buffer charges stays within 2x of the rows it holds.
/// The row hash is storage's (planner/storage/bucketing.hpp), so repartitioning on a table's distribution columns
/// with buckets = its bucket count sends each row to the worker that reads its bucket.
class ExchangeBuffer {
 public:
  /// `keys` and `buckets` (0: one per consumer) matter for Repartition only. `memory` may be null (no accounting).
  ExchangeBuffer(ExchangeKind kind, int consumers, std::vector<DataType> types, MemoryTracker* memory,
                 std::vector<int> keys = {}, int buckets = 0);
  ~ExchangeBuffer();
  ExchangeBuffer(const ExchangeBuffer&) = delete;
  ExchangeBuffer& operator=(const ExchangeBuffer&) = delete;

  ExchangeKind kind() const { return kind_; }
  int consumers() const { return consumers_; }
  const std::vector<DataType>& types() const { return types_; }
  const std::vector<int>& keys() const { return keys_; }
  int buckets() const { return buckets_; }
  /// Consumer that receives a row with storage row hash `hash` (Repartition).
  int consumer_of(uint64_t hash) const { return bucket_of(hash, buckets_) % consumers_; }

  /// Adds a batch: for `consumer` (Repartition: rows already partitioned; Gather: 0); Broadcast ignores it.
  /// Charges the tracker in the name of `producer_label`; throws MEMORY_LIMIT_EXCEEDED (nothing buffered then).
  void push(int consumer, Batch batch, const std::string& producer_label);
  /// Takes the next batch for `consumer`; false when none is left.
  bool pop(int consumer, Batch& out);

  /// Rows and bytes delivered to consumers (Broadcast: once per consumer), counted as they are pushed.
  uint64_t rows_moved() const { return rows_moved_.load(std::memory_order_relaxed); }
  uint64_t bytes_moved() const { return bytes_moved_.load(std::memory_order_relaxed); }
  /// Bytes charged and not yet released.
  int64_t buffered_bytes() const;

 private:
  struct Entry {
    Batch batch;
    int64_t bytes;  ///< charged (allocated)
    int64_t live;   ///< of which live data (Batch::byte_size)
  };
  struct SharedEntry {
    std::shared_ptr<const Batch> batch;  ///< dropped once every consumer has read it
    int64_t bytes;
    int64_t live;
    int readers_left;
  };

  ExchangeKind kind_;
  int consumers_;
  std::vector<DataType> types_;
  MemoryTracker* memory_;
  std::vector<int> keys_;
  int buckets_;
  mutable std::mutex mu_;
  std::vector<std::deque<Entry>> parts_;  ///< Gather/Repartition: one queue per consumer
  std::vector<SharedEntry> shared_;             ///< Broadcast: every batch once
  std::vector<size_t> read_pos_;          ///< Broadcast: next index into shared_ per consumer
  int64_t charged_ = 0;
  int64_t charged_live_ = 0;
  std::atomic<uint64_t> rows_moved_{0};
  std::atomic<uint64_t> bytes_moved_{0};
};

}  // namespace hindsight
