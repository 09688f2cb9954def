// StatisticsCache with a directory: statistics survive the process (a fresh cache stands for a new process).
#include <gtest/gtest.h>

#include <filesystem>

#include "../../storage/storage_test_util.hpp"
#include "planner/optimizer/stats/statistics_cache.hpp"
#include "planner/optimizer/stats/statistics_file.hpp"
#include "planner/storage/table_loader.hpp"
#include "stats_test_util.hpp"

namespace hindsight {
namespace {

using stats_test::int_column;
using stats_test::make_table;
using stats_test::string_column;
using stats_test::uniform_ints;
using storage_test::read_file;
using storage_test::TempDir;
using storage_test::write_file;

Table sample_table(uint64_t version, int64_t range = 100) {
  std::vector<std::string> names;
  for (int64_t v : uniform_ints(4'000, 30, 7)) names.push_back("name" + std::to_string(v));
  return make_table("Orders",
                    {{"a", int_column(DataType::integer(), uniform_ints(4'000, range, 1))},
                     {"n", string_column(names)}},
                    2, version);
}

TEST(StatisticsPersistenceTest, AFreshCacheLoadsFromDiskWithoutAnalyzing) {
  TempDir dir;
  const std::string stats_dir = statistics_directory(dir.path());
  Table t = sample_table(5);
  std::shared_ptr<const TableStatistics> first;
  {
    StatisticsCache cache(stats_dir);
    first = cache.get(t);
    EXPECT_EQ(cache.analyses(), 1u);
    EXPECT_EQ(cache.loads(), 0u);
    EXPECT_EQ(cache.get(t), first);  // memory first
    EXPECT_EQ(cache.analyses(), 1u);
  }
  EXPECT_TRUE(std::filesystem::exists(statistics_file_path(stats_dir, "orders")));

  StatisticsCache next_process(stats_dir);
  auto loaded = next_process.get(t);
  EXPECT_EQ(next_process.analyses(), 0u);
  EXPECT_EQ(next_process.loads(), 1u);
  stats_test::expect_same(*first, *loaded);
  EXPECT_EQ(encode_table_statistics(*loaded), encode_table_statistics(*first));
  EXPECT_EQ(next_process.get(t), loaded);
  EXPECT_EQ(next_process.loads(), 1u);

  // A memory-only cache never touches the folder.
  StatisticsCache memory_only;
  memory_only.get(t);
  EXPECT_EQ(memory_only.analyses(), 1u);
  EXPECT_EQ(memory_only.loads(), 0u);
}

TEST(StatisticsPersistenceTest, StaleFileIsRecomputedAndRewritten) {
  TempDir dir;
  const std::string stats_dir = statistics_directory(dir.path());
  StatisticsCache(stats_dir).get(sample_table(1));

  Table changed = sample_table(2, 1000);  // new data, new data_version
  StatisticsCache next_process(stats_dir);
  auto stats = next_process.get(changed);
  EXPECT_EQ(next_process.analyses(), 1u);
  EXPECT_EQ(next_process.loads(), 0u);
  EXPECT_EQ(stats->data_version, 2u);
  EXPECT_GT(stats->columns[0].distinct, 100.0);
  StatisticsFileRead read = read_statistics_file(statistics_file_path(stats_dir, "orders"));
  ASSERT_TRUE(read.stats.has_value()) << read.problem;
  EXPECT_EQ(read.stats->data_version, 2u);

  // A file written for another schema (same name and version) is stale as well.
  Table renamed = sample_table(2, 1000);
  renamed.def.columns[1].name = "other";
  StatisticsCache third(stats_dir);
  EXPECT_EQ(third.get(renamed)->columns[1].name, "other");
  EXPECT_EQ(third.analyses(), 1u);
}

TEST(StatisticsPersistenceTest, SameSizeCsvEditWithRestoredMtimeMakesTheFileStale) {
  // The table's data_version covers the CSV's inode change time, so statistics written before an in-place,
  // same-size edit whose mtime was put back are not taken for the edited data.
  TempDir dir;
  TableDef def;
  def.name = "kv";
  def.file = "kv.csv";
  def.columns = {{"k", DataType::bigint(), false}};
  write_file(dir.file("kv.csv"), "k\n1\n2\n3\n");
  storage_test::set_mtime(dir.file("kv.csv"), 1600000000);
  const std::string stats_dir = statistics_directory(dir.path());
  TablePtr before = load_table(dir.path(), def);
  EXPECT_EQ(StatisticsCache(stats_dir).get(*before)->columns[0].max->i, 3);

  storage_test::overwrite_in_place(dir.file("kv.csv"), 6, "7");  // k = 1, 2, 7
  storage_test::set_mtime(dir.file("kv.csv"), 1600000000);
  TablePtr after = load_table(dir.path(), def);
  StatisticsCache next_process(stats_dir);
  auto stats = next_process.get(*after);
  EXPECT_EQ(next_process.loads(), 0u);
  EXPECT_EQ(next_process.analyses(), 1u);
  EXPECT_EQ(stats->columns[0].max->i, 7);
}

TEST(StatisticsPersistenceTest, AColumnSetsDistinctCountIsComputedOnceAndKeptInTheFile) {
  // Four columns over 6,000 rows: (a, b) takes 60 combinations though a and b have 60 and 12 values (b is a
  // function of a); (a, c) 6,000, since c counts the rows. Each column alone cannot tell either. d = r % 7 is
  // NULL where r % 3 = 0, so the 20 values of a with a % 3 = 0 never pair with a d: (a, d) takes 40 x 7 = 280
  // combinations, 300 if a NULL counted as a value.
  std::vector<int64_t> a, b, c, d;
  for (int64_t r = 0; r < 6'000; ++r) {
    a.push_back(r % 60);
    b.push_back(r % 60 % 12);
    c.push_back(r);
    d.push_back(r % 7);
  }
  auto table = [&] {
    return make_table("Pairs", {{"a", int_column(DataType::integer(), a)}, {"b", int_column(DataType::integer(), b)},
                                {"c", int_column(DataType::integer(), c)},
                                {"d", stats_test::with_nulls(int_column(DataType::integer(), d), 3)}},
                      2, 9);
  };
  TempDir dir;
  const std::string stats_dir = statistics_directory(dir.path());
  Table t = table();
  {
    StatisticsCache cache(stats_dir);
    auto before = cache.get(t);
    const double ab = cache.column_set_distinct(t, {"B", "a"}).value();
    EXPECT_NEAR(ab, 60, 3);  // HyperLogLog: two of 60 values may share a register
    const double ac = cache.column_set_distinct(t, {"a", "c"}).value();
    EXPECT_NEAR(ac, 6'000, 6'000 * 0.05);  // HyperLogLog
    EXPECT_LE(ac, 6'000);
    EXPECT_NEAR(cache.column_set_distinct(t, {"a", "d"}).value(), 280, 8);
    EXPECT_EQ(cache.column_set_distinct(t, {"a", "nope"}), std::nullopt);
    EXPECT_EQ(cache.analyses(), 1u);
    EXPECT_TRUE(before->column_sets.empty());  // handed-out statistics stay as they were
    ASSERT_EQ(cache.get(t)->column_sets.size(), 3u);
    EXPECT_EQ(cache.get(t)->column_set({"a", "b"})->distinct, ab);
  }
  // The next process reads both from the file: no analysis, and the same numbers without reading the columns.
  StatisticsCache next_process(stats_dir);
  Table again = table();
  auto loaded = next_process.get(again);
  EXPECT_EQ(next_process.loads(), 1u);
  ASSERT_EQ(loaded->column_sets.size(), 3u);
  EXPECT_EQ(loaded->column_sets[0].columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(next_process.column_set_distinct(again, {"b", "a"}), loaded->column_sets[0].distinct);
  EXPECT_NEAR(loaded->column_sets[0].distinct, 60, 3);
  EXPECT_EQ(next_process.analyses(), 0u);
}

TEST(StatisticsPersistenceTest, ACacheRemovesTempFilesOfKilledWriters) {
  TempDir dir;
  const std::string stats_dir = statistics_directory(dir.path());
  std::filesystem::create_directories(stats_dir);
  const std::string file = statistics_file_path(stats_dir, "orders");
  const std::string dead = file + ".tmp." + std::to_string(storage_test::dead_pid()) + ".4";
  const std::string live = file + ".tmp." + std::to_string(::getppid()) + ".4";
  write_file(dead, "half");
  write_file(live, "busy");
  StatisticsCache next_process(stats_dir);
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(live));
}

TEST(StatisticsPersistenceTest, CorruptTruncatedOrOtherVersionFilesAreIgnoredAndReplaced) {
  TempDir dir;
  const std::string stats_dir = statistics_directory(dir.path());
  const std::string path = statistics_file_path(stats_dir, "orders");
  Table t = sample_table(3);
  auto good = StatisticsCache(stats_dir).get(t);
  const std::string bytes = read_file(path);

  std::string other_version = bytes;
  other_version[8] = static_cast<char>(kStatisticsFileVersion + 1);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"truncated", bytes.substr(0, bytes.size() / 2)},
      {"corrupt", bytes.substr(0, 40) + std::string(1, static_cast<char>(bytes[40] ^ 1)) + bytes.substr(41)},
      {"other version", other_version},
      {"garbage", "hello"},
      {"empty", ""},
  };
  for (const auto& [what, contents] : cases) {
    SCOPED_TRACE(what);
    write_file(path, contents);
    StatisticsCache cache(stats_dir);
    ::testing::internal::CaptureStderr();
    auto stats = cache.get(t);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(cache.analyses(), 1u);
    EXPECT_EQ(cache.loads(), 0u);
    stats_test::expect_same(*good, *stats);
    EXPECT_EQ(read_file(path), bytes);  // replaced by a good file
    // One warning per file and process at most (the first case prints it, the others stay quiet).
    if (what == std::string("truncated")) {
      EXPECT_NE(err.find("ignoring statistics file"), std::string::npos) << err;
    } else {
      EXPECT_EQ(err, "");
    }
  }
  StatisticsCache after(stats_dir);
  after.get(t);
  EXPECT_EQ(after.loads(), 1u);
  EXPECT_EQ(after.analyses(), 0u);
}

TEST(StatisticsPersistenceTest, RefreshAnalyzesAgainAndPersists) {
  TempDir dir;
  const std::string stats_dir = statistics_directory(dir.path());
  Table t = sample_table(4);
  StatisticsCache cache(stats_dir);
  auto a = cache.get(t);
  auto b = cache.refresh(t);
  EXPECT_NE(a, b);
  EXPECT_EQ(cache.analyses(), 2u);
  EXPECT_EQ(cache.get(t), b);
  std::filesystem::remove(statistics_file_path(stats_dir, "orders"));
  cache.refresh(t);
  EXPECT_TRUE(std::filesystem::exists(statistics_file_path(stats_dir, "orders")));
}

TEST(StatisticsPersistenceTest, UnwritableFolderStillGivesStatistics) {
  TempDir dir;
  write_file(dir.file("blocker"), "a file where the folder should be");
  StatisticsCache cache(dir.file("blocker") + "/stats");
  ::testing::internal::CaptureStderr();
  auto stats = cache.get(sample_table(1));
  cache.refresh(sample_table(1));
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->row_count, 4'000u);
  EXPECT_NE(err.find("cannot persist table statistics"), std::string::npos) << err;
  EXPECT_EQ(err.find("cannot persist", err.find("cannot persist") + 1), std::string::npos) << err;  // once
}

}  // namespace
}  // namespace hindsight
