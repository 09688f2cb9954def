#include "planner/storage/column_vector.hpp"

#include <algorithm>

namespace hindsight {

void ColumnVector::reserve(size_t n) {
  switch (type.physical()) {
    case PhysicalKind::Int64: ints.reserve(n); break;
    case PhysicalKind::Double: dbls.reserve(n); break;
    case PhysicalKind::String: strs.reserve(n); break;
  }
}

void ColumnVector::resize(size_t n) {
  switch (type.physical()) {
    case PhysicalKind::Int64: ints.resize(n); break;
    case PhysicalKind::Double: dbls.resize(n); break;
    case PhysicalKind::String: strs.resize(n); break;
  }
  if (!nulls.empty()) nulls.resize(n, 0);
}

void ColumnVector::clear() {
  ints.clear();
  dbls.clear();
  strs.clear();
  nulls.clear();
}

void ColumnVector::set_null(size_t row) {
  if (nulls.empty()) nulls.assign(size(), 0);
  nulls[row] = 1;
}

void ColumnVector::append_null() {
  if (nulls.empty()) nulls.assign(size(), 0);
  switch (type.physical()) {
    case PhysicalKind::Int64: ints.push_back(0); break;
    case PhysicalKind::Double: dbls.push_back(0); break;
    case PhysicalKind::String: strs.emplace_back(); break;
  }
  nulls.push_back(1);
}

void ColumnVector::append_value(const Value& v) {
  if (v.is_null) return append_null();
  switch (type.physical()) {
    case PhysicalKind::Int64: append_int(v.i); break;
    case PhysicalKind::Double: append_double(v.type.physical() == PhysicalKind::Double ? v.d : v.as_double()); break;
    case PhysicalKind::String: append_string(v.s); break;
  }
}

void ColumnVector::append_from(const ColumnVector& src, size_t row) {
  if (src.is_null(row)) return append_null();
  switch (type.physical()) {
    case PhysicalKind::Int64: append_int(src.ints[row]); break;
    case PhysicalKind::Double: append_double(src.dbls[row]); break;
    case PhysicalKind::String: append_string(src.strs[row]); break;
  }
}

void ColumnVector::append_selected(const ColumnVector& src, const std::vector<uint32_t>& sel) {
  size_t base = size();
  switch (type.physical()) {
    case PhysicalKind::Int64:
      ints.resize(base + sel.size());
      for (size_t k = 0; k < sel.size(); ++k) ints[base + k] = src.ints[sel[k]];
      break;
    case PhysicalKind::Double:
      dbls.resize(base + sel.size());
      for (size_t k = 0; k < sel.size(); ++k) dbls[base + k] = src.dbls[sel[k]];
      break;
    case PhysicalKind::String:
      grow_for_append(strs, sel.size());
      for (size_t k = 0; k < sel.size(); ++k) strs.push_back(src.strs[sel[k]]);
      break;
  }
  if (src.has_nulls() || has_nulls()) {
    if (nulls.empty()) nulls.assign(base, 0);
    nulls.resize(base + sel.size(), 0);
    if (src.has_nulls())
      for (size_t k = 0; k < sel.size(); ++k) nulls[base + k] = src.nulls[sel[k]];
  }
}

void ColumnVector::append_all(const ColumnVector& src) {
  size_t base = size();
  switch (type.physical()) {
    case PhysicalKind::Int64: ints.insert(ints.end(), src.ints.begin(), src.ints.end()); break;
    case PhysicalKind::Double: dbls.insert(dbls.end(), src.dbls.begin(), src.dbls.end()); break;
    case PhysicalKind::String: strs.insert(strs.end(), src.strs.begin(), src.strs.end()); break;
  }
  if (src.has_nulls() || has_nulls()) {
    if (nulls.empty()) nulls.assign(base, 0);
    if (src.has_nulls()) nulls.insert(nulls.end(), src.nulls.begin(), src.nulls.end());
    else nulls.resize(size(), 0);
  }
}

Value ColumnVector::get(size_t row) const {
  if (is_null(row)) return Value::null(type);
  Value v;
  v.type = type;
  v.is_null = false;
  switch (type.physical()) {
    case PhysicalKind::Int64: v.i = ints[row]; break;
    case PhysicalKind::Double: v.d = dbls[row]; break;
    case PhysicalKind::String: v.s = strs[row]; break;
  }
  return v;
}

size_t ColumnVector::string_heap_bytes() const {
  size_t b = 0;
  for (const auto& s : strs) b += string_heap_block(s);
  return b;
}

size_t ColumnVector::byte_size() const {
  size_t b = ints.size() * 8 + dbls.size() * 8 + nulls.size();
  for (auto& s : strs) b += sizeof(std::string) + (s.size() > 15 ? s.size() : 0);
  return b;
}

}  // namespace hindsight
