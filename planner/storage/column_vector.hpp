#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/common/types.hpp"
#include "planner/common/value.hpp"

namespace hindsight {

/// Makes room in `v` for `extra` more elements, growing its capacity geometrically (at least doubling).
/// Never `v.reserve(v.size() + extra)` on a vector that keeps growing: an exact reserve reallocates (and moves
/// every element) on each append, which makes accumulating n rows in batches O(n^2).
template <typename T>
void grow_for_append(std::vector<T>& v, size_t extra) {
  const size_t need = v.size() + extra;
  if (need > v.capacity()) v.reserve(need > 2 * v.capacity() ? need : 2 * v.capacity());
}

/// The heap block the allocator hands out for the payload of `s` (glibc: the request plus an 8-byte header,
/// rounded to 16, at least 32), 0 for a string in libstdc++'s inline buffer.
inline size_t string_heap_block(const std::string& s) {
  constexpr size_t kInline = 15;  // libstdc++'s small-string buffer
  if (s.capacity() <= kInline) return 0;
  const size_t block = (s.capacity() + 1 + 8 + 15) & ~size_t{15};
  return block < 32 ? 32 : block;
}

/// A typed column of values with an optional null mask. Exactly one of ints/dbls/strs is used,
/// chosen by type.physical(). `nulls` is either empty (no NULLs) or has one byte per row (1 = NULL).
struct ColumnVector {
  DataType type;
  std::vector<int64_t> ints;
  std::vector<double> dbls;
  std::vector<std::string> strs;
  std::vector<uint8_t> nulls;

  ColumnVector() = default;
  explicit ColumnVector(DataType t) : type(t) {}

  size_t size() const {
    switch (type.physical()) {
      case PhysicalKind::Int64: return ints.size();
      case PhysicalKind::Double: return dbls.size();
      case PhysicalKind::String: return strs.size();
    }
    return 0;
  }
  bool has_nulls() const { return !nulls.empty(); }
  bool is_null(size_t row) const { return !nulls.empty() && nulls[row]; }
  void reserve(size_t n);
  void resize(size_t n);
  void clear();

  /// Marks row as NULL, materializing the mask if needed.
  void set_null(size_t row);
  void append_null();
  void append_int(int64_t v) { ints.push_back(v); if (!nulls.empty()) nulls.push_back(0); }
  void append_double(double v) { dbls.push_back(v); if (!nulls.empty()) nulls.push_back(0); }
  void append_string(std::string v) { strs.push_back(std::move(v)); if (!nulls.empty()) nulls.push_back(0); }
  /// Appends a Value of the same physical kind (NULL allowed).
  void append_value(const Value& v);
  /// Appends row `row` of `src` (same physical kind).
  void append_from(const ColumnVector& src, size_t row);
  /// Appends rows listed in `sel` of `src`.
  void append_selected(const ColumnVector& src, const std::vector<uint32_t>& sel);
  /// Appends all rows of `src`.
  void append_all(const ColumnVector& src);
  Value get(size_t row) const;

  /// The bytes of live data the column holds: the values' sizes (8 bytes an integer or double, a byte a null
  /// flag, a string object per string plus the payload of a string too long for its inline buffer), not the
  /// buffers' capacities. What EXPLAIN reports as bytes moved, and the "live" figure of MemoryTracker.
  size_t byte_size() const;
  /// What the column holds in allocated memory: its buffers' capacities (not sizes), plus the heap
  /// block the allocator hands out for every string too long for the inline buffer. What the memory
  /// budget is charged; byte_size() is the data itself (what EXPLAIN reports as bytes moved).
  size_t allocated_bytes() const { return buffer_bytes() + string_heap_bytes(); }
  /// The capacities of the column's buffers.
  size_t buffer_bytes() const {
    return ints.capacity() * sizeof(int64_t) + dbls.capacity() * sizeof(double) + strs.capacity() * sizeof(std::string) +
           nulls.capacity();
  }
  /// The heap blocks of the strings (glibc: the request plus an 8-byte header, rounded to 16, at least 32).
  size_t string_heap_bytes() const;
};

/// A horizontal slice of rows (about kBatchSize of them) in columnar form.
struct Batch {
  std::vector<ColumnVector> columns;
  size_t rows = 0;

  size_t byte_size() const {
    size_t b = 0;
    for (auto& c : columns) b += c.byte_size();
    return b;
  }
};

constexpr size_t kBatchSize = 2048;

}  // namespace hindsight
