#pragma once
#include <functional>

#include "planner/logical/logical_operator.hpp"

namespace hindsight {

struct ColumnStatistics;

/// The classical cardinality model ("model" estimates). With column statistics (set_column_stats):
/// comparisons, IN lists, LIKE prefixes and IS NULL on a column against constants use the
/// column's histogram, most common values and null count; equi-joins use containment
/// (|R ⋈ S| = |R|·|S| / max(ndv)); GROUP BY yields the product of the keys' distinct counts
/// capped by the input. Conjuncts are independent. Without statistics for a column it falls back
/// to fixed selectivities (equality 0.1, range 0.3, LIKE 0.25, IN 0.1 per item, other 0.5),
/// joins by the foreign-key assumption, aggregates a tenth of their input. Sets estimated_rows on
/// every node.
class CardinalityModel {
 public:
  explicit CardinalityModel(std::function<double(const TableDef&)> table_rows) : table_rows_(std::move(table_rows)) {}
  double estimate(LogicalOperator& op);
  double selectivity(const Expr& conjunct) const;
  /// Fraction of the cross product of two inputs a join condition keeps: containment from
  /// statistics for column = column, else the foreign-key guess 1 / max(rows), else 0.3.
  double join_condition_selectivity(const Expr& condition, double left_rows, double right_rows) const;
  /// Statistics of a column by its lineage (nullptr when unknown).
  void set_column_stats(std::function<const ColumnStatistics*(ColumnId)> fn) { column_stats_ = std::move(fn); }
  /// Rows of materialized CTE i (its producer's estimate).
  void set_cte_rows(std::function<double(int)> fn) { cte_rows_ = std::move(fn); }

 private:
  std::function<double(const TableDef&)> table_rows_;
  std::function<double(int)> cte_rows_;
  std::function<const ColumnStatistics*(ColumnId)> column_stats_;
  double fixed_selectivity(const Expr& e) const;
  const ColumnStatistics* stats_of(const Expr& e) const;
};

}  // namespace hindsight
