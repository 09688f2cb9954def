#include "reexec/workload/result_digest.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>

namespace hindsight::workload {

namespace {

/// A cell's canonical bytes: a tag (0 NULL, 1 a value), then the value; a string is length-prefixed, so that no
/// string (one holding the tag or separator bytes included) reads like another cell or a NULL.
void append_cell(const ColumnVector& c, size_t row, std::string& out) {
  if (c.is_null(row)) {
    out += '\0';
    return;
  }
  out += '\1';
  switch (c.type.physical()) {
    case PhysicalKind::Int64:
      // Integers, dates and decimals are exact: their stored form (the type is part of the query, the same
      // for every plan).
      out += fmt::format("{}", c.ints[row]);
      return;
    case PhysicalKind::Double: {
      double v = c.dbls[row];
      if (v == 0) v = 0;  // -0 and 0 alike
      out += fmt::format("{:.10g}", v);
      return;
    }
    case PhysicalKind::String:
      out += fmt::format("{}:", c.strs[row].size());
      out += c.strs[row];
      return;
  }
}

}  // namespace

Digest result_digest(const std::vector<Batch>& batches, bool ordered) {
  Digest d;
  d.ordered = ordered;
  std::vector<uint64_t> hashes;
  std::string line;
  for (const Batch& b : batches)
    for (size_t r = 0; r < b.rows; ++r) {
      line.clear();
      for (const ColumnVector& c : b.columns) {
        append_cell(c, r, line);
        line += ';';
      }
      hashes.push_back(XXH3_64bits(line.data(), line.size()));
    }
  d.rows = hashes.size();
  if (!ordered) std::sort(hashes.begin(), hashes.end());
  const uint64_t all = XXH3_64bits(hashes.data(), hashes.size() * sizeof(uint64_t));
  d.hex = fmt::format("{:016x}", all);
  return d;
}

}  // namespace hindsight::workload
