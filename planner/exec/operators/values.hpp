#pragma once
#include <vector>

#include "planner/exec/exec_operator.hpp"

namespace hindsight {

/// Produces the given batches (constant rows, e.g. SELECT 1). Only worker 0 produces; other instances are empty.
/// Output: the batches' layout, which must be the same for all of them; pass at least one batch (possibly with
/// zero rows but typed columns) so the output types are known.
class ValuesOp : public ExecOperator {
 public:
  ValuesOp(ExecContext* ctx, int worker, std::vector<Batch> batches);

 protected:
  bool next_impl(Batch& out) override;

 private:
  std::vector<Batch> batches_;
  size_t pos_ = 0;
};

}  // namespace hindsight
