#pragma once

#include <string>

namespace hindsight::mapper {

/// One observed row count attached to a mapped entity.
struct StatsRecord {
  double rows = 0;
  /// false = a lower bound: the operator's output was cut short (LIMIT early exit, failed attempt, runtime filter).
  bool complete = true;
  std::string source;  ///< where it came from, e.g. "exec attempt 1", "store"
};

/// True if `candidate` should replace `current` as the best record of a group, `candidate` being the later one.
/// A complete record beats any incomplete one (and the later complete one wins: it saw the newer data); among
/// lower bounds the largest is the tightest; an incomplete record never replaces a complete one.
inline bool supersedes(const StatsRecord& candidate, const StatsRecord& current) {
  if (candidate.complete != current.complete) return candidate.complete;
  return candidate.complete || candidate.rows > current.rows;
}

}  // namespace hindsight::mapper
