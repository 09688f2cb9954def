#pragma once
#include <optional>
#include <string>
#include <vector>

#include "planner/common/value.hpp"
#include "planner/optimizer/stats/column_statistics.hpp"

namespace hindsight {

/// Selectivity estimates from one column's statistics: the expected fraction of the table's rows (NULLs included
/// in the denominator) that satisfy a predicate on the column. Results lie in [0, 1]; 0 means the statistics prove
/// no row matches (e.g. a constant outside [min, max]), so callers should floor row estimates at 1.
/// Constants may have any compatible type (INTEGER vs BIGINT, DECIMAL of another scale, DATE vs 'YYYY-MM-DD');
/// they are normalised with numeric_position. A constant that cannot be compared with the column gets the
/// default selectivity below. Comparisons with NULL select nothing.

constexpr double kDefaultRangeSelectivity = 1.0 / 3.0;
constexpr double kDefaultLikeSelectivity = 0.25;

/// column = v. A most-common value gets its own frequency; any other value an equal share of what the
/// most-common values and NULLs leave: (1 - MCV fraction - null fraction) / (distinct - #MCV).
double eq_selectivity(const ColumnStatistics& cs, const Value& v);

/// column <> v: the non-NULL rows not equal to v.
double ne_selectivity(const ColumnStatistics& cs, const Value& v);

/// lo <(=) column <(=) hi, either bound optional. From the histogram with linear interpolation inside a bucket
/// (integers, decimals and dates as discrete values, doubles as continuous, strings by interpolating the bytes
/// after the bucket bounds' common prefix); exact from the most-common values when they cover the whole column.
double range_selectivity(const ColumnStatistics& cs, const std::optional<Value>& lo, bool lo_inclusive,
                         const std::optional<Value>& hi, bool hi_inclusive);

/// column IN (values): sum of eq_selectivity over the distinct values, capped at the non-NULL fraction.
double in_selectivity(const ColumnStatistics& cs, const std::vector<Value>& values);

/// column LIKE 'prefix%': the range [prefix, prefix with its last byte incremented), but no less than the share of
/// the histogram bounds that start with the prefix (at least half a bound) when there are 20 or more: inside one
/// bucket the range is interpolated byte-wise, which puts a word prefix of names made of words ('forest%') at ~0.
double like_prefix_selectivity(const ColumnStatistics& cs, const std::string& prefix);

/// column LIKE pattern for any pattern (e.g. '%green%'): the most common values are matched
/// exactly; for the other rows the share of histogram bounds that match stands in for a sample
/// (equi-depth bounds are spread like the data). kDefaultLikeSelectivity when the column is not
/// text or has too few bounds to judge.
double like_pattern_selectivity(const ColumnStatistics& cs, const std::string& pattern);

/// column IS NULL.
double null_selectivity(const ColumnStatistics& cs);
/// column IS NOT NULL.
double not_null_selectivity(const ColumnStatistics& cs);

/// Equi-join a = b (containment assumption): (1 - nulls_a)(1 - nulls_b) / max(ndv_a, ndv_b), i.e.
/// 1 / max(ndv_a, ndv_b) for columns without NULLs (NULLs never join).
double join_selectivity(const ColumnStatistics& a, const ColumnStatistics& b);

/// Groups produced by GROUP BY `keys` over `input_rows` rows: the product of the keys' distinct counts (NULL
/// counts as one more group when present), capped by input_rows. 1 for no keys (a global aggregate).
double group_count(const std::vector<const ColumnStatistics*>& keys, double input_rows);

}  // namespace hindsight
