#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "planner/storage/connector/scan_source.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight {

/// How the physical planner pushes work into a connector, without knowing which connector it is. One builder per
/// scan, used in this order:
///   1. offer_projection(columns, outputs): the table columns the scan produces, one per output ColumnId;
///   2. offer_filter(conjunct) for each conjunct of the scan's filter (over the outputs, by ColumnId): true when
///      the connector evaluates it completely (exactly the SQL semantics, NULLs included); a refused conjunct
///      is evaluated by a Filter above the scan;
///   3. offer_filter_only(n) (only when every conjunct was accepted and the last n offered columns are read by the
///      conjuncts alone): true when the scan reads them for its filter but does not produce them;
///   4. offer_limit(n) (only when every conjunct was accepted and a LIMIT n sits above the scan with nothing but
///      projections between): true when the scan stops after n rows (per worker instance or in total; a Limit
///      above it still applies the final limit and offset);
///   5. accepted_pushdowns() for EXPLAIN, then build().
/// Sorts and aggregates are not offered yet (no connector accepts them).
class TableScanBuilder {
 public:
  virtual ~TableScanBuilder() = default;
  /// True when the connector reads only these columns (both connectors do); the scan produces exactly `columns`
  /// in order either way.
  virtual bool offer_projection(const std::vector<int>& columns, const std::vector<ColumnId>& outputs) = 0;
  virtual bool offer_filter(const Expr& conjunct) = 0;
  /// True when the scan then produces only the first columns.size() - n offered columns (the others are read by
  /// its accepted filter only, so that they do not travel through the plan). The default refuses: the scan
  /// produces every offered column and the planner drops the n with a projection above it.
  virtual bool offer_filter_only(size_t n) {
    (void)n;
    return false;
  }
  virtual bool offer_limit(int64_t limit) = 0;
  /// The accepted pushdowns as readable text, e.g. {"filter(s_acctbal > 0.00)", "project(3 of 7)", "limit 10"}.
  virtual std::vector<std::string> accepted_pushdowns() const = 0;
  /// The scan, with every accepted pushdown. Called once, last.
  virtual ScanSourcePtr build() = 0;
};

/// "a, b, c": the pushdown list as one EXPLAIN value.
std::string join_pushdowns(const std::vector<std::string>& items);

}  // namespace hindsight
