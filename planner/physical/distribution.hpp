#pragma once
#include <functional>
#include <string>
#include <vector>

#include "planner/expr/expr.hpp"

namespace hindsight {

/// Where the rows of a stream live across the N workers.

enum class StreamDistribution : uint8_t {
  Any,         ///< spread over the workers in no known way
  Hashed,      ///< row on worker bucket_of(hash(columns), buckets) % workers
  Replicated,  ///< every worker holds all rows (reference tables, broadcasts): computed once, read anywhere
  Single,      ///< all rows on one worker
};

/// A co-location mapping carried by a hashed stream: rows equal on `columns` share a bucket,
/// because they determine the hash key (catalog "colocation"). Two streams with the same mapping
/// id and bucket count are co-located on those columns.
struct MappedKey {
  std::string mapping;
  std::vector<ColumnId> columns;
};

/// The mapping id of columns equal, row by row, to the stream's hash key columns (an inner equi-join's other side):
/// rows equal on them share the bucket their hash key gives (join_ways: add_equal_keys).
inline constexpr const char* kEqualKeys = "=key";

struct Distribution {
  StreamDistribution kind = StreamDistribution::Any;
  std::vector<ColumnId> columns;  ///< Hashed
  int buckets = 0;                ///< Hashed
  std::vector<MappedKey> mapped;  ///< Hashed: co-location mappings that also hold

  static Distribution any() { return {}; }
  static Distribution single() { return {StreamDistribution::Single, {}, 0, {}}; }
  static Distribution replicated() { return {StreamDistribution::Replicated, {}, 0, {}}; }
  static Distribution hashed(std::vector<ColumnId> cols, int buckets) {
    return {StreamDistribution::Hashed, std::move(cols), buckets, {}};
  }
  /// Runs as one instance: its output is complete on a single worker.
  bool is_single_instance() const {
    return kind == StreamDistribution::Single || kind == StreamDistribution::Replicated;
  }
  std::string to_string() const;
  /// With column names, e.g. "hashed(o_orderkey; 4 buckets; mapping tenant(o_custkey))".
  std::string describe(const std::function<std::string(ColumnId)>& name) const;
};

}  // namespace hindsight
