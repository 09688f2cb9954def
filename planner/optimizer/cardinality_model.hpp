#pragma once
#include <functional>

#include "planner/logical/logical_operator.hpp"

namespace hindsight {

/// First-version cardinality model ("model" estimates): table row counts and fixed selectivities
/// (equality 0.1, range 0.3, LIKE 0.25, IN 0.1 per item, other 0.5; independent conjuncts),
/// joins by the foreign-key assumption (the larger input), semi/anti joins keep half, aggregates
/// a tenth of their input. Sets estimated_rows on every node. The cost-based optimizer issue
/// replaces the fixed selectivities with statistics.
class CardinalityModel {
 public:
  explicit CardinalityModel(std::function<double(const TableDef&)> table_rows) : table_rows_(std::move(table_rows)) {}
  double estimate(LogicalOperator& op);
  static double selectivity(const Expr& conjunct);
  /// Rows of materialized CTE i (its producer's estimate).
  void set_cte_rows(std::function<double(int)> fn) { cte_rows_ = std::move(fn); }

 private:
  std::function<double(const TableDef&)> table_rows_;
  std::function<double(int)> cte_rows_;
};

}  // namespace hindsight
