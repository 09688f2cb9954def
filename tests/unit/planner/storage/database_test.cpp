#include "planner/storage/database.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "planner/catalog/catalog_json.hpp"
#include "storage_test_util.hpp"

namespace hindsight {
namespace {

using storage_test::expect_throws;
using storage_test::set_mtime;
using storage_test::TempDir;
using storage_test::write_file;

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_.file("catalog.json"), R"({"tables": [
      {"name": "kv", "file": "kv.csv", "columns": [{"name": "k", "type": "BIGINT", "nullable": false},
                                                    {"name": "v", "type": "VARCHAR"}],
       "distribution": {"kind": "hash", "columns": ["k"], "buckets": 3}},
      {"name": "gone", "file": "gone.csv", "columns": [{"name": "a", "type": "INTEGER"}]}]})");
    write_file(dir_.file("kv.csv"), "k,v\n1,a\n2,b\n3,c\n");
  }
  TempDir dir_;
};

TEST_F(DatabaseTest, LoadsLazilyAndSharesTheTable) {
  Database db(dir_.path());
  EXPECT_EQ(db.catalog().tables.size(), 2u);
  EXPECT_EQ(db.data_dir(), dir_.path());
  LoadInfo info;
  TablePtr a = db.table("KV", info);
  EXPECT_EQ(a->row_count, 3u);
  EXPECT_EQ(a->buckets.size(), 3u);
  EXPECT_GT(info.seconds, 0.0);
  TablePtr b = db.table("kv", info);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(info.seconds, 0.0);  // served from memory
}

TEST_F(DatabaseTest, UnknownTableMissingFileAndBadCatalog) {
  Database db(dir_.path());
  expect_throws([&] { db.table("nope"); }, ErrorCode::BIND_ERROR);
  expect_throws([&] { db.table("gone"); }, ErrorCode::IO_ERROR);
  TempDir empty;
  expect_throws([&] { Database bad(empty.path()); }, ErrorCode::IO_ERROR);
}

TEST_F(DatabaseTest, FailedLoadKeepsNothingAndRetries) {
  write_file(dir_.file("kv.csv"), "k,v\n1,a\nnot-a-number,b\n");
  Database db(dir_.path());
  Error e = expect_throws([&] { db.table("kv"); }, ErrorCode::DATA_ERROR);
  EXPECT_EQ(e.pos().line, 3);
  write_file(dir_.file("kv.csv"), "k,v\n1,a\n2,b\n");
  EXPECT_EQ(db.table("kv")->row_count, 2u);
}

TEST_F(DatabaseTest, ReloadsWhenTheFileChangesAndKeepsOldDataOnFailure) {
  Database db(dir_.path());
  TablePtr first = db.table("kv");
  write_file(dir_.file("kv.csv"), "k,v\n1,a\n2,b\n3,c\n4,d\n");
  set_mtime(dir_.file("kv.csv"), 2000000000);
  TablePtr second = db.table("kv");
  EXPECT_EQ(second->row_count, 4u);
  EXPECT_NE(first->data_version, second->data_version);
  EXPECT_EQ(first->row_count, 3u);  // holders of the old table keep a consistent snapshot

  write_file(dir_.file("kv.csv"), "k,v\nbroken\n");
  set_mtime(dir_.file("kv.csv"), 2000000100);
  expect_throws([&] { db.table("kv"); }, ErrorCode::DATA_ERROR);
  write_file(dir_.file("kv.csv"), "k,v\n9,z\n");
  set_mtime(dir_.file("kv.csv"), 2000000200);
  EXPECT_EQ(db.table("kv")->row_count, 1u);
}

TEST_F(DatabaseTest, ReloadsAfterASameSizeEditWhoseMtimeWasPutBack) {
  set_mtime(dir_.file("kv.csv"), 2000000000);
  Database db(dir_.path());
  TablePtr first = db.table("kv");
  storage_test::overwrite_in_place(dir_.file("kv.csv"), 10, "z");  // "2,b" -> "2,z"
  set_mtime(dir_.file("kv.csv"), 2000000000);
  TablePtr second = db.table("kv");
  EXPECT_NE(first.get(), second.get());
  EXPECT_NE(first->data_version, second->data_version);
  bool seen = false;
  for (const auto& bucket : second->buckets)
    for (size_t r = 0; r < bucket[0].size(); ++r)
      if (bucket[0].ints[r] == 2) seen = bucket[1].strs[r] == "z";
  EXPECT_TRUE(seen);
}

TEST_F(DatabaseTest, ConcurrentCallersGetOneLoad) {
  Database db(dir_.path());
  std::vector<TablePtr> got(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i) threads.emplace_back([&, i] { got[i] = db.table("kv"); });
  for (auto& t : threads) t.join();
  for (auto& t : got) EXPECT_EQ(t.get(), got[0].get());
}

TEST_F(DatabaseTest, BuildsFromACatalogObject) {
  Catalog c = load_catalog(dir_.path());
  Database db(c, LoadOptions{false, false});
  EXPECT_EQ(db.table("kv")->row_count, 3u);
  EXPECT_FALSE(std::filesystem::exists(dir_.file("kv.csv.hsc")));
}

}  // namespace
}  // namespace hindsight
