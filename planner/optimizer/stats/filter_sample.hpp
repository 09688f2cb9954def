#pragma once
#include <functional>
#include <optional>
#include <vector>

#include "planner/expr/expr.hpp"
#include "planner/optimizer/stats/table_statistics.hpp"

namespace hindsight {

/// Fewer sampled rows kept than this: the sample cannot tell (about 30 % relative error at 10).
constexpr uint64_t kMinFilterSampleHits = 10;

/// The share of a table's rows that every one of `filters` keeps (TRUE, not FALSE or NULL), judged on the table's
/// filter sample. `table_column` gives the table column a ColumnRef reads (-1: not this table's). nullopt when
/// there is no sample, a filter reads another column or cannot be evaluated on it, or it keeps fewer than
/// kMinFilterSampleHits rows.
std::optional<double> sampled_filter_share(const TableStatistics& stats, const std::vector<ExprPtr>& filters,
                                           const std::function<int(ColumnId)>& table_column);

}  // namespace hindsight
