#include "planner/exec/row_comparator.hpp"

#include <algorithm>

namespace hindsight {

RowComparator::RowComparator(const std::vector<ColumnVector>& columns, const std::vector<SortKey>& keys) {
  keys_.reserve(keys.size());
  for (const SortKey& k : keys)
    keys_.push_back({KeyColumn::of(columns[static_cast<size_t>(k.column)]), k.ascending, k.nulls_first});
}

void sort_rows(const std::vector<ColumnVector>& columns, const std::vector<SortKey>& keys, std::vector<uint32_t>& perm) {
  if (keys.empty() || perm.size() < 2) return;
  const ColumnVector& first = columns[static_cast<size_t>(keys[0].column)];
  RowComparator cmp(columns, keys);
  if (first.type.physical() == PhysicalKind::Int64 && !first.has_nulls()) {
    // Common case (dates, integers, decimals): sort (first key, row) pairs, which keeps the hot compare in
    // registers; ties on the first key fall back to the full comparator, and the row index keeps it stable.
    const int64_t* v = first.ints.data();
    bool asc = keys[0].ascending;
    std::vector<std::pair<int64_t, uint32_t>> pairs(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) pairs[i] = {v[perm[i]], perm[i]};
    bool more_keys = keys.size() > 1;
    std::sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
      if (x.first != y.first) return asc ? x.first < y.first : x.first > y.first;
      if (more_keys) {
        int c = cmp.compare(x.second, y.second);
        if (c != 0) return c < 0;
      }
      return x.second < y.second;
    });
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = pairs[i].second;
    return;
  }
  std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) { return cmp.less(a, b); });
}

}  // namespace hindsight
