#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// How an accumulator folds its input column.
enum class AggUpdate : uint8_t {
  CountRows,    ///< +1 per row (COUNT(*)); no input column
  CountValues,  ///< +1 per non-NULL value
  AddCounts,    ///< + the (non-NULL BIGINT) input: merging partial counts
  SumInt,       ///< int64 sum of non-NULL values, overflow is a DATA_ERROR
  SumDouble,    ///< double sum of non-NULL values
  Min,
  Max,
};

/// One accumulator column of a hash aggregate, indexed by group id. An aggregate has one accumulator (AVG two:
/// sum and count). In Partial mode the accumulators are the output columns; Final mode folds them again.
class AggState {
 public:
  AggState(AggUpdate update, DataType type, int input) : update_(update), type_(type), input_(input) {}

  AggUpdate update() const { return update_; }
  /// Type of the accumulated value (BIGINT for counts).
  const DataType& type() const { return type_; }
  /// Input column this accumulator reads (-1 for CountRows).
  int input() const { return input_; }

  /// Makes room for `groups` groups (new groups start empty), reserving `capacity` (>= groups) when the arrays
  /// must grow: the group table's group_capacity(), so that the states grow with its keys, by half.
  void resize(size_t groups, size_t capacity = 0);
  /// Folds `rows` rows of `input` (nullptr for CountRows) into the groups `group_ids`; NULL inputs are skipped.
  void update(const ColumnVector* input, const uint32_t* group_ids, size_t rows);
  /// Whether group g has seen a value (counts: always).
  bool has_value(size_t g) const { return is_count() || has_[g]; }
  bool is_count() const {
    return update_ == AggUpdate::CountRows || update_ == AggUpdate::CountValues || update_ == AggUpdate::AddCounts;
  }
  int64_t int_at(size_t g) const { return ints_[g]; }
  double double_at(size_t g) const { return dbls_[g]; }
  /// Appends groups [begin, end) to `out`: the accumulated value, NULL where no value was seen.
  void append_to(ColumnVector& out, size_t begin, size_t end) const;
  /// What the state's buffers allocate (capacities; strings: their objects and payloads).
  int64_t allocated_bytes() const;
  /// The live part of it: one value (and one has-a-value byte) per group (see MemoryTracker).
  int64_t live_bytes() const;
  void clear();
  /// What allocated_bytes() grows by per group of room resize() makes (string payloads not included).
  int64_t bytes_per_group() const {
    if (is_count()) return 8;
    return type_.physical() == PhysicalKind::String ? static_cast<int64_t>(sizeof(std::string)) + 1 : 9;
  }

 private:
  template <typename T, typename Op>
  void fold(const T* values, const uint8_t* nulls, const uint32_t* group_ids, size_t rows, std::vector<T>& acc, Op op);

  AggUpdate update_;
  DataType type_;
  int input_;
  std::vector<int64_t> ints_;
  std::vector<double> dbls_;
  std::vector<std::string> strs_;
  std::vector<uint8_t> has_;
  int64_t string_bytes_ = 0;
};

}  // namespace hindsight
