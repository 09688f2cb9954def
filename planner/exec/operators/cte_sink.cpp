#include "planner/exec/operators/cte_sink.hpp"

#include "planner/common/error.hpp"

namespace hindsight {

CteSinkOp::CteSinkOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::shared_ptr<CteBuffer> buffer)
    : ExecOperator("CteSink", ctx, worker), buffer_(std::move(buffer)) {
  output_types_ = buffer_->types();
  add_child(std::move(child));
}

bool CteSinkOp::next_impl(Batch& out) {
  Batch in;
  while (pull(0, in)) buffer_->append(std::move(in), label());
  out.rows = 0;
  return false;
}

CteScanOp::CteScanOp(ExecContext* ctx, int worker, int instances, std::shared_ptr<CteBuffer> buffer, std::vector<int> columns)
    : ExecOperator("CteScan", ctx, worker), buffer_(std::move(buffer)), instances_(instances), columns_(std::move(columns)) {
  for (int c : columns_) {
    HS_ASSERT(c >= 0 && static_cast<size_t>(c) < buffer_->types().size(), "CTE scan column out of range");
    output_types_.push_back(buffer_->types()[static_cast<size_t>(c)]);
  }
}

void CteScanOp::open() {
  ExecOperator::open();
  mine_ = buffer_->share(worker_, instances_);
}

bool CteScanOp::next_impl(Batch& out) {
  if (next_ >= mine_.size()) return false;
  const Batch& b = *mine_[next_++];
  out.columns.clear();
  for (int c : columns_) out.columns.push_back(b.columns[static_cast<size_t>(c)]);
  out.rows = b.rows;
  return true;
}

}  // namespace hindsight
