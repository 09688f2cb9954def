#include "planner/exec/operators/nested_loop_join.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/expr/evaluator.hpp"

namespace hindsight {

NestedLoopJoinOp::NestedLoopJoinOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> probe_child,
                                   std::unique_ptr<ExecOperator> build_child, ExprPtr condition, JoinType type)
    : ExecOperator("NestedLoopJoin", ctx, worker), condition_(std::move(condition)), type_(type) {
  if (type_ != JoinType::Inner && type_ != JoinType::ProbeOuter && type_ != JoinType::Semi && type_ != JoinType::Anti)
    throw Error(ErrorCode::NOT_SUPPORTED, fmt::format("{} nested loop join", join_type_name(type_)));
  pair_types_ = probe_child->output_types();
  const auto& bt = build_child->output_types();
  pair_types_.insert(pair_types_.end(), bt.begin(), bt.end());
  output_types_ = join_outputs_probe_only(type_) ? probe_child->output_types() : pair_types_;
  build_.resize(bt.size());
  for (size_t c = 0; c < bt.size(); ++c) build_[c].type = bt[c];
  pair_probe_.reserve(kBatchSize);
  pair_build_.reserve(kBatchSize);
  add_child(std::move(probe_child));
  add_child(std::move(build_child));
}

void NestedLoopJoinOp::materialise_build() {
  Batch in;
  int64_t live = 0;
  while (pull(1, in)) {
    build_rows_ += in.rows;
    live += static_cast<int64_t>(in.byte_size());
    charge(append_batch_moved(build_, std::move(in)), live);
  }
  built_ = true;
}

bool NestedLoopJoinOp::next_pairs() {
  pair_probe_.clear();
  pair_build_.clear();
  const bool skip_matched = join_outputs_probe_only(type_);
  while (probe_row_ < probe_.rows && pair_probe_.size() < kBatchSize) {
    if (build_row_ >= build_rows_ || (skip_matched && probe_matched_[probe_row_])) {
      ++probe_row_;
      build_row_ = 0;
      continue;
    }
    size_t n = std::min(build_rows_ - build_row_, kBatchSize - pair_probe_.size());
    for (size_t k = 0; k < n; ++k) {
      pair_probe_.push_back(static_cast<uint32_t>(probe_row_));
      pair_build_.push_back(static_cast<uint32_t>(build_row_ + k));
    }
    build_row_ += n;
  }
  return !pair_probe_.empty();
}

void NestedLoopJoinOp::evaluate_pairs(Batch& out) {
  reset_batch(out, pair_types_);
  const size_t np = probe_.columns.size();
  for (size_t c = 0; c < np; ++c) out.columns[c].append_selected(probe_.columns[c], pair_probe_);
  append_selected_columns(build_, pair_build_, out.columns, np);
  out.rows = pair_probe_.size();
  if (!condition_) {
    for (uint32_t r : pair_probe_) probe_matched_[r] = 1;
    return;
  }
  evaluate_filter(*condition_, out, sel_);
  for (uint32_t k : sel_) probe_matched_[pair_probe_[k]] = 1;
  if (sel_.size() < out.rows) {
    gather_batch(out, sel_, scratch_);
    std::swap(out, scratch_);
  }
}

void NestedLoopJoinOp::emit_probe_rows(Batch& out, bool matched) {
  sel_.clear();
  for (size_t r = 0; r < probe_.rows; ++r)
    if (static_cast<bool>(probe_matched_[r]) == matched) sel_.push_back(static_cast<uint32_t>(r));
  reset_batch(out, output_types_);
  if (sel_.empty()) return;
  const size_t np = probe_.columns.size();
  for (size_t c = 0; c < np; ++c) out.columns[c].append_selected(probe_.columns[c], sel_);
  for (size_t c = np; c < out.columns.size(); ++c) append_nulls(out.columns[c], sel_.size());
  out.rows = sel_.size();
}

bool NestedLoopJoinOp::next_impl(Batch& out) {
  if (produce(out)) return true;
  for (auto& c : build_) c = ColumnVector(c.type);
  build_rows_ = 0;
  release(held_memory_);
  return false;
}

bool NestedLoopJoinOp::produce(Batch& out) {
  if (!built_) materialise_build();
  if (build_rows_ == 0 && (type_ == JoinType::Inner || type_ == JoinType::Semi)) return false;
  while (true) {
    if (!batch_active_) {
      if (!pull(0, probe_)) return false;
      batch_active_ = true;
      probe_row_ = 0;
      build_row_ = 0;
      probe_matched_.assign(probe_.rows, 0);
    }
    if (type_ == JoinType::Semi || type_ == JoinType::Anti) {
      while (next_pairs()) evaluate_pairs(pairs_);
      batch_active_ = false;
      emit_probe_rows(out, type_ == JoinType::Semi);
      if (out.rows > 0) return true;
      continue;
    }
    if (next_pairs()) {
      evaluate_pairs(out);
      if (out.rows > 0) return true;
      continue;
    }
    batch_active_ = false;
    if (type_ == JoinType::ProbeOuter) {
      emit_probe_rows(out, false);
      if (out.rows > 0) return true;
    }
  }
}

}  // namespace hindsight
