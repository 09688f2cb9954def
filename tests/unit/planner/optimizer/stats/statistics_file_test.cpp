#include "planner/optimizer/stats/statistics_file.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "../../storage/storage_test_util.hpp"
#include "stats_test_util.hpp"

namespace hindsight {
namespace {

using stats_test::double_column;
using stats_test::int_column;
using stats_test::make_table;
using stats_test::string_column;
using stats_test::with_nulls;
using storage_test::read_file;
using storage_test::TempDir;
using storage_test::write_file;

/// Every field of two Values equal, doubles bit for bit (NaN payloads, -0.0).
void expect_identical(const Value& a, const Value& b, const std::string& what) {
  EXPECT_TRUE(a.type == b.type) << what << ": " << a.type.to_string() << " vs " << b.type.to_string();
  EXPECT_EQ(a.type.precision, b.type.precision) << what;
  EXPECT_EQ(a.type.scale, b.type.scale) << what;
  EXPECT_EQ(a.is_null, b.is_null) << what;
  EXPECT_EQ(a.i, b.i) << what;
  EXPECT_EQ(std::memcmp(&a.d, &b.d, sizeof a.d), 0) << what << ": " << a.d << " vs " << b.d;
  EXPECT_EQ(a.s, b.s) << what;
}

void expect_identical(const TableStatistics& a, const TableStatistics& b) {
  EXPECT_EQ(a.table, b.table);
  EXPECT_EQ(a.row_count, b.row_count);
  EXPECT_EQ(a.data_version, b.data_version);
  ASSERT_EQ(a.columns.size(), b.columns.size());
  for (size_t c = 0; c < a.columns.size(); ++c) {
    const ColumnStatistics& x = a.columns[c];
    const ColumnStatistics& y = b.columns[c];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.type.id, y.type.id);
    EXPECT_EQ(x.type.precision, y.type.precision);
    EXPECT_EQ(x.type.scale, y.type.scale);
    EXPECT_EQ(x.rows, y.rows);
    EXPECT_EQ(x.null_count, y.null_count);
    EXPECT_EQ(std::memcmp(&x.distinct, &y.distinct, sizeof x.distinct), 0);
    EXPECT_EQ(x.distinct_exact, y.distinct_exact);
    EXPECT_EQ(x.sampled, y.sampled);
    ASSERT_EQ(x.min.has_value(), y.min.has_value());
    ASSERT_EQ(x.max.has_value(), y.max.has_value());
    if (x.min) expect_identical(*x.min, *y.min, "min");
    if (x.max) expect_identical(*x.max, *y.max, "max");
    ASSERT_EQ(x.histogram.buckets.size(), y.histogram.buckets.size());
    for (size_t i = 0; i < x.histogram.buckets.size(); ++i) {
      expect_identical(x.histogram.buckets[i].lower, y.histogram.buckets[i].lower, "lower");
      expect_identical(x.histogram.buckets[i].upper, y.histogram.buckets[i].upper, "upper");
      EXPECT_EQ(x.histogram.buckets[i].count, y.histogram.buckets[i].count);
      EXPECT_EQ(x.histogram.buckets[i].distinct, y.histogram.buckets[i].distinct);
    }
    ASSERT_EQ(x.most_common.size(), y.most_common.size());
    for (size_t i = 0; i < x.most_common.size(); ++i) {
      expect_identical(x.most_common[i].first, y.most_common[i].first, "most common value");
      EXPECT_EQ(x.most_common[i].second, y.most_common[i].second);
    }
    EXPECT_EQ(x.pattern_sample, y.pattern_sample);
  }
  EXPECT_EQ(a.filter_sample_rows(), b.filter_sample_rows());
  ASSERT_EQ(a.filter_sample.size(), b.filter_sample.size());
  for (size_t c = 0; c < a.filter_sample.size(); ++c) {
    ASSERT_EQ(a.filter_sample[c].size(), b.filter_sample[c].size());
    for (size_t r = 0; r < a.filter_sample[c].size(); ++r)
      expect_identical(a.filter_sample[c].get(r), b.filter_sample[c].get(r), "filter sample");
  }
}

/// A table with a column of every type (NULLs, empty and non-ASCII strings, NaN, infinities, -0.0) and an
/// all-NULL column, analyzed.
TableStatistics every_type_statistics() {
  const size_t n = 3000;
  std::vector<int64_t> bools, ints, bigs, decimals, dates;
  std::vector<double> doubles;
  std::vector<std::string> strings;
  for (size_t r = 0; r < n; ++r) {
    bools.push_back(r % 3 == 0);
    ints.push_back(static_cast<int64_t>(r % 97) - 40);
    bigs.push_back(static_cast<int64_t>(r * r) * 1'000'003 - (int64_t{1} << 40));
    decimals.push_back(static_cast<int64_t>(r % 500) * 7 - 1234);  // DECIMAL(15,2): -12.34 .. 22.59
    dates.push_back(8000 + static_cast<int64_t>(r % 2500));
    const double special[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(), -0.0, 0.1};
    doubles.push_back(r % 50 < 5 ? special[r % 5] : static_cast<double>(r % 211) / 7.0);
    strings.push_back(r % 40 == 0 ? "" : (r % 7 == 0 ? "gr\xC3\xBC\xC3\x9F" : "s" + std::to_string(r % 300)) +
                                             std::string(r % 11 == 0 ? 1 : 0, '\0'));
  }
  ColumnVector all_null(DataType::integer());
  for (size_t r = 0; r < n; ++r) all_null.append_null();
  Table t = make_table("EveryType",
                       {{"b", int_column(DataType::boolean(), bools)},
                        {"i", with_nulls(int_column(DataType::integer(), ints), 9)},
                        {"big", int_column(DataType::bigint(), bigs)},
                        {"dbl", double_column(doubles)},
                        {"dec", with_nulls(int_column(DataType::decimal(15, 2), decimals), 13)},
                        {"d", int_column(DataType::date(), dates)},
                        {"s", with_nulls(string_column(strings), 17)},
                        {"nothing", all_null}},
                       3, 0xDEADBEEFCAFEull);
  return analyze_table(t);
}

TEST(StatisticsFileTest, RoundTripsEveryColumnTypeExactly) {
  TableStatistics stats = every_type_statistics();
  ASSERT_EQ(stats.columns.size(), 8u);
  EXPECT_FALSE(stats.columns[7].min.has_value());
  EXPECT_FALSE(stats.columns[4].histogram.empty());
  EXPECT_FALSE(stats.columns[6].most_common.empty());
  EXPECT_FALSE(stats.columns[6].pattern_sample.empty());  // with the empty string and bytes after a NUL
  EXPECT_NEAR(static_cast<double>(stats.filter_sample_rows()), 1024, 150);  // of 3000 rows, a sample of about 1,024
  ASSERT_EQ(stats.filter_sample.size(), 8u);
  std::string bytes = encode_table_statistics(stats);
  std::string problem;
  auto back = decode_table_statistics(bytes, problem);
  ASSERT_TRUE(back.has_value()) << problem;
  EXPECT_TRUE(problem.empty());
  expect_identical(stats, *back);
  stats_test::expect_same(stats, *back);
  EXPECT_EQ(encode_table_statistics(*back), bytes);
}

TEST(StatisticsFileTest, RoundTripsSampledHllStatisticsAndOddValues) {
  // Sampled statistics with HLL-derived distinct counts (fractional fields, flags), written by hand so the test
  // does not need a table of more than a million rows; values with every field set, NULL values.
  TableStatistics stats;
  stats.table = "big";
  stats.row_count = 6'001'215;
  stats.data_version = ~uint64_t{0};
  ColumnStatistics cs;
  cs.name = "l_extendedprice";
  cs.type = DataType::decimal(15, 2);
  cs.rows = stats.row_count;
  cs.null_count = 12;
  cs.distinct = 933'578.0;
  cs.distinct_exact = false;
  cs.sampled = true;
  cs.min = Value::decimal(90'100, 15, 2);
  cs.max = Value::decimal(10'494'950, 15, 2);
  cs.histogram.buckets.push_back({*cs.min, Value::decimal(250'000, 15, 2), 93'768.984375, 1'234});
  cs.histogram.buckets.push_back({Value::decimal(250'001, 15, 2), *cs.max, 1e-300, 0.5});
  Value odd = Value::varchar("x");
  odd.i = -7;
  odd.d = std::numeric_limits<double>::denorm_min();
  cs.most_common.push_back({odd, 42});
  cs.most_common.push_back({Value::null(DataType::date()), 0});
  cs.most_common.push_back({Value::null(), std::numeric_limits<uint64_t>::max()});
  stats.columns.push_back(cs);
  ColumnStatistics empty;
  empty.name = "";
  stats.columns.push_back(empty);

  std::string problem;
  auto back = decode_table_statistics(encode_table_statistics(stats), problem);
  ASSERT_TRUE(back.has_value()) << problem;
  expect_identical(stats, *back);
}

TEST(StatisticsFileTest, RejectsEveryTruncationAndCorruptionWithoutCrashing) {
  const std::string bytes = encode_table_statistics(every_type_statistics());
  std::string problem;
  for (size_t len = 0; len < bytes.size(); len += (len < 64 ? 1 : 37)) {
    problem.clear();
    EXPECT_FALSE(decode_table_statistics(bytes.substr(0, len), problem).has_value()) << len;
    EXPECT_FALSE(problem.empty()) << len;
  }
  for (size_t i = 0; i < bytes.size(); i += 13) {
    std::string bad = bytes;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    problem.clear();
    EXPECT_FALSE(decode_table_statistics(bad, problem).has_value()) << i;
    EXPECT_FALSE(problem.empty()) << i;
  }
  std::string other_version = bytes;
  other_version[8] = 7;
  EXPECT_FALSE(decode_table_statistics(other_version, problem).has_value());
  EXPECT_NE(problem.find("format version 7"), std::string::npos) << problem;
  EXPECT_FALSE(decode_table_statistics(other_version.substr(0, 12), problem).has_value());  // a short future file
  EXPECT_NE(problem.find("format version 7"), std::string::npos) << problem;
  EXPECT_FALSE(decode_table_statistics("not a stats file at all", problem).has_value());
  EXPECT_EQ(problem, "not a statistics file");
}

TEST(StatisticsFileTest, PathsAreSafeAndWritesAreAtomic) {
  EXPECT_EQ(statistics_directory("/data/sf1"), "/data/sf1/.hindsight/stats");
  EXPECT_EQ(statistics_directory(""), "");
  EXPECT_EQ(statistics_file_path("/d", "LineItem"), "/d/lineitem.stats");
  EXPECT_EQ(statistics_file_path("/d", "../a b"), "/d/%2E%2E%2Fa%20b.stats");

  TempDir dir;
  const std::string path = statistics_file_path(statistics_directory(dir.path()), "everytype");
  TableStatistics stats = every_type_statistics();
  std::string problem;
  EXPECT_FALSE(read_statistics_file(path).stats.has_value());
  EXPECT_TRUE(read_statistics_file(path).problem.empty());  // missing is not a problem
  ASSERT_TRUE(write_statistics_file(path, stats, problem)) << problem;
  ASSERT_TRUE(write_statistics_file(path, stats, problem)) << problem;  // replaces
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(statistics_directory(dir.path())))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"everytype.stats"});  // no temp files left behind
  StatisticsFileRead read = read_statistics_file(path);
  ASSERT_TRUE(read.stats.has_value()) << read.problem;
  expect_identical(stats, *read.stats);

  write_file(path, "");
  read = read_statistics_file(path);
  EXPECT_FALSE(read.stats.has_value());
  EXPECT_FALSE(read.problem.empty());

  // A folder that cannot be created: reported, never thrown.
  write_file(dir.file("blocker"), "x");
  EXPECT_FALSE(write_statistics_file(dir.file("blocker") + "/stats/t.stats", stats, problem));
  EXPECT_FALSE(problem.empty());
}

}  // namespace
}  // namespace hindsight
