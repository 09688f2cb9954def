#include "planner/exec/batch_gather.hpp"

#include <algorithm>

namespace hindsight {

void reset_batch(Batch& b, const std::vector<DataType>& types) {
  b.columns.resize(types.size());
  for (size_t c = 0; c < types.size(); ++c) {
    b.columns[c].clear();
    b.columns[c].type = types[c];
  }
  b.rows = 0;
}

std::vector<DataType> batch_types(const Batch& b) {
  std::vector<DataType> t;
  t.reserve(b.columns.size());
  for (auto& c : b.columns) t.push_back(c.type);
  return t;
}

void append_range(ColumnVector& dst, const ColumnVector& src, size_t begin, size_t end) {
  size_t base = dst.size();
  switch (dst.type.physical()) {
    case PhysicalKind::Int64: dst.ints.insert(dst.ints.end(), src.ints.begin() + begin, src.ints.begin() + end); break;
    case PhysicalKind::Double: dst.dbls.insert(dst.dbls.end(), src.dbls.begin() + begin, src.dbls.begin() + end); break;
    case PhysicalKind::String: dst.strs.insert(dst.strs.end(), src.strs.begin() + begin, src.strs.begin() + end); break;
  }
  if (src.has_nulls() || dst.has_nulls()) {
    if (dst.nulls.empty()) dst.nulls.assign(base, 0);
    if (src.has_nulls()) dst.nulls.insert(dst.nulls.end(), src.nulls.begin() + begin, src.nulls.begin() + end);
    else dst.nulls.resize(base + (end - begin), 0);
  }
}

void append_nulls(ColumnVector& dst, size_t n) {
  if (n == 0) return;
  const size_t base = dst.size();
  const bool had_mask = dst.has_nulls();
  dst.resize(base + n);  // value slots (zero / empty); extends an existing mask with 0
  if (!had_mask) dst.nulls.assign(base, 0);
  dst.nulls.resize(base + n, 1);
  std::fill(dst.nulls.begin() + static_cast<std::ptrdiff_t>(base), dst.nulls.end(), 1);
}

void append_moved(ColumnVector& dst, ColumnVector&& src) {
  if (dst.size() == 0) {
    // Take over the buffers; the destination keeps its own type.
    dst.ints = std::move(src.ints);
    dst.dbls = std::move(src.dbls);
    dst.strs = std::move(src.strs);
    dst.nulls = std::move(src.nulls);
    return;
  }
  if (dst.type.physical() != PhysicalKind::String) return dst.append_all(src);
  size_t base = dst.size();
  grow_for_append(dst.strs, src.strs.size());
  for (auto& s : src.strs) dst.strs.push_back(std::move(s));
  if (src.has_nulls() || dst.has_nulls()) {
    if (dst.nulls.empty()) dst.nulls.assign(base, 0);
    if (src.has_nulls()) dst.nulls.insert(dst.nulls.end(), src.nulls.begin(), src.nulls.end());
    else dst.nulls.resize(dst.strs.size(), 0);
  }
}

int64_t append_batch_moved(std::vector<ColumnVector>& dst, Batch&& in) {
  int64_t grown = 0;
  for (size_t c = 0; c < dst.size(); ++c) {
    const int64_t before = static_cast<int64_t>(dst[c].buffer_bytes());
    grown += static_cast<int64_t>(in.columns[c].string_heap_bytes());
    append_moved(dst[c], std::move(in.columns[c]));
    grown += static_cast<int64_t>(dst[c].buffer_bytes()) - before;
  }
  return grown;
}

void gather_batch(const Batch& in, const std::vector<uint32_t>& sel, Batch& out) {
  out.columns.resize(in.columns.size());
  for (size_t c = 0; c < in.columns.size(); ++c) {
    out.columns[c].clear();
    out.columns[c].type = in.columns[c].type;
    out.columns[c].append_selected(in.columns[c], sel);
  }
  out.rows = sel.size();
}

void append_selected_moved(ColumnVector& dst, ColumnVector& src, const std::vector<uint32_t>& sel) {
  if (src.type.physical() != PhysicalKind::String) return dst.append_selected(src, sel);
  const size_t base = dst.size();
  grow_for_append(dst.strs, sel.size());
  for (uint32_t r : sel) dst.strs.push_back(std::move(src.strs[r]));
  if (src.has_nulls() || dst.has_nulls()) {
    if (dst.nulls.empty()) dst.nulls.assign(base, 0);
    dst.nulls.resize(base + sel.size(), 0);
    if (src.has_nulls())
      for (size_t k = 0; k < sel.size(); ++k) dst.nulls[base + k] = src.nulls[sel[k]];
  }
}

void gather_batch_moved(Batch& in, const std::vector<uint32_t>& sel, Batch& out) {
  out.columns.resize(in.columns.size());
  for (size_t c = 0; c < in.columns.size(); ++c) {
    out.columns[c].clear();
    out.columns[c].type = in.columns[c].type;
    append_selected_moved(out.columns[c], in.columns[c], sel);
  }
  out.rows = sel.size();
}

void append_selected_columns(const std::vector<ColumnVector>& src, const std::vector<uint32_t>& sel,
                             std::vector<ColumnVector>& dst, size_t first) {
  for (size_t c = 0; c < src.size(); ++c) dst[first + c].append_selected(src[c], sel);
}

}  // namespace hindsight
