#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// Raw pointers into one key column, for tight comparison loops in hash tables. Invalidated when the column
/// reallocates: take a fresh view after appending to it.
struct KeyColumn {
  PhysicalKind kind = PhysicalKind::Int64;
  const int64_t* ints = nullptr;
  const double* dbls = nullptr;
  const std::string* strs = nullptr;
  const uint8_t* nulls = nullptr;  ///< nullptr when the column has no NULL mask

  static KeyColumn of(const ColumnVector& c) {
    return {c.type.physical(), c.ints.data(), c.dbls.data(), c.strs.data(), c.has_nulls() ? c.nulls.data() : nullptr};
  }
  bool is_null(size_t r) const { return nulls && nulls[r]; }
};

/// Views of several columns.
std::vector<KeyColumn> key_views(const std::vector<const ColumnVector*>& cols);
std::vector<KeyColumn> key_views(const std::vector<ColumnVector>& cols, const std::vector<int>& which);

/// Row `ra` of `a` equals row `rb` of `b` on every key; NULL equals NULL (grouping semantics — joins drop rows with
/// NULL keys before comparing).
inline bool keys_equal(const std::vector<KeyColumn>& a, size_t ra, const std::vector<KeyColumn>& b, size_t rb) {
  for (size_t k = 0; k < a.size(); ++k) {
    const KeyColumn& x = a[k];
    const KeyColumn& y = b[k];
    bool xn = x.is_null(ra), yn = y.is_null(rb);
    if (xn || yn) {
      if (xn != yn) return false;
      continue;
    }
    switch (x.kind) {
      case PhysicalKind::Int64:
        if (x.ints[ra] != y.ints[rb]) return false;
        break;
      case PhysicalKind::Double:
        if (!(x.dbls[ra] == y.dbls[rb])) return false;
        break;
      case PhysicalKind::String:
        if (x.strs[ra] != y.strs[rb]) return false;
        break;
    }
  }
  return true;
}

/// Slot of `hash` in a power-of-two table of 2^(64 - shift) slots. Uses the high bits of a multiplicative mix:
/// rows that reached this worker through a repartition share hash % workers, so the low bits alone would cluster.
inline size_t slot_of(uint64_t hash, int shift) { return static_cast<size_t>((hash * 0x9E3779B97F4A7C15ULL) >> shift); }

/// Sets out[r] = 1 for rows with a NULL in any key column, else 0; returns whether any row has one.
bool null_key_rows(const std::vector<const ColumnVector*>& keys, size_t rows, std::vector<uint8_t>& out);

}  // namespace hindsight
