#include "planner/exec/key_columns.hpp"

namespace hindsight {

std::vector<KeyColumn> key_views(const std::vector<const ColumnVector*>& cols) {
  std::vector<KeyColumn> v;
  v.reserve(cols.size());
  for (auto* c : cols) v.push_back(KeyColumn::of(*c));
  return v;
}

std::vector<KeyColumn> key_views(const std::vector<ColumnVector>& cols, const std::vector<int>& which) {
  std::vector<KeyColumn> v;
  v.reserve(which.size());
  for (int i : which) v.push_back(KeyColumn::of(cols[static_cast<size_t>(i)]));
  return v;
}

bool null_key_rows(const std::vector<const ColumnVector*>& keys, size_t rows, std::vector<uint8_t>& out) {
  out.assign(rows, 0);
  bool any = false;
  for (auto* c : keys) {
    if (!c->has_nulls()) continue;
    const uint8_t* n = c->nulls.data();
    for (size_t r = 0; r < rows; ++r) out[r] |= n[r];
    any = true;
  }
  if (!any) return false;
  for (size_t r = 0; r < rows; ++r)
    if (out[r]) return true;
  return false;
}

}  // namespace hindsight
