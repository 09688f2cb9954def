#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "planner/common/hashing.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "planner/exec/spill_file.hpp"
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
/// Spilling (enable_spill, docs/spilling.md): a push whose charge is refused writes the batch to a SpillFile
/// instead (Gather/Repartition: one per consumer; Broadcast: one shared by all consumers, each reading it with
/// a reader of its own). The file starts with what that consumer had queued in memory (which is freed), and
/// every later push for that consumer goes to the file as well, so that a consumer still sees the batches in
/// the order they were pushed. Pops drain memory first, then the file.
/// The files' write and read buffers are charged. The files are written before any consumer reads (the
/// producing fragment has finished): the first pop flushes them, and a push to a file after that is INTERNAL.
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

  /// Lets pushes whose charge is refused write to spill files in `directory`: before the first push, or while
  /// producers push (spilling in place), never after a consumer began to read.
  void enable_spill(std::string directory);
  bool spill_enabled() const { return spill_.load(std::memory_order_acquire); }

  /// What one push did: the live bytes it added in memory (once per consumer for a broadcast), or what it wrote
  /// to a spill file.
  struct Pushed {
    int64_t in_memory = 0;
    uint64_t rows = 0;     ///< spilled
    uint64_t bytes = 0;    ///< spilled
    bool started = false;  ///< this push created the file (the consumer's queue started spilling)
  };
  /// Adds a batch: for `consumer` (Repartition: rows already partitioned; Gather: 0); Broadcast ignores it.
  /// Charges the tracker in the name of `producer_label`; throws MEMORY_LIMIT_EXCEEDED (nothing buffered then)
  /// unless spilling is enabled, in which case the batch goes to a spill file. A charge refused with spilling
  /// off asks `spill_now` (spilling in place: ExecContext::spill_now, which enables spilling on every buffer of
  /// the attempt when it says yes); true: the batch takes the spilling path.
  Pushed push(int consumer, Batch batch, const std::string& producer_label,
              const std::function<bool()>& spill_now = {});
  /// Takes the next batch for `consumer`; false when none is left. `consumer_label` names who is charged
  /// for a spill file's read buffer.
  bool pop(int consumer, Batch& out, const std::string& consumer_label = "ExchangeSource");

  /// The rows pushed for `consumer` (Broadcast: every row), in memory or spilled: what it will read once the
  /// producers have finished.
  uint64_t rows_for(int consumer) const;
  /// Rows and bytes delivered to consumers (Broadcast: once per consumer), counted as they are pushed.
  uint64_t rows_moved() const { return rows_moved_.load(std::memory_order_relaxed); }
  uint64_t bytes_moved() const { return bytes_moved_.load(std::memory_order_relaxed); }
  /// Bytes charged and not yet released (spill files' buffers included).
  int64_t buffered_bytes() const;
  /// Rows and bytes written to spill files so far (Broadcast: once for all consumers).
  uint64_t spilled_rows() const;
  uint64_t spilled_bytes() const;

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
  // Spilling (all under mu_ except a consumer's own reader, which only that consumer's pops touch).
  std::atomic<bool> spill_{false};  ///< set last by enable_spill (read by push without the lock)
  std::string spill_directory_;
  bool reading_ = false;                             ///< a pop happened: the files are flushed and closed to writes
  std::vector<std::unique_ptr<SpillFile>> files_;    ///< per consumer (Broadcast: [0] for everyone)
  std::vector<std::optional<SpillFile::Reader>> readers_;  ///< per consumer, while it reads its file
  std::vector<uint8_t> file_done_;                   ///< per consumer: it has read its file to the end
  int broadcast_readers_left_ = 0;
  uint64_t spilled_rows_ = 0, spilled_bytes_ = 0;
  void drop_file_locked(size_t index);
  void enqueue_locked(int consumer, Batch&& batch, int64_t bytes, int64_t live);
  std::atomic<uint64_t> rows_moved_{0};
  std::atomic<uint64_t> bytes_moved_{0};
  std::vector<uint64_t> rows_for_;  ///< per consumer (Broadcast: [0] for all), under mu_
};

}  // namespace hindsight
