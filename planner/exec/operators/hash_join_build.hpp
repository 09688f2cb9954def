#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/key_columns.hpp"

namespace hindsight {

/// The build half of a hash join: drains its child into columnar storage and a chained hash table on the key
/// columns. It produces no rows itself; HashJoinProbeOp owns it as its second child and drives it through
/// next(), so its stats (rows_in = build rows, time, peak memory) are recorded like any operator's.
/// Memory charged: the stored rows (as they arrive), then hashes, chains and bucket heads.
/// Rows with a NULL in any key column are stored (a BuildOuter join emits them) but never enter the table.
class HashJoinBuildOp : public ExecOperator {
 public:
  static constexpr uint32_t kEnd = UINT32_MAX;  ///< end of a chain

  HashJoinBuildOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> build_child, std::vector<int> build_keys);

  /// Number of stored build rows (including rows with NULL keys).
  size_t rows() const { return rows_; }
  /// Stored build columns, in the child's layout.
  const std::vector<ColumnVector>& columns() const { return columns_; }
  const std::vector<int>& keys() const { return keys_; }
  /// Whether some stored row has a NULL key.
  bool has_null_key() const { return has_null_key_; }

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

  /// Frees the stored rows and the table and releases their memory (the probe calls it once exhausted).
  void free_table();

 protected:
  /// Builds the table on the first call and reports exhaustion.
  bool next_impl(Batch& out) override;

 private:
  void build_table();

  std::vector<int> keys_;
  std::vector<ColumnVector> columns_;
  size_t rows_ = 0;
  bool built_ = false;
  bool has_null_key_ = false;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> next_;
  std::vector<uint32_t> heads_;
  int shift_ = 60;
  /// The bucket array has at most kSparseSlots slots (chain_heads does not prefetch it).
  bool small_ = true;
};

}  // namespace hindsight
