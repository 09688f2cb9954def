#include "planner/storage/table_cache.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>
#include <cstring>

#include "planner/storage/table_loader.hpp"
#include "storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::read_file;
using storage_test::set_mtime;
using storage_test::TempDir;
using storage_test::write_file;

TableDef mixed_def() {
  TableDef t;
  t.name = "mixed";
  t.file = "mixed.csv";
  t.columns = {{"k", DataType::bigint(), false},           {"flag", DataType::boolean(), true},
               {"amount", DataType::decimal(12, 2), true}, {"d", DataType::date(), true},
               {"x", DataType::float64(), true},           {"mode", DataType::varchar(), true},
               {"note", DataType::varchar(), true},        {"same", DataType::integer(), false}};
  t.distribution = DistributionKind::Hash;
  t.distribution_columns = {"k"};
  t.buckets = 4;
  return t;
}

/// 3000 rows covering NULLs, empty strings, low-cardinality strings (dictionary) and unique ones (plain).
std::string mixed_csv() {
  std::string s = "k,flag,amount,d,x,mode,note,same\n";
  for (int i = 0; i < 3000; ++i) {
    s += std::to_string(i * 7919) + ",";
    s += i % 11 == 0 ? "," : (i % 2 ? "true," : "false,");
    s += i % 13 == 0 ? "," : std::to_string(i * 3 - 4000) + ".25,";
    s += i % 17 == 0 ? "," : "1996-0" + std::to_string(1 + i % 9) + "-1" + std::to_string(i % 10) + ",";
    s += i % 19 == 0 ? "," : std::to_string(i) + ".5e-1,";
    s += i % 23 == 0 ? "," : (i % 29 == 0 ? "\"\"," : "MODE" + std::to_string(i % 5) + ",");
    s += "note number " + std::to_string(i) + " with some words,";
    s += "42\n";
  }
  return s;
}

void expect_same_table(const Table& a, const Table& b) {
  a.load_all_columns();
  b.load_all_columns();
  ASSERT_EQ(a.row_count, b.row_count);
  ASSERT_EQ(a.buckets.size(), b.buckets.size());
  for (size_t bk = 0; bk < a.buckets.size(); ++bk) {
    ASSERT_EQ(a.buckets[bk].size(), b.buckets[bk].size());
    for (size_t c = 0; c < a.buckets[bk].size(); ++c) {
      const ColumnVector &x = a.buckets[bk][c], &y = b.buckets[bk][c];
      ASSERT_EQ(x.size(), y.size());
      for (size_t r = 0; r < x.size(); ++r) {
        ASSERT_EQ(x.is_null(r), y.is_null(r)) << "bucket " << bk << " column " << c << " row " << r;
        if (!x.is_null(r)) {
          ASSERT_TRUE(x.get(r) == y.get(r)) << x.get(r).to_string() << " vs " << y.get(r).to_string();
        }
      }
    }
  }
}

class TableCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_.file("mixed.csv"), mixed_csv());
    set_mtime(csv(), 1000000000, 5);
  }
  std::string csv() const { return dir_.file("mixed.csv"); }
  std::string cache() const { return cache_path_for(csv()); }
  TablePtr load(LoadInfo& info, const TableDef& def = mixed_def()) { return load_table(dir_.path(), def, {}, &info); }

  TempDir dir_;
};

TEST_F(TableCacheTest, FirstLoadWritesCacheAndSecondUsesIt) {
  LoadInfo first, second;
  TablePtr a = load(first);
  EXPECT_FALSE(first.from_cache);
  EXPECT_TRUE(first.cache_written);
  EXPECT_EQ(first.source_path, csv());
  EXPECT_EQ(cache(), csv() + ".hsc");
  TablePtr b = load(second);
  EXPECT_TRUE(second.from_cache);
  EXPECT_FALSE(second.cache_written);
  expect_same_table(*a, *b);
  EXPECT_EQ(a->row_count, 3000u);
  EXPECT_EQ(a->data_version, b->data_version);
  EXPECT_NE(a->data_version, 0u);
  // The binary form is smaller than the text.
  EXPECT_LT(read_file(cache()).size(), read_file(csv()).size());
}

TEST_F(TableCacheTest, TouchingTheCsvInvalidatesTheCache) {
  LoadInfo info;
  TablePtr before = load(info);
  set_mtime(csv(), 1000000000, 6);  // one nanosecond later, same size and content
  TablePtr after = load(info);
  EXPECT_FALSE(info.from_cache);
  EXPECT_TRUE(info.cache_written);
  EXPECT_NE(before->data_version, after->data_version);
  expect_same_table(*before, *after);
  load(info);
  EXPECT_TRUE(info.from_cache);
}

/// Value of column `column` in the row whose key k is `key` (the table is hashed on k), or nullopt.
std::optional<Value> value_at_key(const Table& t, int64_t key, size_t column) {
  t.load_all_columns();
  for (const auto& bucket : t.buckets)
    for (size_t r = 0; r < bucket[0].size(); ++r)
      if (bucket[0].ints[r] == key) return bucket[column].get(r);
  return std::nullopt;
}

TEST_F(TableCacheTest, SameSizeEditWithRestoredMtimeIsSeen) {
  // An in-place edit that keeps the size, then the old mtime put back (touch -r, cp -p, rsync -t): only the inode
  // change time tells. Before it was part of the stamp, the second load answered from the stale cache.
  LoadInfo info;
  TablePtr before = load(info);
  ASSERT_TRUE(info.cache_written);
  EXPECT_EQ(value_at_key(*before, 0, 7)->i, 42);
  const std::string text = mixed_csv();
  auto [mtime_before, ctime_before] =
      storage_test::overwrite_in_place(csv(), static_cast<long>(text.find("42\n")), "43");
  set_mtime(csv(), 1000000000, 5);
  FileStamp now;
  ASSERT_TRUE(stat_file(csv(), now));
  ASSERT_EQ(now.size, text.size());
  ASSERT_EQ(now.mtime_ns, mtime_before);
  ASSERT_NE(now.ctime_ns, ctime_before);

  TablePtr after = load(info);
  EXPECT_FALSE(info.from_cache);
  EXPECT_TRUE(info.cache_written);
  EXPECT_NE(before->data_version, after->data_version);
  EXPECT_EQ(value_at_key(*after, 0, 7)->i, 43);
  load(info);
  EXPECT_TRUE(info.from_cache);
}

TEST_F(TableCacheTest, ReplacedFileWithSameSizeAndMtimeIsSeen) {
  // A file replaced by another one (rename over it) of the same size and mtime: a new inode.
  LoadInfo info;
  TablePtr before = load(info);
  std::string text = mixed_csv();
  text.replace(text.find("42\n"), 2, "44");
  write_file(dir_.file("new.csv"), text);
  set_mtime(dir_.file("new.csv"), 1000000000, 5);
  ASSERT_EQ(::rename(dir_.file("new.csv").c_str(), csv().c_str()), 0);
  TablePtr after = load(info);
  EXPECT_FALSE(info.from_cache);
  EXPECT_EQ(value_at_key(*after, 0, 7)->i, 44);
  EXPECT_NE(before->data_version, after->data_version);
}

TEST_F(TableCacheTest, LoadRemovesTempFilesOfKilledWriters) {
  const std::string dead = cache() + ".tmp." + std::to_string(storage_test::dead_pid()) + ".0";
  const std::string live = cache() + ".tmp." + std::to_string(::getppid()) + ".0";
  write_file(dead, "half a cache");
  write_file(live, "being written");
  LoadInfo info;
  load(info);
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(info.cache_written);
}

TEST_F(TableCacheTest, CorruptOrTruncatedCacheIsIgnoredAndRewritten) {
  LoadInfo info;
  TablePtr good = load(info);
  std::string bytes = read_file(cache());
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x5a;
  write_file(cache(), flipped);
  TablePtr again = load(info);
  // The header is intact, so the cache opens; the damaged column is found when it is read (its block's checksum),
  // and comes from the CSV, which rewrites the cache.
  EXPECT_TRUE(info.from_cache);
  expect_same_table(*good, *again);
  EXPECT_EQ(read_file(cache()), bytes);  // rewritten identically

  write_file(cache(), bytes.substr(0, bytes.size() - 100));
  load(info);
  EXPECT_FALSE(info.from_cache);
  write_file(cache(), "HSTCACHE");
  load(info);
  EXPECT_FALSE(info.from_cache);
  write_file(cache(), "");
  load(info);
  EXPECT_FALSE(info.from_cache);
  load(info);
  EXPECT_TRUE(info.from_cache);
}

TEST_F(TableCacheTest, SchemaChangeInvalidatesTheCache) {
  LoadInfo info;
  load(info);
  TableDef other = mixed_def();
  other.buckets = 8;
  TablePtr t = load(info, other);
  EXPECT_FALSE(info.from_cache);
  EXPECT_EQ(t->buckets.size(), 8u);
  other.columns[6].nullable = false;
  load(info, other);
  EXPECT_FALSE(info.from_cache);
  EXPECT_NE(schema_fingerprint(mixed_def()), schema_fingerprint(other));
}

TEST_F(TableCacheTest, ReaderRejectsOtherStampsDirectly) {
  LoadInfo info;
  load(info);
  FileStamp stamp;
  ASSERT_TRUE(stat_file(csv(), stamp));
  EXPECT_TRUE(read_table_cache(cache(), mixed_def(), stamp).has_value());
  FileStamp bigger = stamp;
  bigger.size += 1;
  EXPECT_FALSE(read_table_cache(cache(), mixed_def(), bigger).has_value());
  EXPECT_FALSE(read_table_cache(dir_.file("nope.hsc"), mixed_def(), stamp).has_value());
}

/// Length of the header of a cache of mixed_def() (everything before the first column block).
size_t header_length(const std::string& bytes) {
  uint32_t schema_len;
  std::memcpy(&schema_len, bytes.data() + 56, 4);
  const size_t buckets = 4, columns = 8;
  return 60 + schema_len + 16 + 8 * buckets + 24 * buckets * columns + 8;
}

TEST_F(TableCacheTest, ACachedTableLoadsOnlyTheColumnsAskedFor) {
  LoadInfo info;
  TablePtr parsed = load(info);
  ASSERT_TRUE(info.cache_written);
  EXPECT_EQ(parsed->loaded_column_count(), 8u);  // parsed from the CSV: whole
  TablePtr cached = load(info);
  ASSERT_TRUE(info.from_cache);
  EXPECT_EQ(cached->loaded_column_count(), 0u);
  EXPECT_EQ(cached->row_count, 3000u);
  uint64_t rows = 0;
  for (size_t b = 0; b < cached->buckets.size(); ++b) {
    EXPECT_EQ(cached->rows_in_bucket(b), parsed->buckets[b][0].size());
    rows += cached->rows_in_bucket(b);
    EXPECT_TRUE(cached->buckets[b][6].strs.empty());  // not read
  }
  EXPECT_EQ(rows, 3000u);
  cached->load_columns({6});
  EXPECT_EQ(cached->loaded_column_count(), 1u);
  EXPECT_TRUE(cached->column_loaded(6));
  EXPECT_FALSE(cached->column_loaded(0));
  for (size_t b = 0; b < cached->buckets.size(); ++b) {
    EXPECT_EQ(cached->buckets[b][6].strs, parsed->buckets[b][6].strs);
    EXPECT_TRUE(cached->buckets[b][0].ints.empty());
  }
  cached->load_columns({6, 2});
  EXPECT_EQ(cached->loaded_column_count(), 2u);
  expect_same_table(*parsed, *cached);
  EXPECT_EQ(cached->loaded_column_count(), 8u);
}

TEST_F(TableCacheTest, ACorruptColumnIsNeverTrusted) {
  LoadInfo info;
  TablePtr parsed = load(info);
  const std::string bytes = read_file(cache());
  std::string damaged = bytes;
  const size_t at = damaged.find("note number 1428");
  ASSERT_NE(at, std::string::npos);
  ASSERT_GT(at, header_length(bytes));
  damaged[at + 5] = 'X';  // a byte of column "note", nothing else
  write_file(cache(), damaged);
  FileStamp stamp;
  ASSERT_TRUE(stat_file(csv(), stamp));

  // Without a fallback: the other columns read fine, the damaged one is an IO_ERROR and stays unloaded.
  std::optional<Table> opened = read_table_cache(cache(), mixed_def(), stamp);
  ASSERT_TRUE(opened.has_value());
  opened->load_columns({0, 5});
  EXPECT_EQ(opened->loaded_column_count(), 2u);
  storage_test::expect_throws([&] { opened->load_columns({6}); }, ErrorCode::IO_ERROR);
  EXPECT_FALSE(opened->column_loaded(6));
  storage_test::expect_throws([&] { opened->load_columns({6}); }, ErrorCode::IO_ERROR);  // still refused

  // Through the loader: the column comes from the CSV (never the damaged bytes) and the cache is rewritten.
  TablePtr cached = load(info);
  ASSERT_TRUE(info.from_cache);
  cached->load_columns({6});
  for (size_t b = 0; b < cached->buckets.size(); ++b) EXPECT_EQ(cached->buckets[b][6].strs, parsed->buckets[b][6].strs);
  expect_same_table(*parsed, *cached);
  EXPECT_EQ(read_file(cache()), bytes);
}

TEST_F(TableCacheTest, EveryDamagedHeaderByteAndEveryTruncationIsRefusedAtOpen) {
  LoadInfo info;
  load(info);
  const std::string bytes = read_file(cache());
  FileStamp stamp;
  ASSERT_TRUE(stat_file(csv(), stamp));
  ASSERT_TRUE(read_table_cache(cache(), mixed_def(), stamp).has_value());
  const size_t header = header_length(bytes);
  ASSERT_LT(header, bytes.size());
  // Truncated in every section: the fixed header, the schema, the row counts, the block table, the header's
  // checksum and each column block (at its first byte, inside it and one byte short of its end): the header's
  // block table no longer matches the file.
  uint32_t schema_len;
  std::memcpy(&schema_len, bytes.data() + 56, 4);
  std::vector<size_t> cuts = {0, 1, 7, 8, 12, 16, 30, 56, 59, 60, 60 + schema_len / 2, 60 + size_t{schema_len}};
  const size_t counts_end = 60 + schema_len + 16 + 8 * 4;
  for (size_t at : {60 + size_t{schema_len} + 5, 60 + size_t{schema_len} + 20, counts_end, counts_end + 100,
                    header - 8, header - 1})
    cuts.push_back(at);
  for (size_t k = 0; k < 4 * 8; ++k) {
    uint64_t offset, length;
    std::memcpy(&offset, bytes.data() + counts_end + 24 * k, 8);
    std::memcpy(&length, bytes.data() + counts_end + 24 * k + 8, 8);
    ASSERT_LE(offset + length, bytes.size());
    for (uint64_t at : {offset, offset + length / 2, offset + length - 1}) cuts.push_back(static_cast<size_t>(at));
  }
  for (size_t len : cuts) {
    ASSERT_LT(len, bytes.size());
    write_file(cache(), bytes.substr(0, len));
    EXPECT_FALSE(read_table_cache(cache(), mixed_def(), stamp).has_value()) << "truncated to " << len;
  }
  write_file(cache(), bytes + "x");
  EXPECT_FALSE(read_table_cache(cache(), mixed_def(), stamp).has_value());
  // A byte of the header flipped (every byte of the fixed part and the schema, every 5th after): the magic, the
  // version, the stamp or the schema no longer match, or the header's checksum does not.
  for (size_t i = 0; i < header; i += i < 60 + schema_len ? 1 : 5) {
    std::string flipped = bytes;
    flipped[i] ^= 0x01;
    write_file(cache(), flipped);
    EXPECT_FALSE(read_table_cache(cache(), mixed_def(), stamp).has_value()) << "byte " << i;
  }
  // And the loader, given a truncated cache, reads the CSV and writes a good cache again.
  write_file(cache(), bytes.substr(0, header + 10));
  TablePtr t = load(info);
  EXPECT_FALSE(info.from_cache);
  EXPECT_TRUE(info.cache_written);
  EXPECT_EQ(read_file(cache()), bytes);
}

TEST_F(TableCacheTest, ACacheOfAnotherFormatVersionIsIgnoredAndRewritten) {
  LoadInfo info;
  TablePtr parsed = load(info);
  const std::string bytes = read_file(cache());
  std::string old = bytes;
  const uint32_t previous = kTableCacheVersion - 1;
  std::memcpy(old.data() + 8, &previous, 4);
  write_file(cache(), old);
  TablePtr t = load(info);
  EXPECT_FALSE(info.from_cache);
  EXPECT_TRUE(info.cache_written);
  expect_same_table(*parsed, *t);
  EXPECT_EQ(read_file(cache()), bytes);
  load(info);
  EXPECT_TRUE(info.from_cache);
}

TEST_F(TableCacheTest, AChangedCsvInvalidatesALazilyReadCache) {
  LoadInfo info;
  load(info);
  TablePtr before = load(info);
  ASSERT_TRUE(info.from_cache);
  std::string text = mixed_csv();
  text.replace(text.find("42\n"), 2, "45");
  write_file(csv(), text);
  TablePtr after = load(info);
  EXPECT_FALSE(info.from_cache);
  EXPECT_EQ(value_at_key(*after, 0, 7)->i, 45);
  // The table opened before still reads the cache it opened: the data of the CSV it was opened for.
  EXPECT_EQ(value_at_key(*before, 0, 7)->i, 42);
  load(info);
  EXPECT_TRUE(info.from_cache);
}

TEST_F(TableCacheTest, ConcurrentStatementsLoadDifferentColumnsOnce) {
  LoadInfo info;
  TablePtr parsed = load(info);
  TablePtr cached = load(info);
  ASSERT_TRUE(info.from_cache);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] { cached->load_columns({i % 2 == 0 ? 6 : 0, i % 3 == 0 ? 2 : 5}); });
  for (auto& t : threads) t.join();
  EXPECT_EQ(cached->loaded_column_count(), 4u);
  for (size_t b = 0; b < cached->buckets.size(); ++b) {
    EXPECT_EQ(cached->buckets[b][6].strs, parsed->buckets[b][6].strs);
    EXPECT_EQ(cached->buckets[b][0].ints, parsed->buckets[b][0].ints);
    EXPECT_EQ(cached->buckets[b][2].ints, parsed->buckets[b][2].ints);
    EXPECT_EQ(cached->buckets[b][5].strs, parsed->buckets[b][5].strs);
  }
}

TEST_F(TableCacheTest, FailedWriteLeavesNothingBehind) {
  LoadInfo info;
  TableDef def = mixed_def();
  def.file = csv();  // absolute path: the folder argument is ignored
  TablePtr t = load_table("", def, LoadOptions{false, false}, &info);
  EXPECT_FALSE(info.cache_written);
  EXPECT_FALSE(std::filesystem::exists(cache()));
  EXPECT_FALSE(write_table_cache(dir_.file("no/such/dir/x.hsc"), *t, info.stamp));
  ASSERT_TRUE(write_table_cache(cache(), *t, info.stamp));
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 2u);  // the CSV and its cache, no temp files
}

}  // namespace
}  // namespace hindsight
