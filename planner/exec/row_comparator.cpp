#include "planner/exec/row_comparator.hpp"

#include <algorithm>
#include <cstring>

#include "planner/exec/prefix_sorter.hpp"

namespace hindsight {

RowComparator::RowComparator(const std::vector<ColumnVector>& columns, const std::vector<SortKey>& keys) {
  keys_.reserve(keys.size());
  for (const SortKey& k : keys)
    keys_.push_back({KeyColumn::of(columns[static_cast<size_t>(k.column)]), k.ascending, k.nulls_first});
}

int compare_rows_across(const std::vector<ColumnVector>& a, size_t ra, const std::vector<ColumnVector>& b, size_t rb,
                        const std::vector<SortKey>& keys) {
  for (const SortKey& k : keys) {
    const ColumnVector& x = a[static_cast<size_t>(k.column)];
    const ColumnVector& y = b[static_cast<size_t>(k.column)];
    const bool xn = x.is_null(ra), yn = y.is_null(rb);
    if (xn || yn) {
      if (xn && yn) continue;
      return xn == k.nulls_first ? -1 : 1;
    }
    int c = 0;
    switch (x.type.physical()) {
      case PhysicalKind::Int64: {
        const int64_t u = x.ints[ra], v = y.ints[rb];
        c = u < v ? -1 : (v < u ? 1 : 0);
        break;
      }
      case PhysicalKind::Double: {
        const double u = x.dbls[ra], v = y.dbls[rb];
        c = u < v ? -1 : (v < u ? 1 : 0);
        break;
      }
      case PhysicalKind::String: c = x.strs[ra].compare(y.strs[rb]); break;
    }
    if (c != 0) return k.ascending ? c : -c;
  }
  return 0;
}

namespace {

/// prefix_sort's view of a set of ColumnVectors: key k is column keys[k].column.
class VectorRows {
 public:
  VectorRows(const std::vector<ColumnVector>& columns, const std::vector<SortKey>& keys) {
    for (const SortKey& k : keys) cols_.push_back(&columns[static_cast<size_t>(k.column)]);
    for (size_t k = 0; k < keys.size(); ++k)
      rest_.emplace_back(columns, std::vector<SortKey>(keys.begin() + static_cast<std::ptrdiff_t>(k), keys.end()));
  }
  PhysicalKind kind(size_t key) const { return cols_[key]->type.physical(); }
  bool is_null(size_t key, uint32_t r) const { return cols_[key]->is_null(r); }
  int64_t int_at(size_t key, uint32_t r) const { return cols_[key]->ints[r]; }
  double dbl_at(size_t key, uint32_t r) const { return cols_[key]->dbls[r]; }
  std::string_view str_at(size_t key, uint32_t r) const { return cols_[key]->strs[r]; }
  int compare_from(size_t key, uint32_t a, uint32_t b) const { return rest_[key].compare(a, b); }

 private:
  std::vector<const ColumnVector*> cols_;
  std::vector<RowComparator> rest_;  ///< rest_[k]: the comparator over keys k, k+1, ...
};

}  // namespace

size_t sort_scratch_bytes(size_t rows) { return rows * sizeof(prefix_sort::SortEntry); }

void sort_rows(const std::vector<ColumnVector>& columns, const std::vector<SortKey>& keys, std::vector<uint32_t>& perm) {
  if (keys.empty() || perm.size() < 2) return;
  prefix_sort::sort_perm(VectorRows(columns, keys), keys, perm);
}

}  // namespace hindsight
