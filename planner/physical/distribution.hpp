#pragma once
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

struct Distribution {
  StreamDistribution kind = StreamDistribution::Any;
  std::vector<ColumnId> columns;  ///< Hashed
  int buckets = 0;                ///< Hashed

  static Distribution any() { return {}; }
  static Distribution single() { return {StreamDistribution::Single, {}, 0}; }
  static Distribution replicated() { return {StreamDistribution::Replicated, {}, 0}; }
  static Distribution hashed(std::vector<ColumnId> cols, int buckets) {
    return {StreamDistribution::Hashed, std::move(cols), buckets};
  }
  /// Runs as one instance: its output is complete on a single worker.
  bool is_single_instance() const {
    return kind == StreamDistribution::Single || kind == StreamDistribution::Replicated;
  }
  std::string to_string() const;
};

}  // namespace hindsight
