#include "planner/optimizer/stats/selectivity.hpp"

#include "planner/expr/like_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "planner/optimizer/stats/value_position.hpp"

namespace hindsight {

namespace {

// A constant or a statistics value mapped into the column's domain: a position for numbers and dates, the bytes
// for strings. `str` views a Value that outlives the estimate.
struct Key {
  double num = 0;
  std::string_view str;
};

enum class Domain { Discrete, Continuous, Bytes };

Domain domain_of(const ColumnStatistics& cs) {
  switch (cs.type.physical()) {
    case PhysicalKind::Int64:
      return Domain::Discrete;
    case PhysicalKind::Double:
      return Domain::Continuous;
    case PhysicalKind::String:
      return Domain::Bytes;
  }
  return Domain::Continuous;
}

std::optional<Key> key_of(const ColumnStatistics& cs, const Value& v) {
  if (v.is_null) return std::nullopt;
  if (domain_of(cs) == Domain::Bytes) {
    if (v.type.physical() != PhysicalKind::String) return std::nullopt;
    return Key{0, v.s};
  }
  const auto pos = numeric_position(v, cs.type);
  if (!pos || std::isnan(*pos)) return std::nullopt;
  return Key{*pos, {}};
}

int compare(const Key& a, const Key& b, Domain d) {
  if (d == Domain::Bytes) {
    const int c = a.str.compare(b.str);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return a.num < b.num ? -1 : (a.num > b.num ? 1 : 0);
}

double clamp01(double x) { return std::clamp(x, 0.0, 1.0); }

double rows_of(const ColumnStatistics& cs) { return static_cast<double>(cs.rows); }
double non_null_fraction(const ColumnStatistics& cs) { return 1.0 - cs.null_fraction(); }

// Up to 8 bytes of `s` from `offset` as a base-256 fraction in [0, 1).
double byte_position(std::string_view s, size_t offset) {
  double pos = 0;
  double weight = 1.0 / 256.0;
  for (size_t i = offset; i < offset + 8; ++i, weight /= 256.0) {
    if (i < s.size()) pos += static_cast<unsigned char>(s[i]) * weight;
  }
  return pos;
}

// One bucket of values [lower, upper] holding `count` rows of `distinct` values, in the column's domain.
struct KeyBucket {
  Key lower;
  Key upper;
  double count = 0;
  double distinct = 1;
};

// Fraction of the bucket's rows whose value is below x (or at most x when `inclusive`), interpolating linearly.
double fraction_below(const KeyBucket& b, const Key& x, bool inclusive, Domain d) {
  const int vs_lower = compare(x, b.lower, d);
  const int vs_upper = compare(x, b.upper, d);
  if (vs_lower < 0 || (vs_lower == 0 && !inclusive)) return 0;
  if (vs_upper > 0 || (vs_upper == 0 && inclusive)) return 1;
  switch (d) {
    case Domain::Discrete: {
      // Integer-valued domain: count the integers in [lower, limit] out of [lower, upper].
      const double limit = inclusive ? std::floor(x.num) : std::ceil(x.num) - 1;
      return clamp01((limit - b.lower.num + 1) / (b.upper.num - b.lower.num + 1));
    }
    case Domain::Continuous:
      return clamp01((x.num - b.lower.num) / (b.upper.num - b.lower.num));
    case Domain::Bytes: {
      // Bounds share a prefix that every value in between shares too; interpolate on the bytes after it.
      size_t common = 0;
      while (common < b.lower.str.size() && common < b.upper.str.size() && b.lower.str[common] == b.upper.str[common]) {
        ++common;
      }
      const double lo = byte_position(b.lower.str, common);
      const double hi = byte_position(b.upper.str, common);
      double f = hi > lo ? (byte_position(x.str, common) - lo) / (hi - lo) : 0.5;
      // The bound values themselves occur: x = lower counts at least one value, x = upper misses at least one.
      const double one = 1.0 / std::max(1.0, b.distinct);
      if (vs_lower == 0) f = std::max(f, one);
      if (vs_upper == 0) f = std::min(f, 1.0 - one);
      return clamp01(f);
    }
  }
  return 0.5;
}

std::optional<KeyBucket> key_bucket(const ColumnStatistics& cs, const Value& lower, const Value& upper, double count,
                                    double distinct) {
  auto lo = key_of(cs, lower);
  auto hi = key_of(cs, upper);
  if (!lo || !hi) return std::nullopt;
  return KeyBucket{*lo, *hi, count, std::max(1.0, distinct)};
}

// The buckets range estimates read: the histogram, else one bucket spanning [min, max].
std::vector<KeyBucket> buckets_of(const ColumnStatistics& cs) {
  std::vector<KeyBucket> out;
  for (const auto& b : cs.histogram.buckets) {
    if (auto kb = key_bucket(cs, b.lower, b.upper, b.count, b.distinct)) out.push_back(*kb);
  }
  if (out.empty() && cs.min && cs.max) {
    if (auto kb = key_bucket(cs, *cs.min, *cs.max, static_cast<double>(cs.non_null_rows()), cs.distinct)) {
      out.push_back(*kb);
    }
  }
  return out;
}

// True when every distinct value of the column is in the most-common list, so it describes the column exactly.
bool most_common_complete(const ColumnStatistics& cs) {
  return !cs.most_common.empty() && static_cast<double>(cs.most_common.size()) >= cs.distinct;
}

bool outside_min_max(const ColumnStatistics& cs, const Key& k, Domain d) {
  if (!cs.min || !cs.max) return true;  // all rows NULL
  auto lo = key_of(cs, *cs.min);
  auto hi = key_of(cs, *cs.max);
  return (lo && compare(k, *lo, d) < 0) || (hi && compare(k, *hi, d) > 0);
}

std::string prefix_successor(std::string s) {
  while (!s.empty() && static_cast<unsigned char>(s.back()) == 0xFF) s.pop_back();
  if (!s.empty()) s.back() = static_cast<char>(static_cast<unsigned char>(s.back()) + 1);
  return s;
}

}  // namespace

double eq_selectivity(const ColumnStatistics& cs, const Value& v) {
  if (cs.rows == 0 || v.is_null) return 0;
  const Domain d = domain_of(cs);
  const auto key = key_of(cs, v);
  if (!key) return non_null_fraction(cs) / std::max(1.0, cs.distinct);
  if (d == Domain::Discrete && key->num != std::floor(key->num)) return 0;  // e.g. an INTEGER column = 1.5
  if (outside_min_max(cs, *key, d)) return 0;
  for (const auto& [value, count] : cs.most_common) {
    auto mk = key_of(cs, value);
    if (mk && compare(*mk, *key, d) == 0) return clamp01(static_cast<double>(count) / rows_of(cs));
  }
  if (!cs.sampled && most_common_complete(cs)) return 0;  // every value is listed, and this one is not
  const double rest_fraction =
      std::max(0.0, 1.0 - static_cast<double>(cs.most_common_rows()) / rows_of(cs) - cs.null_fraction());
  const double rest_distinct = std::max(1.0, cs.distinct - static_cast<double>(cs.most_common.size()));
  double sel = rest_fraction / rest_distinct;
  // A value missing from a full most-common list cannot be more frequent than the least common listed value.
  if (cs.most_common.size() == ColumnStatistics::kMostCommonValues) {
    sel = std::min(sel, static_cast<double>(cs.most_common.back().second) / rows_of(cs));
  }
  return clamp01(sel);
}

double ne_selectivity(const ColumnStatistics& cs, const Value& v) {
  if (cs.rows == 0 || v.is_null) return 0;
  return clamp01(non_null_fraction(cs) - eq_selectivity(cs, v));
}

double range_selectivity(const ColumnStatistics& cs, const std::optional<Value>& lo, bool lo_inclusive,
                         const std::optional<Value>& hi, bool hi_inclusive) {
  if (cs.rows == 0) return 0;
  if ((lo && lo->is_null) || (hi && hi->is_null)) return 0;
  const double non_null = non_null_fraction(cs);
  if (!lo && !hi) return non_null;
  const Domain d = domain_of(cs);
  std::optional<Key> lo_key, hi_key;
  if (lo && !(lo_key = key_of(cs, *lo))) return kDefaultRangeSelectivity * non_null;
  if (hi && !(hi_key = key_of(cs, *hi))) return kDefaultRangeSelectivity * non_null;
  if (lo_key && hi_key) {
    const int c = compare(*lo_key, *hi_key, d);
    if (c > 0 || (c == 0 && !(lo_inclusive && hi_inclusive))) return 0;
    if (c == 0) return eq_selectivity(cs, *lo);
  }

  if (most_common_complete(cs)) {
    double in_range = 0;
    double listed = 0;
    for (const auto& [value, count] : cs.most_common) {
      listed += static_cast<double>(count);
      auto k = key_of(cs, value);
      if (!k) continue;
      if (lo_key) {
        const int c = compare(*k, *lo_key, d);
        if (c < 0 || (c == 0 && !lo_inclusive)) continue;
      }
      if (hi_key) {
        const int c = compare(*k, *hi_key, d);
        if (c > 0 || (c == 0 && !hi_inclusive)) continue;
      }
      in_range += static_cast<double>(count);
    }
    return listed > 0 ? clamp01(in_range / listed * non_null) : 0;
  }

  const std::vector<KeyBucket> buckets = buckets_of(cs);
  if (buckets.empty()) return kDefaultRangeSelectivity * non_null;
  double total = 0;
  double selected = 0;
  for (const KeyBucket& b : buckets) {
    total += b.count;
    const double upto = hi_key ? fraction_below(b, *hi_key, hi_inclusive, d) : 1.0;
    const double below = lo_key ? fraction_below(b, *lo_key, !lo_inclusive, d) : 0.0;
    selected += std::max(0.0, upto - below) * b.count;
  }
  return total > 0 ? clamp01(selected / total * non_null) : 0;
}

double in_selectivity(const ColumnStatistics& cs, const std::vector<Value>& values) {
  if (cs.rows == 0) return 0;
  const Domain d = domain_of(cs);
  // Equal values count once (the first of them). Sorting the keys finds the repeats in O(n log n): generated SQL
  // has IN lists of 100,000 values.
  std::vector<bool> counted(values.size(), false);
  std::vector<std::pair<Key, size_t>> keyed;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].is_null) continue;
    auto k = key_of(cs, values[i]);
    if (k && !(d != Domain::Bytes && std::isnan(k->num)))
      keyed.emplace_back(*k, i);
    else
      counted[i] = true;  // no key to compare (a NaN equals nothing): counted as it is
  }
  std::sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
    const int c = compare(a.first, b.first, d);
    return c != 0 ? c < 0 : a.second < b.second;
  });
  for (size_t j = 0; j < keyed.size(); ++j)
    if (j == 0 || compare(keyed[j - 1].first, keyed[j].first, d) != 0) counted[keyed[j].second] = true;
  double sum = 0;
  for (size_t i = 0; i < values.size(); ++i)
    if (counted[i]) sum += eq_selectivity(cs, values[i]);
  return std::min(sum, non_null_fraction(cs));
}

namespace {

// Share of the rows a LIKE pattern matches: the most common values matched exactly, the other rows by the share
// of the pattern sample that matches, at least half a value (rare, not absent). Without a sample of those rows
// (a column that is not VARCHAR, or whose values are too long to sample), `unsampled_share` of them, and nullopt
// when that is absent.
std::optional<double> like_share(const ColumnStatistics& cs, const LikePattern& like,
                                 std::optional<double> unsampled_share) {
  double mcv_rows = 0, mcv_match = 0;
  for (const auto& [v, count] : cs.most_common) {
    mcv_rows += static_cast<double>(count);
    if (!v.is_null && like.matches(v.s)) mcv_match += static_cast<double>(count);
  }
  const double rest = std::max(0.0, static_cast<double>(cs.non_null_rows()) - mcv_rows);
  double share = 0;
  if (rest > 0 && cs.pattern_sample.empty()) {
    if (!unsampled_share) return std::nullopt;
    share = *unsampled_share;
  } else if (rest > 0) {
    size_t hits = 0;
    for (const std::string& v : cs.pattern_sample) hits += like.matches(v) ? 1 : 0;
    share = std::max(static_cast<double>(hits), 0.5) / static_cast<double>(cs.pattern_sample.size());
  }
  return std::clamp((mcv_match + rest * share) / static_cast<double>(cs.rows), 0.0, 1.0);
}

}  // namespace

double like_prefix_selectivity(const ColumnStatistics& cs, const std::string& prefix) {
  if (cs.rows == 0) return 0;
  if (domain_of(cs) != Domain::Bytes) return kDefaultLikeSelectivity * non_null_fraction(cs);
  if (prefix.empty()) return non_null_fraction(cs);
  const std::string next = prefix_successor(prefix);
  std::optional<Value> hi;
  if (!next.empty()) hi = Value::varchar(next);
  const double range = range_selectivity(cs, Value::varchar(prefix), true, hi, false);
  // Outside [min, max] (or no row in range by complete most-common values) the range is right: none.
  if (range <= 0) return 0;
  // A range inside one bucket is interpolated byte-wise between the bucket's bounds, as if every byte string
  // were as likely: 'forest%' among names made of 92 words came out at 1e-5 of its 1/92. The share of the
  // pattern sample's values (spread like the data) that start with the prefix is the better guess there.
  // (The prefix holds no wildcard: the caller cut the pattern at its first.)
  const auto share = like_share(cs, LikePattern(prefix + "%"), std::nullopt);
  return share ? std::max(range, *share) : range;
}

double like_pattern_selectivity(const ColumnStatistics& cs, const std::string& pattern) {
  if (cs.rows == 0) return 0;
  if (domain_of(cs) != Domain::Bytes) return kDefaultLikeSelectivity * non_null_fraction(cs);
  return *like_share(cs, LikePattern(pattern), kDefaultLikeSelectivity);
}

double null_selectivity(const ColumnStatistics& cs) { return cs.null_fraction(); }

double not_null_selectivity(const ColumnStatistics& cs) { return cs.rows == 0 ? 0 : non_null_fraction(cs); }

double join_selectivity(const ColumnStatistics& a, const ColumnStatistics& b) {
  const double ndv = std::max({a.distinct, b.distinct, 1.0});
  return non_null_fraction(a) * non_null_fraction(b) / ndv;
}

double group_count(const std::vector<const ColumnStatistics*>& keys, double input_rows) {
  if (keys.empty()) return 1;
  double groups = 1;
  for (const ColumnStatistics* k : keys) {
    groups *= std::max(1.0, k->distinct + (k->null_count > 0 ? 1.0 : 0.0));
  }
  return std::max(0.0, std::min(groups, input_rows));
}

}  // namespace hindsight
