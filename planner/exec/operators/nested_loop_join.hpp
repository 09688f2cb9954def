#pragma once
#include <memory>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/join_type.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight {

/// Joins every probe row with every row of the materialised build side (memory charged), keeping the pairs for
/// which `condition` (over [probe columns..., build columns...]; null = cross join) is TRUE.
/// Supports Inner, ProbeOuter, Semi and Anti (others throw NOT_SUPPORTED).
/// Output: probe columns then build columns; Semi and Anti output the probe columns only.
class NestedLoopJoinOp : public ExecOperator {
 public:
  NestedLoopJoinOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> probe_child,
                   std::unique_ptr<ExecOperator> build_child, ExprPtr condition, JoinType type);

 protected:
  bool next_impl(Batch& out) override;

 private:
  bool produce(Batch& out);
  void materialise_build();
  /// Next chunk of (probe, build) pairs of the current batch; false when the batch is exhausted.
  bool next_pairs();
  /// Assembles the pairs into `out` and keeps those passing the condition; marks probe rows matched.
  void evaluate_pairs(Batch& out);
  void emit_probe_rows(Batch& out, bool matched);

  ExprPtr condition_;
  JoinType type_;
  std::vector<DataType> pair_types_;
  std::vector<ColumnVector> build_;
  size_t build_rows_ = 0;
  bool built_ = false;
  Batch probe_;
  bool batch_active_ = false;
  size_t probe_row_ = 0;
  size_t build_row_ = 0;
  std::vector<uint8_t> probe_matched_;
  std::vector<uint32_t> pair_probe_, pair_build_, sel_;
  Batch pairs_;    ///< Semi/Anti: evaluated pairs, discarded
  Batch scratch_;
};

}  // namespace hindsight
