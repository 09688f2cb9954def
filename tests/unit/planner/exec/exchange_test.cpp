#include "planner/exec/exchange.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "planner/exec/operators/exchange_sink.hpp"
#include "planner/exec/operators/exchange_source.hpp"
#include "planner/exec/operators/table_scan.hpp"
#include "planner/storage/bucketing.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

/// Pushes `in` through a sink on worker `w`, then drains every consumer.
std::vector<V> through(TestContext& tc, std::shared_ptr<ExchangeBuffer> buf, std::vector<Batch> inputs) {
  for (size_t w = 0; w < inputs.size(); ++w) {
    ExchangeSinkOp sink(&tc.ctx, static_cast<int>(w), source(&tc.ctx, std::move(inputs[w]), 700, static_cast<int>(w)),
                        buf);
    EXPECT_EQ(drain(sink), V{});
    EXPECT_TRUE(sink.stats().complete);
  }
  std::vector<V> out;
  for (int c = 0; c < buf->consumers(); ++c) {
    ExchangeSourceOp src(&tc.ctx, c, buf);
    out.push_back(drain(src));
  }
  return out;
}

Batch keyed(int from, int to) {
  std::vector<OptInt> k;
  std::vector<OptStr> s;
  for (int i = from; i < to; ++i) {
    k.push_back(i % 97 == 0 ? std::nullopt : OptInt(i % 50));
    s.push_back("r" + std::to_string(i));
  }
  return make_batch({int_col(k), str_col(s)});
}

TEST(ExchangeTest, GatherSendsEverythingToConsumerZero) {
  TestContext tc;
  auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1,
                                              std::vector<DataType>{DataType::bigint(), DataType::varchar()}, &tc.memory);
  std::vector<Batch> in;
  in.push_back(keyed(0, 1000));
  in.push_back(keyed(1000, 3000));
  auto out = through(tc, buf, std::move(in));
  EXPECT_EQ(out[0].size(), 3000u);
  EXPECT_EQ(buf->rows_moved(), 3000u);
  EXPECT_EQ(tc.memory.used(), 0);
  EXPECT_GT(tc.memory.peak(), 0);
}

TEST(ExchangeTest, RepartitionPutsEqualKeysOnOneWorkerLikeStorageBucketing) {
  TestContext tc(int64_t{1} << 40, 3);
  const int buckets = 12;
  auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Repartition, 3,
                                              std::vector<DataType>{DataType::bigint(), DataType::varchar()}, &tc.memory,
                                              std::vector<int>{0}, buckets);
  std::vector<Batch> in;
  for (int w = 0; w < 3; ++w) in.push_back(keyed(w * 4000, (w + 1) * 4000));
  auto out = through(tc, buf, std::move(in));
  std::map<std::string, int> worker_of_key;
  size_t total = 0;
  for (int c = 0; c < 3; ++c) {
    total += out[c].size();
    for (auto& row : out[c]) {
      std::string key = row.substr(0, row.find('|'));
      auto [it, fresh] = worker_of_key.emplace(key, c);
      EXPECT_EQ(it->second, c) << "key " << key << " on two workers";
      // Storage puts a row with this key in bucket_of(row hash, buckets), read by worker bucket % workers.
      ColumnVector kc(DataType::bigint());
      key == "NULL" ? kc.append_null() : kc.append_int(std::stoll(key));
      std::vector<uint64_t> h;
      row_hashes({&kc}, 1, h);
      EXPECT_EQ(bucket_of(h[0], buckets) % 3, c);
    }
  }
  EXPECT_EQ(total, 12000u);
  EXPECT_EQ(worker_of_key.size(), 51u);  // 50 values and NULL
  std::set<int> used;
  for (auto& [k, w] : worker_of_key) used.insert(w);
  EXPECT_EQ(used.size(), 3u);
  EXPECT_EQ(buf->rows_moved(), 12000u);
  EXPECT_EQ(tc.memory.used(), 0);
}

TEST(ExchangeTest, RepartitionMatchesAHashBucketedTableScan) {
  // A hash-distributed table with 4 buckets read by 2 workers, and the same rows repartitioned with buckets = 4:
  // every key must land on the worker that scans it.
  TestContext tc(int64_t{1} << 40, 2);
  auto table = std::make_shared<Table>();
  table->def.name = "t";
  table->def.columns = {{"k", DataType::bigint(), false}};
  table->def.distribution = DistributionKind::Hash;
  table->def.distribution_columns = {"k"};
  table->def.buckets = 4;
  table->buckets.assign(4, std::vector<ColumnVector>{ColumnVector(DataType::bigint())});
  ColumnVector all = int_col({});
  for (int i = 0; i < 500; ++i) all.append_int(i * 7);
  std::vector<uint32_t> bucket;
  assign_buckets(table->def, {all}, all.size(), 0, bucket);
  for (size_t r = 0; r < all.size(); ++r) table->buckets[bucket[r]][0].append_int(all.ints[r]);
  auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Repartition, 2, std::vector<DataType>{DataType::bigint()},
                                              &tc.memory, std::vector<int>{0}, 4);
  std::vector<Batch> in;
  in.push_back(make_batch({all}));
  auto out = through(tc, buf, std::move(in));
  for (int w = 0; w < 2; ++w) {
    TableScanOp scan(&tc.ctx, w, table, {0}, nullptr);
    EXPECT_EQ(sorted(drain(scan)), sorted(out[w]));
  }
}

TEST(ExchangeTest, BroadcastDeliversAllRowsToEveryConsumerAndChargesPerConsumer) {
  TestContext tc;
  auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Broadcast, 4,
                                              std::vector<DataType>{DataType::bigint(), DataType::varchar()}, &tc.memory);
  Batch b = keyed(0, 500);
  // Charged: what the buffered batch's buffers allocate (capacities, string blocks), once per consumer; live: its
  // data (byte_size), once per consumer.
  const int64_t live = static_cast<int64_t>(b.byte_size());
  {
    ExchangeSinkOp sink(&tc.ctx, 0, source(&tc.ctx, std::move(b)), buf);
    drain(sink);
  }
  const int64_t bytes = tc.memory.used() / 4;
  EXPECT_EQ(tc.memory.used(), 4 * bytes);
  EXPECT_GE(bytes, live);
  EXPECT_LE(bytes, 2 * live);
  EXPECT_EQ(tc.memory.live(), 4 * live);
  EXPECT_EQ(buf->buffered_bytes(), 4 * bytes);
  EXPECT_EQ(buf->rows_moved(), 2000u);
  EXPECT_EQ(buf->bytes_moved(), static_cast<uint64_t>(4 * live));
  V first;
  for (int c = 0; c < 4; ++c) {
    ExchangeSourceOp src(&tc.ctx, c, buf);
    V rows = drain(src);
    EXPECT_EQ(rows.size(), 500u);
    if (c == 0) first = rows;
    else EXPECT_EQ(rows, first);
    EXPECT_EQ(tc.memory.used(), (3 - c) * bytes);
    EXPECT_EQ(tc.memory.live(), (3 - c) * live);
  }
}

// A batch kept with the capacity of a larger one (a selective filter's output) is charged what it allocates,
// so the buffer compacts it first: what it charges stays within 2x of the rows it holds.
TEST(ExchangeTest, AMostlyEmptyBatchIsCompactedBeforeItIsBuffered) {
  TestContext tc;
  auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1,
                                              std::vector<DataType>{DataType::bigint(), DataType::varchar()}, &tc.memory);
  Batch b = keyed(0, 10);
  for (auto& c : b.columns) {
    c.reserve(kBatchSize);
    c.nulls.reserve(kBatchSize);
  }
  const int64_t live = static_cast<int64_t>(b.byte_size());
  buf->push(0, std::move(b), "sink");
  EXPECT_EQ(tc.memory.live(), live);
  EXPECT_GE(tc.memory.used(), live);
  EXPECT_LE(tc.memory.used(), 2 * live);
  Batch out;
  ASSERT_TRUE(buf->pop(0, out));
  EXPECT_EQ(out.rows, 10u);
  EXPECT_LE(out.columns[0].ints.capacity(), 20u);
  EXPECT_LE(out.columns[1].strs.capacity(), 20u);
  EXPECT_EQ(tc.memory.used(), 0);
  EXPECT_EQ(tc.memory.live(), 0);
}

TEST(ExchangeTest, BroadcastOverTheBudgetFailsNamingTheSink) {
  Batch b = keyed(0, 500);
  const int64_t bytes = static_cast<int64_t>(b.byte_size());
  TestContext tc(3 * bytes);  // room for three copies, not four
  auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Broadcast, 4,
                                              std::vector<DataType>{DataType::bigint(), DataType::varchar()}, &tc.memory);
  ExchangeSinkOp sink(&tc.ctx, 0, source(&tc.ctx, std::move(b)), buf);
  sink.exec_id = 5;
  try {
    drain(sink);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MEMORY_LIMIT_EXCEEDED);
    EXPECT_NE(e.message().find("ExchangeSink#5"), std::string::npos) << e.message();
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

TEST(ExchangeTest, UnconsumedRowsAreReleasedWithTheBuffer) {
  TestContext tc;
  {
    auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Repartition, 2,
                                                std::vector<DataType>{DataType::bigint(), DataType::varchar()},
                                                &tc.memory, std::vector<int>{0});
    ExchangeSinkOp sink(&tc.ctx, 0, source(&tc.ctx, keyed(0, 3000)), buf);
    drain(sink);
    EXPECT_GT(tc.memory.used(), 0);
  }
  EXPECT_EQ(tc.memory.used(), 0);
}

TEST(ExchangeTest, SinkRejectsALayoutTheBufferDoesNotCarry) {
  TestContext tc;
  auto buf = std::make_shared<ExchangeBuffer>(ExchangeKind::Gather, 1, std::vector<DataType>{DataType::bigint()},
                                              &tc.memory);
  Batch dec = make_batch({int_col({150}, DataType::decimal(18, 2))});
  EXPECT_THROW(ExchangeSinkOp(&tc.ctx, 0, source(&tc.ctx, dec), buf), Error);
  Batch dates = make_batch({int_col({1}, DataType::date())});
  EXPECT_NO_THROW(ExchangeSinkOp(&tc.ctx, 0, source(&tc.ctx, dates), buf));
}

}  // namespace
}  // namespace hindsight
