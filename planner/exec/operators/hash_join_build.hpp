#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/key_columns.hpp"
#include "planner/exec/operators/hash_join_spill.hpp"

namespace hindsight {

/// The build half of a hash join: drains its child into columnar storage and a chained hash table on the key
/// columns. It produces no rows itself; HashJoinProbeOp owns it as its second child and drives it through
/// next(), so its stats (rows_in = build rows, time, peak memory) are recorded like any operator's.
/// Memory charged: the stored rows (as they arrive), then hashes, chains and bucket heads.
/// Rows with a NULL in any key column are stored (a BuildOuter join emits them) but never enter the table.
///
/// Spilling (spill_enabled(), docs/spilling.md): when a charge of the accumulating rows (or of the table) is
/// refused, the build switches to partitioned mode: the rows held so far and every later one go to
/// JoinSpillFiles' 16 partitions by key hash (NULL-key rows to their own file when keep_null_key_rows, else
/// dropped), nothing stays in memory but the write buffers, and spilled() is true. The probe then loads the
/// partitions one at a time (load_partition: the same table as in memory) and splits one that does not fit.
class HashJoinBuildOp : public ExecOperator {
 public:
  static constexpr uint32_t kEnd = UINT32_MAX;  ///< end of a chain

  HashJoinBuildOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> build_child, std::vector<int> build_keys);

  /// Number of stored build rows (including rows with NULL keys): of the loaded partition once spilled.
  size_t rows() const { return rows_; }
  /// Every build row the child produced (stored or spilled).
  uint64_t total_rows() const { return total_rows_; }
  /// Stored build columns, in the child's layout.
  const std::vector<ColumnVector>& columns() const { return columns_; }
  const std::vector<int>& keys() const { return keys_; }
  /// Whether some build row (stored or spilled) has a NULL key.
  bool has_null_key() const { return has_null_key_; }

  /// Whether a spill must keep the rows with a NULL key (BuildOuter, FullOuter emit them); set by the probe.
  void keep_null_key_rows(bool keep) { keep_null_rows_ = keep; }
  /// Whether the build went to partitioned mode (after next()).
  bool spilled() const { return spill_ != nullptr; }
  /// The build parts of the partitions (spilled() only).
  JoinSpillFiles& spill_files() { return *spill_; }
  /// Loads partition `id` into the table (replacing what was loaded) and drops its file; false, with nothing
  /// loaded and the file kept, when its memory is refused. `into_reserve`: its charges may take the spill reserve
  /// (MemoryTracker::set_spill_reserve), for a partition too small to split or split as far as it goes.
  bool load_partition(size_t id, bool into_reserve = false);
  /// Splits partition `id` at `level` (JoinSpillFiles::split) and returns the first new id.
  size_t split_partition(size_t id, int level);
  /// Drops every spill file and releases their buffers.
  void drop_spill();

  /// First row of the chain where rows with `hash` live (kEnd if none); rows of a chain may have other hashes.
  uint32_t chain_head(uint64_t hash) const { return heads_[slot_of(hash, shift_)]; }
  uint32_t chain_next(uint32_t row) const { return next_[row]; }
  /// chain_head() of n hashes at once, prefetching the buckets and then the first rows' keys so that the cache
  /// misses of a batch overlap instead of queueing one behind the other.
  void chain_heads(const uint64_t* hashes, size_t n, uint32_t* heads) const;
  uint64_t row_hash(uint32_t row) const { return hashes_[row]; }
  /// Slots of the bucket array (a power of two): 8 per row while that stays within kSparseSlots, else 2.
  size_t slots() const { return heads_.size(); }
  static constexpr size_t kSparseSlots = 16384;

  /// Frees the stored rows and the table and releases their memory (the probe calls it once exhausted, and
  /// after each partition of a spilled join); spill files stay.
  void free_table();

 protected:
  /// Builds the table on the first call and reports exhaustion.
  bool next_impl(Batch& out) override;

 private:
  /// Charges and builds the table; when the charge is refused, calls `spill` (which gives the rows' memory back)
  /// and returns false, nothing built. The charge: charge_or_spill (`spill` under the spill turn), or with
  /// `into_reserve` try_charge_to_limit.
  bool build_table(bool into_reserve, const std::function<void()>& spill);
  /// Switches to partitioned mode: the stored rows go to the partition files and are freed.
  void start_spilling();
  /// Releases the stored rows and the table, keeping the charge of the spill files' buffers.
  void release_table_memory();
  /// Charges or releases so that spill_charged_ is the files' buffers plus `extra` (a reader's).
  void sync_spill_charge(int64_t extra);

  std::vector<int> keys_;
  std::vector<ColumnVector> columns_;
  size_t rows_ = 0;
  uint64_t total_rows_ = 0;
  bool built_ = false;
  bool keep_null_rows_ = false;
  std::unique_ptr<JoinSpillFiles> spill_;
  int64_t spill_charged_ = 0;  ///< the part of held_memory_ that is spill buffers
  bool has_null_key_ = false;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> next_;
  std::vector<uint32_t> heads_;
  int shift_ = 60;
  /// The bucket array has at most kSparseSlots slots (chain_heads does not prefetch it).
  bool small_ = true;
};

}  // namespace hindsight
