#pragma once
#include <cstdint>
#include <vector>

#include "planner/exec/key_columns.hpp"
#include "planner/exec/sort_key.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// Orders rows of one set of columns by a list of SortKeys (ascending/descending, NULLs first/last).
/// Holds raw pointers: rebuild it after the columns change.
class RowComparator {
 public:
  RowComparator(const std::vector<ColumnVector>& columns, const std::vector<SortKey>& keys);

  /// Negative, zero or positive as row a sorts before, equal to or after row b.
  int compare(size_t a, size_t b) const {
    for (const Key& k : keys_) {
      bool an = k.col.is_null(a), bn = k.col.is_null(b);
      if (an || bn) {
        if (an && bn) continue;
        return an == k.nulls_first ? -1 : 1;
      }
      int c = 0;
      switch (k.col.kind) {
        case PhysicalKind::Int64: {
          int64_t x = k.col.ints[a], y = k.col.ints[b];
          c = x < y ? -1 : (y < x ? 1 : 0);
          break;
        }
        case PhysicalKind::Double: {
          double x = k.col.dbls[a], y = k.col.dbls[b];
          c = x < y ? -1 : (y < x ? 1 : 0);
          break;
        }
        case PhysicalKind::String: c = k.col.strs[a].compare(k.col.strs[b]); break;
      }
      if (c != 0) return k.ascending ? c : -c;
    }
    return 0;
  }
  bool less(size_t a, size_t b) const { return compare(a, b) < 0; }

 private:
  struct Key {
    KeyColumn col;
    bool ascending;
    bool nulls_first;
  };
  std::vector<Key> keys_;
};

/// Orders row `ra` of `a` against row `rb` of `b` (two sets of columns of one layout) by `keys`, as
/// RowComparator orders two rows of one set: negative, zero or positive. The external sort's merge compares the
/// heads of different runs with it.
int compare_rows_across(const std::vector<ColumnVector>& a, size_t ra, const std::vector<ColumnVector>& b, size_t rb,
                        const std::vector<SortKey>& keys);

/// Sorts `perm` (row indexes into `columns`) by `keys`, ties in ascending row index (stable for a perm in row
/// order, as the operators pass it). O(n log n) comparisons of 16-byte entries holding a normalized image of
/// the first key (8 bytes of it for a string); runs that tie are refined with the next 8 bytes or the next key,
/// so rows are read once per level rather than once per comparison. Same order as RowComparator.
/// Needs sort_scratch_bytes(perm.size()) of scratch memory besides `perm` (callers charge it).
void sort_rows(const std::vector<ColumnVector>& columns, const std::vector<SortKey>& keys, std::vector<uint32_t>& perm);
/// Scratch bytes sort_rows() allocates for `rows` rows.
size_t sort_scratch_bytes(size_t rows);

}  // namespace hindsight
