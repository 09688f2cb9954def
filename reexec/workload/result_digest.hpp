#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/storage/column_vector.hpp"

namespace hindsight::workload {

/// A query's result reduced to a digest that another plan of the same query reproduces: each row's canonical
/// bytes (per cell a NULL tag or a value: integers as stored, strings length-prefixed, doubles with 10
/// significant digits so that another summation order or worker count does not change the digest), hashed
/// with XXH3-64. `ordered`: the
/// row hashes are hashed in order (a top-level ORDER BY); otherwise sorted first (any order gives one digest).
struct Digest {
  uint64_t rows = 0;
  std::string hex;  ///< 16 hex digits
  bool ordered = false;
};
Digest result_digest(const std::vector<Batch>& batches, bool ordered);

}  // namespace hindsight::workload
