#include <gtest/gtest.h>

#include "planner/exec/operators/filter.hpp"
#include "planner/exec/operators/project.hpp"
#include "planner/exec/operators/table_scan.hpp"
#include "planner/exec/operators/union_all.hpp"
#include "planner/exec/operators/values.hpp"
#include "tests/unit/planner/exec/exec_test_util.hpp"

namespace hindsight {
namespace {

using namespace hindsight::testing;
using V = std::vector<std::string>;

/// Table t(id BIGINT, name VARCHAR) with `buckets` buckets; bucket b holds ids b*100 .. b*100 + rows_per_bucket - 1.
TablePtr make_table(int buckets, size_t rows_per_bucket, DistributionKind dist = DistributionKind::Random) {
  auto t = std::make_shared<Table>();
  t->def.name = "t";
  t->def.columns = {{"id", DataType::bigint(), false}, {"name", DataType::varchar(), true}};
  t->def.distribution = dist;
  t->def.buckets = buckets;
  for (int b = 0; b < buckets; ++b) {
    std::vector<OptInt> ids;
    std::vector<OptStr> names;
    for (size_t r = 0; r < rows_per_bucket; ++r) {
      ids.push_back(b * 100000 + static_cast<int64_t>(r));
      names.push_back(r % 3 == 0 ? std::nullopt : OptStr("n" + std::to_string(r)));
    }
    t->buckets.push_back({int_col(ids), str_col(names)});
    t->row_count += rows_per_bucket;
  }
  return t;
}

TEST(ExecScanTest, WorkersReadTheirBucketsInSlices) {
  TestContext tc(int64_t{1} << 40, 2);
  TablePtr t = make_table(4, 5000);
  TableScanOp w0(&tc.ctx, 0, t, {1, 0}, nullptr);
  TableScanOp w1(&tc.ctx, 1, t, {0}, nullptr);
  V r0 = drain(w0), r1 = drain(w1);
  ASSERT_EQ(r0.size(), 10000u);
  ASSERT_EQ(r1.size(), 10000u);
  EXPECT_EQ(r0[0], "NULL|0");
  EXPECT_EQ(r0[1], "n1|1");
  EXPECT_EQ(r0[5000], "NULL|200000");  // bucket 2 after bucket 0
  EXPECT_EQ(r1[0], "100000");
  EXPECT_EQ(r1[5000], "300000");
  EXPECT_EQ(w0.stats().batches_out, 2u * ((5000 + kBatchSize - 1) / kBatchSize));
  EXPECT_EQ(w0.output_types(), (std::vector<DataType>{DataType::varchar(), DataType::bigint()}));
}

TEST(ExecScanTest, ReplicatedTableIsReadInFullByEveryWorker) {
  TestContext tc(int64_t{1} << 40, 3);
  TablePtr t = make_table(1, 10, DistributionKind::Replicated);
  for (int w = 0; w < 3; ++w) {
    TableScanOp scan(&tc.ctx, w, t, {0}, nullptr);
    EXPECT_EQ(drain(scan).size(), 10u);
  }
}

TEST(ExecScanTest, FilterOverProjectedLayout) {
  TestContext tc;
  TablePtr t = make_table(1, 5000);
  // projected layout: [name, id]; keep id >= 4990
  TableScanOp scan(&tc.ctx, 0, t, {1, 0}, compare(ScalarOp::Ge, col_ref(1), lit(4990)));
  EXPECT_EQ(drain(scan), (V{"n4990|4990", "n4991|4991", "NULL|4992", "n4993|4993", "n4994|4994", "NULL|4995",
                            "n4996|4996", "n4997|4997", "NULL|4998", "n4999|4999"}));
  EXPECT_EQ(scan.stats().rows_out, 10u);
  EXPECT_EQ(scan.stats().batches_out, 1u);
}

TEST(ExecScanTest, FilterAndLimitPushedIntoTheScan) {
  TestContext tc;
  TablePtr t = make_table(1, 5000);
  TableScanOp scan(&tc.ctx, 0, t, {1, 0}, compare(ScalarOp::Ge, col_ref(1), lit(4990)), 4);
  EXPECT_EQ(drain(scan), (V{"n4990|4990", "n4991|4991", "NULL|4992", "n4993|4993"}));
  TableScanOp plain(&tc.ctx, 0, t, {0}, nullptr, 3000);
  EXPECT_EQ(drain(plain).size(), 3000u);
  EXPECT_TRUE(plain.stats().complete);
}

// The scan evaluates its filter on the table's columns in place, slice by slice and bucket by bucket, and copies
// only the rows it keeps: a LIKE (fast path) and a generic comparison (evaluated through a selection of the table's
// own row numbers) over slices that do not start at row 0, with NULL strings among them.
TEST(ExecScanTest, FilterReadsTheTableInPlaceOverEverySlice) {
  TestContext tc;
  TablePtr t = make_table(2, 5000);
  std::vector<ExprPtr> plus;
  plus.push_back(col_ref(1));
  plus.push_back(lit(1));
  std::vector<ExprPtr> like_args;
  like_args.push_back(col_ref(0, DataType::varchar()));
  like_args.push_back(Expr::constant(Value::varchar("n4%")));
  auto like = Expr::make(ExprKind::Like, DataType::boolean(), std::move(like_args));
  std::vector<ExprPtr> both;
  both.push_back(compare(ScalarOp::Gt, Expr::call(ScalarOp::Add, DataType::bigint(), std::move(plus)), lit(4000)));
  both.push_back(std::move(like));
  TableScanOp scan(&tc.ctx, 0, t, {1, 0}, Expr::make(ExprKind::And, DataType::boolean(), std::move(both)));
  V expected;
  for (int b = 0; b < 2; ++b)
    for (int r = 0; r < 5000; ++r) {
      const std::string name = "n" + std::to_string(r);
      const int64_t id = b * 100000 + r;
      if (r % 3 != 0 && id + 1 > 4000 && name.rfind("n4", 0) == 0) expected.push_back(name + "|" + std::to_string(id));
    }
  EXPECT_EQ(drain(scan), expected);
  EXPECT_EQ(scan.stats().rows_out, expected.size());
}

TEST(ExecScanTest, FilterOpKeepsTrueRowsOnly) {
  TestContext tc;
  Batch in = make_batch({int_col({1, std::nullopt, 5, 7}), str_col({"a", "b", "c", "d"})});
  FilterOp f(&tc.ctx, 0, source(&tc.ctx, in, 2), compare(ScalarOp::Gt, col_ref(0), lit(2)));
  EXPECT_EQ(drain(f), (V{"5|c", "7|d"}));
  EXPECT_EQ(f.stats().rows_in, 4u);
  EXPECT_EQ(f.stats().rows_out, 2u);
}

TEST(ExecScanTest, ProjectMovesColumnsAndEvaluatesExpressions) {
  TestContext tc;
  Batch in = make_batch({int_col({1, std::nullopt, 5}), str_col({"a", "b", std::nullopt})});
  std::vector<ExprPtr> exprs;
  exprs.push_back(col_ref(1, DataType::varchar()));
  std::vector<ExprPtr> args;
  args.push_back(col_ref(0));
  args.push_back(lit(10));
  exprs.push_back(Expr::call(ScalarOp::Add, DataType::bigint(), std::move(args)));
  exprs.push_back(col_ref(0));
  exprs.push_back(col_ref(1, DataType::varchar()));
  ProjectOp p(&tc.ctx, 0, source(&tc.ctx, in), std::move(exprs));
  EXPECT_EQ(drain(p), (V{"a|11|1|a", "b|NULL|NULL|b", "NULL|15|5|NULL"}));
}

TEST(ExecScanTest, ValuesOnWorkerZeroAndUnionAll) {
  TestContext tc(int64_t{1} << 40, 2);
  auto values = [&](int worker) {
    std::vector<Batch> b;
    b.push_back(make_batch({int_col({1, 2})}));
    return std::make_unique<ValuesOp>(&tc.ctx, worker, std::move(b));
  };
  EXPECT_EQ(drain(*values(1)), V{});
  std::vector<std::unique_ptr<ExecOperator>> children;
  children.push_back(values(0));
  children.push_back(source(&tc.ctx, make_batch({int_col({3})})));
  children.push_back(values(0));
  UnionAllOp u(&tc.ctx, 0, std::move(children));
  EXPECT_EQ(drain(u), (V{"1", "2", "3", "1", "2"}));
  EXPECT_EQ(u.stats().rows_in, 5u);
}

}  // namespace
}  // namespace hindsight
