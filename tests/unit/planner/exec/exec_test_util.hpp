#pragma once
// Builders shared by the executable-operator tests: columns from literals, a leaf that replays batches, and a
// drain that renders rows as "a|b|NULL" strings.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "planner/common/error.hpp"
#include "planner/exec/exec_operator.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "planner/expr/expr.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight::testing {

using OptInt = std::optional<int64_t>;
using OptStr = std::optional<std::string>;
using OptDbl = std::optional<double>;

inline ColumnVector int_col(const std::vector<OptInt>& v, DataType t = DataType::bigint()) {
  ColumnVector c(t);
  for (auto& x : v) x ? c.append_int(*x) : c.append_null();
  return c;
}
inline ColumnVector str_col(const std::vector<OptStr>& v) {
  ColumnVector c(DataType::varchar());
  for (auto& x : v) x ? c.append_string(*x) : c.append_null();
  return c;
}
inline ColumnVector dbl_col(const std::vector<OptDbl>& v) {
  ColumnVector c(DataType::float64());
  for (auto& x : v) x ? c.append_double(*x) : c.append_null();
  return c;
}
inline Batch make_batch(std::vector<ColumnVector> cols) {
  Batch b;
  b.rows = cols.empty() ? 0 : cols[0].size();
  b.columns = std::move(cols);
  return b;
}
inline std::vector<DataType> types_of(const Batch& b) {
  std::vector<DataType> t;
  for (auto& c : b.columns) t.push_back(c.type);
  return t;
}

/// A leaf that replays copies of the given batches (on every worker), split into chunks of `chunk` rows.
class BatchSourceOp : public ExecOperator {
 public:
  BatchSourceOp(ExecContext* ctx, int worker, std::vector<DataType> types, std::vector<Batch> batches,
                size_t chunk = kBatchSize)
      : ExecOperator("BatchSource", ctx, worker), batches_(std::move(batches)), chunk_(chunk) {
    output_types_ = std::move(types);
  }
  /// Throws this error from next() after `after_batches` batches (for failure tests).
  int fail_after = -1;
  ErrorCode fail_code = ErrorCode::TRANSIENT;

 protected:
  bool next_impl(Batch& out) override;

 private:
  std::vector<Batch> batches_;
  size_t chunk_;
  size_t batch_ = 0, row_ = 0;
  int emitted_ = 0;
};

/// Builds a BatchSourceOp over one batch.
inline std::unique_ptr<BatchSourceOp> source(ExecContext* ctx, Batch b, size_t chunk = kBatchSize, int worker = 0) {
  auto t = types_of(b);
  std::vector<Batch> v;
  v.push_back(std::move(b));
  return std::make_unique<BatchSourceOp>(ctx, worker, std::move(t), std::move(v), chunk);
}

inline bool BatchSourceOp::next_impl(Batch& out) {
  if (fail_after >= 0 && emitted_ >= fail_after) throw Error(fail_code, "injected failure");
  while (batch_ < batches_.size()) {
    const Batch& b = batches_[batch_];
    if (row_ >= b.rows) {
      ++batch_;
      row_ = 0;
      continue;
    }
    size_t end = std::min(b.rows, row_ + chunk_);
    out.columns.clear();
    for (auto& c : b.columns) {
      ColumnVector part(c.type);
      for (size_t r = row_; r < end; ++r) part.append_from(c, r);
      out.columns.push_back(std::move(part));
    }
    out.rows = end - row_;
    row_ = end;
    ++emitted_;
    return true;
  }
  return false;
}

/// Renders row r of a batch as "v1|v2|...".
inline std::string row_string(const Batch& b, size_t r) {
  std::string s;
  for (size_t c = 0; c < b.columns.size(); ++c) {
    if (c) s += '|';
    s += b.columns[c].get(r).to_string();
  }
  return s;
}
/// Rows of batches rendered.
inline std::vector<std::string> rows_of(const std::vector<Batch>& batches) {
  std::vector<std::string> rows;
  for (auto& b : batches)
    for (size_t r = 0; r < b.rows; ++r) rows.push_back(row_string(b, r));
  return rows;
}
/// Opens `op`, drains it and returns its rows rendered.
inline std::vector<std::string> drain(ExecOperator& op) {
  op.open();
  std::vector<std::string> rows;
  Batch b;
  while (op.next(b)) {
    EXPECT_GT(b.rows, 0u);
    for (auto& c : b.columns) EXPECT_EQ(c.size(), b.rows);
    for (auto& c : b.columns) EXPECT_TRUE(c.nulls.empty() || c.nulls.size() == b.rows);
    for (size_t r = 0; r < b.rows; ++r) rows.push_back(row_string(b, r));
  }
  return rows;
}
inline std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

/// A context with a tracker of `limit` bytes and `workers` workers.
struct TestContext {
  explicit TestContext(int64_t limit = int64_t{1} << 40, int workers = 1) : memory(limit) {
    ctx.memory = &memory;
    ctx.workers = workers;
  }
  MemoryTracker memory;
  ExecContext ctx;
};

// Expression builders over resolved column positions.
inline ExprPtr col_ref(int index, DataType t = DataType::bigint()) {
  return Expr::column(static_cast<ColumnId>(index), t, index);
}
inline ExprPtr lit(int64_t v) { return Expr::constant(Value::bigint(v)); }
inline ExprPtr compare(ScalarOp op, ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return Expr::call(op, DataType::boolean(), std::move(args));
}

}  // namespace hindsight::testing
