#include "planner/exec/operators/hash_join_build.hpp"

#include <algorithm>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/storage/bucketing.hpp"

namespace hindsight {

HashJoinBuildOp::HashJoinBuildOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> build_child,
                                 std::vector<int> build_keys)
    : ExecOperator("HashJoinBuild", ctx, worker), keys_(std::move(build_keys)) {
  output_types_ = build_child->output_types();
  for (int k : keys_) HS_ASSERT(k >= 0 && static_cast<size_t>(k) < output_types_.size(), "join build key out of range");
  add_child(std::move(build_child));
  columns_.resize(output_types_.size());
  for (size_t c = 0; c < output_types_.size(); ++c) columns_[c].type = output_types_[c];
}

bool HashJoinBuildOp::next_impl(Batch& out) {
  if (built_) return false;
  Batch in;
  int64_t live = 0;
  while (pull(0, in)) {
    rows_ += in.rows;
    live += static_cast<int64_t>(in.byte_size());
    charge(append_batch_moved(columns_, std::move(in)), live);
  }
  HS_ASSERT(rows_ < HashJoinBuildOp::kEnd - 1, "hash join build side exceeds 4G rows");
  build_table();
  built_ = true;
  return false;
}

void HashJoinBuildOp::build_table() {
  std::vector<const ColumnVector*> key_cols;
  for (int k : keys_) key_cols.push_back(&columns_[static_cast<size_t>(k)]);
  size_t capacity = 16;
  shift_ = 60;
  // Two slots a row; a small build gets up to eight (at most kSparseSlots slots, 64 KB of heads,
  // still cache-resident): most probes of a selective join then find an empty slot, so the branch
  // on an empty chain is predictable instead of taken for a third of the probes.
  const size_t want = rows_ * 8 <= kSparseSlots ? rows_ * 8 : rows_ * 2;
  while (capacity < want) {
    capacity <<= 1;
    --shift_;
  }
  small_ = capacity <= kSparseSlots;
  // Live: a hash and a chain link per row, and a bucket head per row at most (the rest of the heads are the
  // sparse table's deliberate slack). Charged within 2x of live: the columns (C bytes a row) grew by doubling
  // (at most 2C allocated), the table's arrays are exact but for the heads (2 a row), 2C + 12 + 8 <= 2 (C + 16);
  // a small build's sparse heads are at most kSparseSlots, a constant.
  const int64_t table_bytes = static_cast<int64_t>(rows_ * (sizeof(uint64_t) + sizeof(uint32_t)));
  charge(table_bytes + static_cast<int64_t>(capacity * sizeof(uint32_t)),
         live_bytes_ + table_bytes + static_cast<int64_t>(std::min(capacity, rows_) * sizeof(uint32_t)));
  row_hashes(key_cols, rows_, hashes_);
  next_.assign(rows_, kEnd);
  heads_.assign(capacity, kEnd);
  std::vector<uint8_t> null_rows;
  has_null_key_ = null_key_rows(key_cols, rows_, null_rows);
  // Insert backwards so that each chain lists its rows in input order.
  for (size_t i = rows_; i-- > 0;) {
    if (has_null_key_ && null_rows[i]) continue;
    size_t s = slot_of(hashes_[i], shift_);
    next_[i] = heads_[s];
    heads_[s] = static_cast<uint32_t>(i);
  }
}

void HashJoinBuildOp::chain_heads(const uint64_t* hashes, size_t n, uint32_t* heads) const {
  const uint32_t* table = heads_.data();
  if (small_) {  // the table is cache-resident: prefetching only costs instructions and branches
    for (size_t i = 0; i < n; ++i) heads[i] = table[slot_of(hashes[i], shift_)];
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    size_t s = slot_of(hashes[i], shift_);
    heads[i] = static_cast<uint32_t>(s);
    __builtin_prefetch(table + s);
  }
  const bool int_key = keys_.size() == 1 && columns_[static_cast<size_t>(keys_[0])].type.physical() == PhysicalKind::Int64;
  const int64_t* key = int_key ? columns_[static_cast<size_t>(keys_[0])].ints.data() : nullptr;
  for (size_t i = 0; i < n; ++i) {
    uint32_t first = table[heads[i]];
    heads[i] = first;
    if (first == kEnd) continue;
    if (int_key) __builtin_prefetch(key + first);
    else __builtin_prefetch(hashes_.data() + first);
  }
}

void HashJoinBuildOp::free_table() {
  for (auto& c : columns_) c = ColumnVector(c.type);
  hashes_ = {};
  next_ = {};
  heads_.assign(16, kEnd);
  shift_ = 60;
  small_ = true;
  rows_ = 0;
  release(held_memory_);
}

}  // namespace hindsight
