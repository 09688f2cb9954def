#include "planner/exec/operators/union_all.hpp"

#include "planner/common/error.hpp"

namespace hindsight {

UnionAllOp::UnionAllOp(ExecContext* ctx, int worker, std::vector<std::unique_ptr<ExecOperator>> children)
    : ExecOperator("UnionAll", ctx, worker) {
  HS_ASSERT(!children.empty(), "UnionAllOp without inputs");
  output_types_ = children[0]->output_types();
  for (auto& c : children) {
    HS_ASSERT(c->output_types().size() == output_types_.size(), "UnionAllOp inputs differ in width");
    for (size_t i = 0; i < output_types_.size(); ++i)
      HS_ASSERT(c->output_types()[i].physical() == output_types_[i].physical(), "UnionAllOp inputs differ in type");
    add_child(std::move(c));
  }
}

bool UnionAllOp::next_impl(Batch& out) {
  while (current_ < children_.size()) {
    if (pull(current_, out)) {
      // Children may differ in logical type details (e.g. DECIMAL precision); report the union's types.
      for (size_t i = 0; i < output_types_.size(); ++i) out.columns[i].type = output_types_[i];
      return true;
    }
    ++current_;
  }
  return false;
}

}  // namespace hindsight
