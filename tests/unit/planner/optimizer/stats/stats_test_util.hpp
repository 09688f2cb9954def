#pragma once
// Builders for statistics tests: columns from vectors, tables dealt into buckets, seeded data generators.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "planner/optimizer/stats/table_statistics.hpp"
#include "planner/storage/table.hpp"

namespace hindsight::stats_test {

inline ColumnVector int_column(DataType type, const std::vector<int64_t>& values) {
  ColumnVector c(type);
  c.ints = values;
  return c;
}

inline ColumnVector double_column(const std::vector<double>& values) {
  ColumnVector c(DataType::float64());
  c.dbls = values;
  return c;
}

inline ColumnVector string_column(const std::vector<std::string>& values) {
  ColumnVector c(DataType::varchar());
  c.strs = values;
  return c;
}

/// Marks every row r with r % every == 0 as NULL.
inline ColumnVector with_nulls(ColumnVector c, size_t every) {
  for (size_t r = 0; r < c.size(); r += every) c.set_null(r);
  return c;
}

/// A table of the given named columns (equal lengths), rows dealt round-robin into `buckets` buckets.
inline Table make_table(const std::string& name, const std::vector<std::pair<std::string, ColumnVector>>& columns,
                        int buckets = 4, uint64_t data_version = 1) {
  Table t;
  t.def.name = name;
  t.def.buckets = buckets;
  t.data_version = data_version;
  for (const auto& [col_name, col] : columns) t.def.columns.push_back({col_name, col.type, true});
  t.buckets.resize(static_cast<size_t>(buckets));
  for (auto& bucket : t.buckets) {
    for (const auto& [col_name, col] : columns) bucket.emplace_back(col.type);
  }
  const size_t rows = columns.empty() ? 0 : columns[0].second.size();
  for (size_t r = 0; r < rows; ++r) {
    auto& bucket = t.buckets[r % static_cast<size_t>(buckets)];
    for (size_t c = 0; c < columns.size(); ++c) bucket[c].append_from(columns[c].second, r);
  }
  t.row_count = rows;
  return t;
}

/// Statistics of a one-column table.
inline ColumnStatistics column_stats(const ColumnVector& column, int buckets = 4) {
  return analyze_table(make_table("t", {{"c", column}}, buckets)).columns.at(0);
}

/// `n` values uniform in [0, range), seeded.
inline std::vector<int64_t> uniform_ints(size_t n, int64_t range, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> out(n);
  for (auto& v : out) v = static_cast<int64_t>(rng() % static_cast<uint64_t>(range));
  return out;
}

/// `n` values in [1, domain] drawn from Zipf(s): value k has weight 1 / k^s.
inline std::vector<int64_t> zipf_ints(size_t n, int64_t domain, double s, uint64_t seed) {
  std::vector<double> cdf(static_cast<size_t>(domain));
  double sum = 0;
  for (int64_t k = 1; k <= domain; ++k) cdf[static_cast<size_t>(k - 1)] = (sum += 1.0 / std::pow(k, s));
  std::mt19937_64 rng(seed);
  std::vector<int64_t> out(n);
  for (auto& v : out) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53 * sum;
    v = static_cast<int64_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin()) + 1;
    if (v > domain) v = domain;
  }
  return out;
}

/// Expects `estimate` (rows) within `factor` of `exact` (rows) in both directions.
inline void expect_within(double estimate, double exact, double factor, const std::string& what) {
  EXPECT_GE(estimate * factor, exact) << what << ": estimate " << estimate << " vs exact " << exact;
  EXPECT_LE(estimate, exact * factor) << what << ": estimate " << estimate << " vs exact " << exact;
}

inline void expect_same_values(const Value& a, const Value& b) {
  EXPECT_TRUE(a == b) << a.to_sql() << " vs " << b.to_sql();
}

/// Field-by-field equality of two statistics (for determinism tests).
inline void expect_same(const TableStatistics& a, const TableStatistics& b) {
  EXPECT_EQ(a.table, b.table);
  EXPECT_EQ(a.row_count, b.row_count);
  EXPECT_EQ(a.data_version, b.data_version);
  ASSERT_EQ(a.columns.size(), b.columns.size());
  for (size_t c = 0; c < a.columns.size(); ++c) {
    const ColumnStatistics& x = a.columns[c];
    const ColumnStatistics& y = b.columns[c];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_TRUE(x.type == y.type);
    EXPECT_EQ(x.rows, y.rows);
    EXPECT_EQ(x.null_count, y.null_count);
    EXPECT_EQ(x.distinct, y.distinct);
    EXPECT_EQ(x.sampled, y.sampled);
    ASSERT_EQ(x.min.has_value(), y.min.has_value());
    if (x.min) expect_same_values(*x.min, *y.min);
    if (x.max) expect_same_values(*x.max, *y.max);
    EXPECT_EQ(x.histogram.to_string(), y.histogram.to_string());
    ASSERT_EQ(x.most_common.size(), y.most_common.size());
    for (size_t i = 0; i < x.most_common.size(); ++i) {
      expect_same_values(x.most_common[i].first, y.most_common[i].first);
      EXPECT_EQ(x.most_common[i].second, y.most_common[i].second);
    }
  }
  ASSERT_EQ(a.column_sets.size(), b.column_sets.size());
  for (size_t k = 0; k < a.column_sets.size(); ++k) {
    EXPECT_EQ(a.column_sets[k].columns, b.column_sets[k].columns);
    EXPECT_EQ(a.column_sets[k].distinct, b.column_sets[k].distinct);
  }
  EXPECT_EQ(a.filter_sample_rows(), b.filter_sample_rows());
  ASSERT_EQ(a.filter_sample.size(), b.filter_sample.size());
  for (size_t c = 0; c < a.filter_sample.size(); ++c) {
    ASSERT_EQ(a.filter_sample[c].size(), b.filter_sample[c].size());
    for (size_t r = 0; r < a.filter_sample[c].size(); ++r)
      expect_same_values(a.filter_sample[c].get(r), b.filter_sample[c].get(r));
  }
}

}  // namespace hindsight::stats_test
