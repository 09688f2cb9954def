#pragma once
#include <string>
#include <vector>

#include "planner/expr/expr.hpp"
#include "planner/storage/table.hpp"

namespace hindsight {

/// The columns one scan produces: outputs[i] (a ColumnId of the plan) is table column columns[i]. Shared by the
/// scan builders to read the conjuncts they are offered.
struct ScanLayout {
  TablePtr table;
  std::vector<int> columns;
  std::vector<ColumnId> outputs;

  /// Output position of `id`; -1 if the scan does not produce it.
  int position(ColumnId id) const;
  /// The table column behind output `id` (must be produced by the scan).
  const ColumnDef& column(ColumnId id) const;
  /// Readable text of a conjunct over the outputs, with table column names.
  std::string render(const Expr& e) const;
  /// A copy of `e` with every column reference resolved to its output position (for the evaluator).
  ExprPtr resolve(const Expr& e) const;
  /// "project(3 of 7)": how many of the table's columns the scan reads.
  std::string projection_text() const;
};

}  // namespace hindsight
