#include "planner/exec/group_table.hpp"

#include <algorithm>

#include "planner/common/error.hpp"
#include "planner/exec/key_columns.hpp"
#include "planner/storage/bucketing.hpp"

namespace hindsight {

GroupTable::GroupTable(std::vector<DataType> key_types) {
  keys_.reserve(key_types.size());
  for (auto& t : key_types) keys_.emplace_back(t);
  slots_.assign(16, kEmpty);
}

int64_t GroupTable::allocated_bytes() const {
  int64_t b = key_heap_bytes_;
  for (const auto& k : keys_) b += static_cast<int64_t>(k.buffer_bytes());
  return b + static_cast<int64_t>(group_hashes_.capacity() * sizeof(uint64_t) + slots_.capacity() * sizeof(uint64_t));
}

int64_t GroupTable::live_bytes() const {
  return key_bytes_ + static_cast<int64_t>(groups_ * (sizeof(uint64_t) + sizeof(uint64_t)));
}

void GroupTable::clear() {
  for (auto& k : keys_) {
    DataType t = k.type;
    k = ColumnVector(t);
  }
  // Really freed (`= {}` and assign() keep the capacity, and allocated_bytes() with it): a spilling aggregate
  // starts over on the next partition.
  group_hashes_ = std::vector<uint64_t>();
  slots_ = std::vector<uint64_t>(16, kEmpty);
  shift_ = 60;
  groups_ = 0;
  group_capacity_ = 0;
  key_bytes_ = 0;
  key_heap_bytes_ = 0;
}

void GroupTable::grow() {
  size_t capacity = slots_.size() * 2;
  --shift_;
  slots_.assign(capacity, kEmpty);
  const size_t mask = capacity - 1;
  for (size_t g = 0; g < groups_; ++g) {
    size_t s = slot_of(group_hashes_[g], shift_);
    while (slots_[s] != kEmpty) s = (s + 1) & mask;
    slots_[s] = slot_value(group_hashes_[g], static_cast<uint32_t>(g));
  }
}

uint32_t GroupTable::add_group(const std::vector<const ColumnVector*>& keys, size_t row, uint64_t hash) {
  if (groups_ == group_capacity_) {
    group_capacity_ = std::max<size_t>(16, group_capacity_ + group_capacity_ / 4);
    for (auto& k : keys_) {
      k.reserve(group_capacity_);
      if (k.has_nulls()) k.nulls.reserve(group_capacity_);
    }
    group_hashes_.reserve(group_capacity_);
  }
  for (size_t c = 0; c < keys_.size(); ++c) {
    const ColumnVector& src = *keys[c];
    keys_[c].append_from(src, row);
    if (src.type.physical() == PhysicalKind::String) {
      key_bytes_ += static_cast<int64_t>(sizeof(std::string) + (src.strs[row].size() > 15 ? src.strs[row].size() : 0));
      key_heap_bytes_ += static_cast<int64_t>(string_heap_block(keys_[c].strs.back()));
    } else
      key_bytes_ += 8;
    if (keys_[c].has_nulls()) key_bytes_ += 1;
  }
  group_hashes_.push_back(hash);
  HS_ASSERT(groups_ < UINT32_MAX - 1, "more than 4G groups");
  return static_cast<uint32_t>(groups_++);
}

template <bool kSingleInt, bool kInsert>
void GroupTable::probe(const std::vector<const ColumnVector*>& keys, size_t rows, std::vector<uint32_t>& group_ids) {
  std::vector<KeyColumn> in = key_views(keys);
  std::vector<KeyColumn> stored;
  auto refresh = [&] {
    stored.clear();
    for (auto& k : keys_) stored.push_back(KeyColumn::of(k));
  };
  refresh();
  const int64_t* in_ints = kSingleInt ? keys[0]->ints.data() : nullptr;
  size_t mask = slots_.size() - 1;
  // The slots of a batch are scattered: request them all before the first is needed.
  for (size_t r = 0; r < rows; ++r) __builtin_prefetch(slots_.data() + slot_of(hashes_[r], shift_));
  for (size_t r = 0; r < rows; ++r) {
    const uint64_t h = hashes_[r];
    size_t s = slot_of(h, shift_);
    while (true) {
      const uint64_t slot = slots_[s];
      if (slot == kEmpty) {
        if constexpr (!kInsert) {
          group_ids[r] = kNotFound;
          break;
        }
        const uint32_t g = add_group(keys, r, h);
        slots_[s] = slot_value(h, g);
        group_ids[r] = g;
        if (groups_ * 2 > slots_.size()) {  // load factor above 1/2
          grow();
          mask = slots_.size() - 1;
        }
        refresh();
        break;
      }
      if (!tag_matches(slot, h)) {
        s = (s + 1) & mask;
        continue;
      }
      const auto g = static_cast<uint32_t>(slot);
      if constexpr (kSingleInt) {
        if (stored[0].ints[g] == in_ints[r]) {
          group_ids[r] = g;
          break;
        }
      } else {
        if (keys_equal(in, r, stored, g)) {  // the tag matched: a full hash check would read one more line
          group_ids[r] = g;
          break;
        }
      }
      s = (s + 1) & mask;
    }
  }
}

void GroupTable::find_or_insert(const std::vector<const ColumnVector*>& keys, size_t rows,
                                std::vector<uint32_t>& group_ids) {
  group_ids.resize(rows);
  row_hashes(keys, rows, hashes_);
  // The int fast path compares values only; it is exact while neither side holds a NULL (a NULL key is stored as 0).
  bool single_int = keys.size() == 1 && keys[0]->type.physical() == PhysicalKind::Int64 && !keys[0]->has_nulls() &&
                    !keys_[0].has_nulls();
  if (single_int) probe<true, true>(keys, rows, group_ids);
  else probe<false, true>(keys, rows, group_ids);
}

void GroupTable::find(const std::vector<const ColumnVector*>& keys, size_t rows, std::vector<uint32_t>& group_ids) {
  group_ids.resize(rows);
  row_hashes(keys, rows, hashes_);
  bool single_int = keys.size() == 1 && keys[0]->type.physical() == PhysicalKind::Int64 && !keys[0]->has_nulls() &&
                    !keys_[0].has_nulls();
  if (single_int) probe<true, false>(keys, rows, group_ids);
  else probe<false, false>(keys, rows, group_ids);
}

size_t GroupTable::capacity_for(size_t groups) const {
  size_t capacity = group_capacity_;
  while (capacity < groups) capacity = std::max<size_t>(16, capacity + capacity / 4);
  return capacity;
}

int64_t GroupTable::growth_bound(size_t new_groups, int64_t string_heap) const {
  if (new_groups == 0) return 0;
  const size_t groups = groups_ + new_groups;
  const size_t capacity = capacity_for(groups);
  // A group: its hash, and per key a value (a string object) and a null byte (a null mask may start late and
  // grow by doubling: count two).
  size_t per_group = sizeof(uint64_t);
  for (const auto& k : keys_) per_group += (k.type.physical() == PhysicalKind::String ? sizeof(std::string) : 8) + 2;
  int64_t bytes = static_cast<int64_t>((capacity - group_capacity_) * per_group) + string_heap;
  size_t slots = slots_.size();
  while (groups * 2 > slots) slots *= 2;
  return bytes + static_cast<int64_t>((slots - slots_.size()) * sizeof(uint64_t));
}

}  // namespace hindsight
