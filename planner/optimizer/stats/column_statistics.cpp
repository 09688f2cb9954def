#include "planner/optimizer/stats/column_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "planner/common/hashing.hpp"
#include "planner/optimizer/stats/hyperloglog.hpp"

namespace hindsight {

uint64_t ColumnStatistics::most_common_rows() const {
  uint64_t total = 0;
  for (const auto& [value, count] : most_common) total += count;
  return total;
}

namespace {

// Per physical kind: how to read a cell, order keys, hash them and turn them back into Values.
int64_t key_at(const ColumnVector& cv, size_t row, int64_t*) { return cv.ints[row]; }
double key_at(const ColumnVector& cv, size_t row, double*) { return cv.dbls[row]; }
std::string_view key_at(const ColumnVector& cv, size_t row, std::string_view*) { return cv.strs[row]; }

bool key_less(int64_t a, int64_t b) { return a < b; }
bool key_less(std::string_view a, std::string_view b) { return a < b; }  // bytewise (char_traits compares unsigned)
// A total order for doubles: NaN sorts after every number.
bool key_less(double a, double b) { return a < b || (!std::isnan(a) && std::isnan(b)); }

bool key_same(int64_t a, int64_t b) { return a == b; }
bool key_same(std::string_view a, std::string_view b) { return a == b; }
bool key_same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void key_hash(HyperLogLog& hll, int64_t v) { hll.add_int64(v); }
void key_hash(HyperLogLog& hll, double v) { hll.add_double(v); }
void key_hash(HyperLogLog& hll, std::string_view v) { hll.add_bytes(v); }

struct KeyHash {
  size_t operator()(int64_t v) const { return hash_int64(v); }
  size_t operator()(double v) const {
    if (std::isnan(v)) return kNullHash;  // every NaN is one value (see key_same)
    if (v == 0.0) v = 0.0;
    int64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return hash_int64(bits);
  }
  size_t operator()(std::string_view v) const { return hash_bytes(v); }
};
struct KeySame {
  template <class K>
  bool operator()(const K& a, const K& b) const {
    return key_same(a, b);
  }
};

// The first 8 bytes of s as a big-endian number (zero padded): ordering these orders the strings' first 8 bytes.
uint64_t byte_prefix(std::string_view s) {
  uint64_t p = 0;
  for (size_t i = 0; i < 8; ++i) p = (p << 8) | (i < s.size() ? static_cast<unsigned char>(s[i]) : 0u);
  return p;
}

// Bytewise sort that compares cached 8-byte prefixes first, so most comparisons never touch the string data.
void sort_strings(std::vector<std::string_view>& values) {
  std::vector<std::pair<uint64_t, std::string_view>> keyed;
  keyed.reserve(values.size());
  for (std::string_view v : values) keyed.emplace_back(byte_prefix(v), v);
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : a.second < b.second; });
  for (size_t i = 0; i < keyed.size(); ++i) values[i] = keyed[i].second;
}

// Collapses `values` into runs of equal values in ascending order. While a column has few distinct values (flags,
// codes, small enums) a hash table counts them far faster than sorting; otherwise the values are sorted.
template <class K>
void count_runs(std::vector<K>& values, std::vector<K>& run_values, std::vector<uint64_t>& run_counts) {
  constexpr size_t kFewDistinct = 4096;
  std::unordered_map<K, uint64_t, KeyHash, KeySame> counts;
  counts.reserve(2 * kFewDistinct);
  bool few = true;
  for (const K& v : values) {
    ++counts[v];
    if (counts.size() > kFewDistinct) {
      few = false;
      break;
    }
  }
  if (few) {
    std::vector<std::pair<K, uint64_t>> distinct(counts.begin(), counts.end());
    std::sort(distinct.begin(), distinct.end(),
              [](const auto& a, const auto& b) { return key_less(a.first, b.first); });
    for (const auto& [v, count] : distinct) {
      // Several NaN payloads hash apart but form one run.
      if (!run_values.empty() && key_same(run_values.back(), v)) {
        run_counts.back() += count;
      } else {
        run_values.push_back(v);
        run_counts.push_back(count);
      }
    }
    return;
  }
  if constexpr (std::is_same_v<K, std::string_view>) {
    sort_strings(values);
  } else {
    std::sort(values.begin(), values.end(), [](const K& a, const K& b) { return key_less(a, b); });
  }
  for (const K& v : values) {
    if (!run_values.empty() && key_same(run_values.back(), v)) {
      ++run_counts.back();
    } else {
      run_values.push_back(v);
      run_counts.push_back(1);
    }
  }
}

Value key_value(int64_t v, DataType type) { return Value::make_int(type, v); }
Value key_value(double v, DataType) { return Value::float64(v); }
Value key_value(std::string_view v, DataType) { return Value::varchar(std::string(v)); }

bool has_histogram(DataType type) { return type.is_numeric() || type.id == TypeId::Date || type.id == TypeId::Varchar; }

// Smallest sample count whose relative standard error stays under 20 % when N rows are sampled down to n
// (the rule PostgreSQL's ANALYZE uses for its most-common-values list); below it a count is mostly noise.
double reliable_sample_count(double n, double N) {
  if (n >= N) return 2;
  const double denom = (N - n) + 0.04 * n * (N - 1);
  return std::max(2.0, n * (N - n) / denom);
}

// The pattern sample: runs[order[0..keep)] are the most common values, left out; of the other sampled values,
// in sorted order with their multiplicities, the one at the middle of each of n equal steps.
void fill_pattern_sample(ColumnStatistics& cs, const std::vector<std::string_view>& run_values,
                         const std::vector<uint64_t>& run_counts, const std::vector<size_t>& order, size_t keep) {
  std::vector<bool> common(run_values.size(), false);
  for (size_t i = 0; i < keep; ++i) common[order[i]] = true;
  uint64_t rest = 0;
  double bytes = 0;
  for (size_t r = 0; r < run_values.size(); ++r) {
    if (common[r]) continue;
    rest += run_counts[r];
    bytes += static_cast<double>(run_values[r].size()) * static_cast<double>(run_counts[r]);
  }
  if (rest == 0) return;
  // Long values: as many as fit in kPatternSampleBytes, judged by their mean length; none when that is fewer than
  // kMinPatternSample (and fewer than all of them): too few to judge by.
  const double mean = std::max(1.0, bytes / static_cast<double>(rest));
  const auto fit = static_cast<uint64_t>(static_cast<double>(ColumnStatistics::kPatternSampleBytes) / mean);
  const uint64_t n = std::min({rest, ColumnStatistics::kPatternSampleValues, fit});
  if (n < std::min(rest, ColumnStatistics::kMinPatternSample)) return;
  cs.pattern_sample.reserve(n);
  // Value i is at position (2i + 1) * rest / 2n of the non-common values (integer arithmetic: exact steps).
  uint64_t before = 0;  // non-common values in the runs before r
  uint64_t i = 0;
  for (size_t r = 0; r < run_values.size() && i < n; ++r) {
    if (common[r]) continue;
    const uint64_t end = before + run_counts[r];
    while (i < n && (2 * i + 1) * rest / (2 * n) < end) {
      cs.pattern_sample.emplace_back(run_values[r]);
      ++i;
    }
    before = end;
  }
}

template <class K>
void fill_statistics(ColumnStatistics& cs, const std::vector<const ColumnVector*>& parts, const RowSample& sample) {
  std::vector<K> values;
  HyperLogLog hll;
  std::optional<K> lo, hi;
  for (size_t b = 0; b < parts.size(); ++b) {
    const ColumnVector& cv = *parts[b];
    const size_t n = cv.size();
    cs.rows += n;
    if (sample.all) {
      values.reserve(values.size() + n);
      for (size_t r = 0; r < n; ++r) {
        if (cv.is_null(r)) {
          ++cs.null_count;
        } else {
          values.push_back(key_at(cv, r, static_cast<K*>(nullptr)));
        }
      }
      continue;
    }
    for (size_t r = 0; r < n; ++r) {
      if (cv.is_null(r)) {
        ++cs.null_count;
        continue;
      }
      const K k = key_at(cv, r, static_cast<K*>(nullptr));
      key_hash(hll, k);
      if (!lo || key_less(k, *lo)) lo = k;
      if (!hi || key_less(*hi, k)) hi = k;
    }
    if (b < sample.rows.size()) {
      for (uint32_t r : sample.rows[b]) {
        if (!cv.is_null(r)) values.push_back(key_at(cv, r, static_cast<K*>(nullptr)));
      }
    }
  }
  cs.sampled = !sample.all;
  std::vector<K> run_values;
  std::vector<uint64_t> run_counts;
  count_runs(values, run_values, run_counts);
  const double non_null = static_cast<double>(cs.non_null_rows());
  const double scale = values.empty() ? 0.0 : non_null / static_cast<double>(values.size());

  if (sample.all) {
    if (!run_values.empty()) {
      cs.min = key_value(run_values.front(), cs.type);
      cs.max = key_value(run_values.back(), cs.type);
    }
    cs.distinct = static_cast<double>(run_values.size());
    cs.distinct_exact = true;
  } else {
    if (lo) cs.min = key_value(*lo, cs.type);
    if (hi) cs.max = key_value(*hi, cs.type);
    double d = hll.empty() ? 0.0 : hll.estimate();
    d = std::max(d, static_cast<double>(run_values.size()));
    d = std::min(d, non_null);
    if constexpr (std::is_same_v<K, int64_t>) {
      if (lo && hi) d = std::min(d, static_cast<double>(*hi) - static_cast<double>(*lo) + 1.0);
    }
    cs.distinct = std::round(d);
    cs.distinct_exact = false;
  }

  // Most common values: highest counts first, ties by value (runs are in value order, so by run index).
  const double min_count = sample.all ? 2.0 : reliable_sample_count(static_cast<double>(values.size()), non_null);
  std::vector<size_t> order;
  for (size_t i = 0; i < run_counts.size(); ++i) {
    if (static_cast<double>(run_counts[i]) >= min_count) order.push_back(i);
  }
  const size_t keep = std::min(order.size(), ColumnStatistics::kMostCommonValues);
  std::partial_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
      [&](size_t a, size_t b) { return run_counts[a] != run_counts[b] ? run_counts[a] > run_counts[b] : a < b; });
  for (size_t i = 0; i < keep; ++i) {
    const size_t r = order[i];
    const auto count = static_cast<uint64_t>(std::llround(static_cast<double>(run_counts[r]) * scale));
    cs.most_common.emplace_back(key_value(run_values[r], cs.type), count);
  }

  if constexpr (std::is_same_v<K, std::string_view>) fill_pattern_sample(cs, run_values, run_counts, order, keep);

  if (has_histogram(cs.type)) {
    for (const HistogramCut& cut : equi_depth_cuts(run_counts, EquiDepthHistogram::kMaxBuckets)) {
      HistogramBucket bucket;
      bucket.lower = key_value(run_values[cut.first_run], cs.type);
      bucket.upper = key_value(run_values[cut.last_run], cs.type);
      uint64_t count = 0;
      for (size_t r = cut.first_run; r <= cut.last_run; ++r) count += run_counts[r];
      bucket.count = static_cast<double>(count) * scale;
      bucket.distinct = static_cast<double>(cut.last_run - cut.first_run + 1);
      cs.histogram.buckets.push_back(std::move(bucket));
    }
    // A sample may miss the extremes; the outer buckets reach the exact min and max so no range falls off the ends.
    if (cs.sampled && !cs.histogram.buckets.empty() && cs.min && cs.max) {
      cs.histogram.buckets.front().lower = *cs.min;
      cs.histogram.buckets.back().upper = *cs.max;
    }
  }
}

}  // namespace

ColumnStatistics compute_column_statistics(std::string name, DataType type,
                                           const std::vector<const ColumnVector*>& parts, const RowSample& sample) {
  ColumnStatistics cs;
  cs.name = std::move(name);
  cs.type = type;
  switch (type.physical()) {
    case PhysicalKind::Int64:
      fill_statistics<int64_t>(cs, parts, sample);
      break;
    case PhysicalKind::Double:
      fill_statistics<double>(cs, parts, sample);
      break;
    case PhysicalKind::String:
      fill_statistics<std::string_view>(cs, parts, sample);
      break;
  }
  return cs;
}

}  // namespace hindsight
