#pragma once
#include <cstdint>
#include <vector>

#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// Maps key tuples to dense group ids 0, 1, 2... in order of first appearance (open addressing, linear probing).
/// NULLs are keys like any other value: rows whose keys are all equal or both NULL share a group.
/// Used for GROUP BY keys and for the (group, value) sets of DISTINCT aggregates.
class GroupTable {
 public:
  explicit GroupTable(std::vector<DataType> key_types);

  /// Sets group_ids[r] for each of `rows` rows of the key columns `keys` (in key order), creating groups for
  /// new tuples. New groups get consecutive ids in row order.
  void find_or_insert(const std::vector<const ColumnVector*>& keys, size_t rows, std::vector<uint32_t>& group_ids);

  /// As find_or_insert, but creates no group: group_ids[r] = kNotFound for a tuple the table lacks (spilling).
  static constexpr uint32_t kNotFound = UINT32_MAX;
  void find(const std::vector<const ColumnVector*>& keys, size_t rows, std::vector<uint32_t>& group_ids);
  /// The hashes of the rows of the last find_or_insert / find (what the table indexes by).
  const std::vector<uint64_t>& last_hashes() const { return hashes_; }
  /// An upper bound of what allocated_bytes() grows by when `new_groups` groups are added whose string keys'
  /// payloads allocate at most `string_heap` bytes (what a spilling aggregate reserves before inserting).
  int64_t growth_bound(size_t new_groups, int64_t string_heap) const;

  size_t size() const { return groups_; }
  /// The groups the per-group arrays (keys, hashes) have room for. They grow by a quarter (not double) when full,
  /// and so should the arrays of per-group state kept beside the table (AggState::resize). The slots stay 1/4 to
  /// 1/2 full (8 bytes each, 16 to 32 a group): with D bytes of keys, hash and states a group, the table allocates
  /// at most 1.25 D + 32 for D + 8 live, within 2x from D = 22 on (an integer key and one SUM: D = 25). Doubling
  /// arrays allocated up to 2 D + 32, over 2x at every D just past a power of two of groups. (A load factor up to
  /// 5/8 with arrays grown by half also bounds it, but made Q18's 1.5 M-group aggregate 18 % slower.)
  size_t group_capacity() const { return group_capacity_; }
  /// The group_capacity() the table will have once it holds `groups` groups (>= the current one).
  size_t capacity_for(size_t groups) const;
  /// The key columns, one row per group.
  const std::vector<ColumnVector>& keys() const { return keys_; }
  /// What the table's buffers allocate (key columns' capacities and string blocks, hashes, slots).
  int64_t allocated_bytes() const;
  /// The live part of it (see MemoryTracker): the keys' values, a hash and a used slot per group.
  int64_t live_bytes() const;
  /// Frees everything.
  void clear();

 private:
  /// A slot: the low 32 bits of the group's hash (a tag that rejects most other groups without reading their
  /// keys) above its group id; kEmpty when free.
  static constexpr uint64_t kEmpty = UINT64_MAX;
  static uint64_t slot_value(uint64_t hash, uint32_t group) { return (hash << 32) | group; }
  static bool tag_matches(uint64_t slot, uint64_t hash) { return (slot >> 32) == (hash & 0xFFFFFFFFu); }
  template <bool kSingleInt, bool kInsert>
  void probe(const std::vector<const ColumnVector*>& keys, size_t rows, std::vector<uint32_t>& group_ids);
  uint32_t add_group(const std::vector<const ColumnVector*>& keys, size_t row, uint64_t hash);
  void grow();

  std::vector<ColumnVector> keys_;
  std::vector<uint64_t> group_hashes_;
  std::vector<uint64_t> slots_;
  int shift_ = 60;
  size_t groups_ = 0;
  size_t group_capacity_ = 0;
  int64_t key_bytes_ = 0;       ///< the keys' live bytes (ColumnVector::byte_size of keys_)
  int64_t key_heap_bytes_ = 0;  ///< the allocator's blocks of the keys' long strings
  std::vector<uint64_t> hashes_;  ///< scratch: hashes of the current input rows
};

}  // namespace hindsight
