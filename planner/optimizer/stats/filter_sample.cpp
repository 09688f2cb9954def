#include "planner/optimizer/stats/filter_sample.hpp"

#include <algorithm>
#include <iterator>

#include "planner/common/error.hpp"
#include "planner/expr/evaluator.hpp"

namespace hindsight {

namespace {

// Points each ColumnRef at its table column; false when one reads a column the table does not have.
bool resolve(Expr& e, const std::function<int(ColumnId)>& table_column, size_t columns) {
  if (e.kind == ExprKind::ColumnRef) {
    e.index = table_column(e.column_id);
    if (e.index < 0 || static_cast<size_t>(e.index) >= columns) return false;
  }
  for (auto& c : e.children)
    if (!resolve(*c, table_column, columns)) return false;
  return true;
}

}  // namespace

std::optional<double> sampled_filter_share(const TableStatistics& stats, const std::vector<ExprPtr>& filters,
                                           const std::function<int(ColumnId)>& table_column) {
  const uint64_t rows = stats.filter_sample_rows();
  if (rows == 0 || stats.filter_sample.size() != stats.columns.size()) return std::nullopt;
  std::vector<const ColumnVector*> columns;
  for (const ColumnVector& c : stats.filter_sample) columns.push_back(&c);
  std::vector<uint32_t> kept(rows);
  for (uint32_t r = 0; r < rows; ++r) kept[r] = r;
  std::vector<uint32_t> selection, both;
  try {
    for (const ExprPtr& f : filters) {
      ExprPtr e = f->clone();
      if (!resolve(*e, table_column, columns.size())) return std::nullopt;
      evaluate_filter(*e, columns, 0, rows, selection);
      both.clear();
      std::set_intersection(kept.begin(), kept.end(), selection.begin(), selection.end(), std::back_inserter(both));
      kept.swap(both);
    }
  } catch (const Error&) {
    return std::nullopt;  // a conjunct the evaluator cannot take here, or a sampled row it fails on
  }
  if (kept.size() < kMinFilterSampleHits) return std::nullopt;
  return static_cast<double>(kept.size()) / static_cast<double>(rows);
}

}  // namespace hindsight
