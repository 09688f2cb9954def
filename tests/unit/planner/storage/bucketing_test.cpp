#include "planner/storage/bucketing.hpp"

#include <gtest/gtest.h>

namespace hindsight {
namespace {

ColumnVector ints(std::vector<int64_t> v, DataType t = DataType::bigint()) {
  ColumnVector c(t);
  c.ints = std::move(v);
  return c;
}

TEST(BucketingTest, RowHashFoldsColumnHashesInOrder) {
  ColumnVector a = ints({1, 2, 1});
  ColumnVector s(DataType::varchar());
  s.strs = {"x", "y", "x"};
  std::vector<uint64_t> h;
  row_hashes({&a, &s}, 3, h);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0], hash_combine(hash_combine(0, hash_int64(1)), hash_bytes("x")));
  EXPECT_EQ(h[0], h[2]);  // equal keys, equal hashes
  EXPECT_NE(h[0], h[1]);
  std::vector<uint64_t> swapped;
  row_hashes({&s, &a}, 3, swapped);
  EXPECT_NE(swapped[0], h[0]);  // order of key columns matters
  row_hashes({}, 3, h);
  EXPECT_EQ(h, (std::vector<uint64_t>{0, 0, 0}));
}

TEST(BucketingTest, NullsAndNegativeZero) {
  ColumnVector d(DataType::float64());
  d.dbls = {0.0, -0.0, 1.5, 0.0};
  d.set_null(3);
  std::vector<uint64_t> h;
  row_hashes({&d}, 4, h);
  EXPECT_EQ(h[0], h[1]);
  EXPECT_NE(h[0], h[2]);
  EXPECT_EQ(h[3], hash_combine(0, kNullHash));
  ColumnVector i = ints({5, 5});
  i.set_null(1);
  row_hashes({&i}, 2, h);
  EXPECT_EQ(h[1], hash_combine(0, kNullHash));
  EXPECT_EQ(h[0], hash_combine(0, hash_int64(5)));
}

TEST(BucketingTest, AssignBucketsPerDistribution) {
  TableDef def;
  def.name = "t";
  def.columns = {{"a", DataType::integer(), true}, {"k", DataType::bigint(), true}};
  std::vector<ColumnVector> cols = {ints({9, 9, 9, 9, 9, 9}, DataType::integer()), ints({10, 11, 10, 12, 11, 10})};
  std::vector<uint32_t> out;

  def.distribution = DistributionKind::Hash;
  def.distribution_columns = {"K"};
  def.buckets = 7;
  assign_buckets(def, cols, 6, 0, out);
  EXPECT_EQ(out[0], out[2]);
  EXPECT_EQ(out[0], out[5]);
  EXPECT_EQ(out[1], out[4]);
  EXPECT_EQ(out[0], static_cast<uint32_t>(bucket_of(hash_combine(0, hash_int64(10)), 7)));
  EXPECT_EQ(distribution_column_indexes(def), std::vector<int>{1});

  def.distribution = DistributionKind::Random;
  def.buckets = 4;
  assign_buckets(def, cols, 6, 3, out);
  EXPECT_EQ(out, (std::vector<uint32_t>{3, 0, 1, 2, 3, 0}));

  def.distribution = DistributionKind::Replicated;
  assign_buckets(def, cols, 6, 0, out);
  EXPECT_EQ(out, (std::vector<uint32_t>(6, 0)));
}

TEST(BucketingTest, EqualKeysOfDifferentTablesShareBucketNumbers) {
  // The rule depends only on key values and bucket count, so two tables hashed on an equal key co-locate.
  TableDef orders, lineitem;
  orders.columns = {{"o_orderkey", DataType::bigint(), false}};
  lineitem.columns = {{"l_comment", DataType::varchar(), false}, {"l_orderkey", DataType::bigint(), false}};
  for (TableDef* d : {&orders, &lineitem}) {
    d->distribution = DistributionKind::Hash;
    d->buckets = 8;
  }
  orders.distribution_columns = {"o_orderkey"};
  lineitem.distribution_columns = {"l_orderkey"};
  std::vector<int64_t> keys;
  for (int64_t k = 1; k < 500; ++k) keys.push_back(k * 32 + 3);
  ColumnVector comments(DataType::varchar());
  comments.strs.assign(keys.size(), "c");
  std::vector<ColumnVector> o = {ints(keys)}, l = {comments, ints(keys)};
  std::vector<uint32_t> ob, lb;
  assign_buckets(orders, o, keys.size(), 0, ob);
  assign_buckets(lineitem, l, keys.size(), 0, lb);
  EXPECT_EQ(ob, lb);
  std::vector<int> used(8, 0);
  for (auto b : ob) used[b]++;
  for (int n : used) EXPECT_GT(n, 30);  // and spreads them
}

}  // namespace
}  // namespace hindsight
