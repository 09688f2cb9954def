#pragma once
#include <memory>
#include <vector>

#include "planner/exec/aggregate_spec.hpp"
#include "planner/exec/aggregate_state.hpp"
#include "planner/exec/exec_operator.hpp"
#include "planner/exec/group_table.hpp"

namespace hindsight {

/// GROUP BY on a hash table of the key columns (NULL keys group together).
/// Output of Single and Final: [group keys..., one column per aggregate (its result_type)].
/// Output of Partial — the input layout of Final (keys at 0..k-1, states from k on, in aggregate order):
///   COUNT(*), COUNT(x): one BIGINT count (never NULL)
///   SUM(x):             one sum column of result_type (NULL when the group saw no value)
///   MIN(x), MAX(x):     one column of x's type (NULL when none)
///   AVG(x):             two columns: sum (DOUBLE for DOUBLE x, DECIMAL(18,s) for DECIMAL(p,s) x, else BIGINT;
///                       NULL when none) and a BIGINT count of non-NULL values
/// Without group keys, every mode emits exactly one row, even on empty input (COUNT 0, the others NULL).
/// DISTINCT aggregates are supported in Single mode only. Memory charged: the group table, the accumulators and
/// DISTINCT value sets; released once the result has been emitted.
class HashAggregateOp : public ExecOperator {
 public:
  HashAggregateOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<int> group_keys,
                  std::vector<AggregateSpec> aggs, AggregateMode mode);

 protected:
  bool next_impl(Batch& out) override;

 private:
  /// Accumulators of one aggregate: states_[first_state, first_state + state_count).
  struct AggSlots {
    size_t first_state;
    size_t state_count;
  };

  void consume(Batch& in);
  void update_distinct(size_t agg, const ColumnVector& arg, size_t rows);
  void charge_growth();
  void emit(Batch& out, size_t begin, size_t end);
  void release_all();

  std::vector<int> group_keys_;
  std::vector<AggregateSpec> aggs_;
  AggregateMode mode_;
  GroupTable groups_;
  std::vector<AggState> states_;
  std::vector<AggSlots> slots_;
  std::vector<std::unique_ptr<GroupTable>> distinct_sets_;  ///< per aggregate; null unless DISTINCT
  std::vector<uint32_t> group_ids_;
  std::vector<uint32_t> scratch_ids_;
  std::vector<uint32_t> distinct_rows_;
  std::vector<uint32_t> distinct_gids_;
  ColumnVector gid_column_{DataType::bigint()};
  ColumnVector distinct_values_;
  int64_t charged_ = 0;
  bool consumed_ = false;
  size_t emit_pos_ = 0;
  size_t group_count_ = 0;
};

}  // namespace hindsight
