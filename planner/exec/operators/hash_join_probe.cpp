#include "planner/exec/operators/hash_join_probe.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "planner/expr/evaluator.hpp"
#include "planner/storage/bucketing.hpp"

namespace hindsight {

HashJoinProbeOp::HashJoinProbeOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> probe_child,
                                 std::unique_ptr<HashJoinBuildOp> build, std::vector<int> probe_keys, JoinType type,
                                 ExprPtr residual)
    : ExecOperator("HashJoinProbe", ctx, worker),
      build_(build.get()),
      probe_keys_(std::move(probe_keys)),
      type_(type),
      residual_(std::move(residual)) {
  const auto& probe_types = probe_child->output_types();
  const auto& build_types = build_->output_types();
  HS_ASSERT(!probe_keys_.empty() && probe_keys_.size() == build_->keys().size(),
            "hash join needs the same non-zero number of probe and build keys");
  for (size_t k = 0; k < probe_keys_.size(); ++k) {
    int p = probe_keys_[k], b = build_->keys()[k];
    HS_ASSERT(p >= 0 && static_cast<size_t>(p) < probe_types.size(), "join probe key out of range");
    HS_ASSERT(probe_types[p].physical() == build_types[b].physical(),
              fmt::format("join key {} compares {} with {}", k, probe_types[p].to_string(), build_types[b].to_string()));
  }
  single_int_key_ = probe_keys_.size() == 1 && probe_types[probe_keys_[0]].physical() == PhysicalKind::Int64;
  pair_types_ = probe_types;
  pair_types_.insert(pair_types_.end(), build_types.begin(), build_types.end());
  output_types_ = join_outputs_probe_only(type_) ? probe_types : pair_types_;
  track_probe_ = type_ == JoinType::ProbeOuter || type_ == JoinType::FullOuter;
  track_build_ = type_ == JoinType::BuildOuter || type_ == JoinType::FullOuter;
  pair_probe_.reserve(kBatchSize);
  pair_build_.reserve(kBatchSize);
  build_->keep_null_key_rows(track_build_);
  add_child(std::move(probe_child));
  add_child(std::move(build));
}

void HashJoinProbeOp::start_build() {
  Batch none;
  build_->next(none);
  if (track_build_ && !build_->spilled()) {
    build_matched_.assign(build_->rows(), 0);
    charge(static_cast<int64_t>(build_matched_.size()));
  }
  built_ = true;
}

bool HashJoinProbeOp::next_impl(Batch& out) {
  if (produce(out)) return true;
  // Exhausted: nothing reads the table any more.
  build_->free_table();
  build_->drop_spill();
  reader_.reset();
  spill_.reset();
  build_matched_ = {};
  release(held_memory_);
  spill_charged_ = 0;
  return false;
}

bool HashJoinProbeOp::produce(Batch& out) {
  if (!built_) start_build();
  if (build_->total_rows() == 0 &&
      (type_ == JoinType::Inner || type_ == JoinType::Semi || type_ == JoinType::BuildOuter))
    return false;  // nothing can match: leave the probe side unread
  if (type_ == JoinType::NullAwareAnti && build_->total_rows() > 0 && build_->has_null_key()) return false;
  if (build_->spilled() && !partitioned_) partition_probe();
  while (true) {
    switch (stage_) {
      case Stage::BatchDone:
        if (probe_done_) {
          if (emit_unmatched_build(out)) return true;
          if (!partitioned_ || !next_partition()) return false;
          continue;
        }
        if (!next_probe_batch()) {
          probe_done_ = true;
          continue;
        }
        start_probe_batch();
        if (join_outputs_probe_only(type_)) {
          filter_probe_batch(out);
          if (out.rows > 0) return true;
          continue;
        }
        stage_ = Stage::Matches;
        continue;
      case Stage::Matches:
        pair_probe_.clear();
        pair_build_.clear();
        collect_pairs(kBatchSize);
        if (probe_row_ >= probe_.rows) stage_ = track_probe_ ? Stage::UnmatchedProbe : Stage::BatchDone;
        if (!pair_probe_.empty()) {
          emit_pairs(out);
          if (out.rows > 0) return true;
        }
        continue;
      case Stage::UnmatchedProbe:
        stage_ = Stage::BatchDone;
        emit_unmatched_probe(out);
        if (out.rows > 0) return true;
        continue;
    }
  }
}

bool HashJoinProbeOp::next_probe_batch() {
  if (!partitioned_) return pull(0, probe_);
  return reader_ && reader_->next(probe_);
}

void HashJoinProbeOp::partition_probe() {
  partitioned_ = true;
  ++stats_.spills;
  spill_ = std::make_unique<JoinSpillFiles>(children_[0]->output_types(), probe_keys_, *ctx_);
  // Probe rows with a NULL key never match: they are kept only where unmatched probe rows are emitted.
  // NullAwareAnti keeps them only over an empty build side (NOT IN () holds for NULL too; a build can spill
  // with no rows when the table's first charge is refused).
  const bool keep_nulls = type_ == JoinType::ProbeOuter || type_ == JoinType::FullOuter || type_ == JoinType::Anti ||
                          (type_ == JoinType::NullAwareAnti && build_->total_rows() == 0);
  spill_->open_fanout(true, keep_nulls);
  sync_spill_charge(0);
  Batch in;
  while (pull(0, in)) spill_->append(in, 0, 0, stats_);
  spill_->finish_writing();
  sync_spill_charge(0);
  // A stack: partition 0 first, the NULL-key partition last.
  todo_.push_back({JoinSpillFiles::kNullPartition, 0});
  for (size_t p = JoinSpillFiles::kFanout; p-- > 0;) todo_.push_back({p, 0});
  probe_done_ = true;  // nothing loaded yet: the first produce() step moves to the first partition
  build_matched_.clear();
  build_tail_ = 0;
}

void HashJoinProbeOp::sync_spill_charge(int64_t extra) {
  set_spill_buffer_charge((spill_ ? spill_->buffer_bytes() : 0) + extra, spill_charged_);
}

void HashJoinProbeOp::finish_partition() {
  if (current_ == SIZE_MAX) return;
  reader_.reset();
  spill_->drop(current_);
  sync_spill_charge(0);
  release(static_cast<int64_t>(build_matched_.size()));
  build_matched_ = {};
  current_ = SIZE_MAX;
}

bool HashJoinProbeOp::next_partition() {
  finish_partition();
  JoinSpillFiles& bspill = build_->spill_files();
  while (!todo_.empty()) {
    const SpillPart part = todo_.back();
    todo_.pop_back();
    const uint64_t build_rows = bspill.rows(part.id), probe_rows = spill_->rows(part.id);
    // Skip what cannot produce a row: no probe rows and no build row to emit unmatched, or no build rows
    // where only matches count.
    const bool emits_unmatched_probe = track_probe_ || type_ == JoinType::Anti || type_ == JoinType::NullAwareAnti;
    if (probe_rows == 0 && (!track_build_ || build_rows == 0)) {
      bspill.drop(part.id);
      spill_->drop(part.id);
      continue;
    }
    if (build_rows == 0 && !emits_unmatched_probe) {
      bspill.drop(part.id);
      spill_->drop(part.id);
      continue;
    }
    // When the other operators hold everything but the spill reserve, even a partition of a few rows is refused
    // the memory the operators' data may use. A partition that splitting would not make smaller than the buffers
    // the split holds (in the reserve), or that cannot be split (again), loads into the reserve instead.
    const SpillFile* file = bspill.file(part.id);
    const bool small = file != nullptr && 2 * static_cast<int64_t>(file->bytes()) <= bspill.split_bytes();
    const bool last = part.id == JoinSpillFiles::kNullPartition || part.level + 1 >= kSpillLevels;
    if (!build_->load_partition(part.id) &&
        !((small || last) && build_->load_partition(part.id, /*into_reserve=*/true))) {
      if (part.id == JoinSpillFiles::kNullPartition)
        throw Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
                    fmt::format("{}: spilling did not help: the {} build rows with a NULL key (an outer join emits "
                                "them at the end; no hash splits them) do not fit in memory_limit {}",
                                label(), build_rows, format_bytes(ctx_->memory->limit())));
      if (last)
        throw Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
                    fmt::format("{}: spilling did not help: a hash join build partition of {} rows does not fit in "
                                "memory_limit {} ({} in use) even after {} levels of partitioning (typically many "
                                "rows with one key value)",
                                label(), build_rows, format_bytes(ctx_->memory->limit()),
                                format_bytes(ctx_->memory->used()), part.level + 1));
      const size_t first = build_->split_partition(part.id, part.level + 1);
      // The probe part follows into the same ids.
      sync_spill_charge(spill_->split_bytes());
      const size_t pfirst = spill_->split(part.id, part.level + 1, stats_);
      HS_ASSERT(pfirst == first, "hash join spill: the probe and build partitions went out of step");
      ++stats_.spills;
      sync_spill_charge(0);
      for (size_t p = JoinSpillFiles::kFanout; p-- > 0;) todo_.push_back({first + p, part.level + 1});
      continue;
    }
    current_ = part.id;
    if (track_build_) {
      build_matched_.assign(build_->rows(), 0);
      charge(static_cast<int64_t>(build_matched_.size()));
    }
    build_tail_ = 0;
    if (SpillFile* f = spill_->file(part.id)) {
      reader_.emplace(f->reader(spill_->read_buffer_bytes()));
      sync_spill_charge(static_cast<int64_t>(reader_->buffer_capacity()));
    }
    probe_done_ = false;
    stage_ = Stage::BatchDone;
    return true;
  }
  return false;
}

void HashJoinProbeOp::start_probe_batch() {
  std::vector<const ColumnVector*> key_cols;
  key_cols.reserve(probe_keys_.size());
  for (int k : probe_keys_) key_cols.push_back(&probe_.columns[static_cast<size_t>(k)]);
  row_hashes(key_cols, probe_.rows, hashes_);
  probe_has_null_ = null_key_rows(key_cols, probe_.rows, probe_null_);
  heads_.resize(probe_.rows);
  build_->chain_heads(hashes_.data(), probe_.rows, heads_.data());
  probe_row_ = 0;
  chain_ = kUnstarted;
  probe_matched_.assign(probe_.rows, 0);
}

template <bool kSingleInt>
void HashJoinProbeOp::collect_pairs(size_t limit) {
  const size_t rows = probe_.rows;
  const int64_t* pint = nullptr;
  const int64_t* bint = nullptr;
  std::vector<KeyColumn> pk, bk;
  if constexpr (kSingleInt) {
    pint = probe_.columns[static_cast<size_t>(probe_keys_[0])].ints.data();
    bint = build_->columns()[static_cast<size_t>(build_->keys()[0])].ints.data();
  } else {
    pk = key_views(probe_.columns, probe_keys_);
    bk = key_views(build_->columns(), build_->keys());
  }
  size_t r = probe_row_;
  uint32_t b = chain_;
  while (r < rows) {
    if (b == kUnstarted) {
      if (probe_has_null_ && probe_null_[r]) {
        ++r;
        continue;
      }
      b = heads_[r];
    }
    const uint64_t h = hashes_[r];
    for (; b != HashJoinBuildOp::kEnd; b = build_->chain_next(b)) {
      if constexpr (kSingleInt) {
        if (bint[b] != pint[r]) continue;
      } else {
        if (build_->row_hash(b) != h || !keys_equal(pk, r, bk, b)) continue;
      }
      if (pair_probe_.size() >= limit) {
        probe_row_ = r;
        chain_ = b;
        return;
      }
      pair_probe_.push_back(static_cast<uint32_t>(r));
      pair_build_.push_back(b);
    }
    ++r;
    b = kUnstarted;
  }
  probe_row_ = r;
  chain_ = kUnstarted;
}

void HashJoinProbeOp::collect_pairs(size_t limit) {
  if (single_int_key_) collect_pairs<true>(limit);
  else collect_pairs<false>(limit);
}

template <bool kSingleInt>
void HashJoinProbeOp::mark_key_matches() {
  const size_t rows = probe_.rows;
  const int64_t* pint = nullptr;
  const int64_t* bint = nullptr;
  std::vector<KeyColumn> pk, bk;
  if constexpr (kSingleInt) {
    pint = probe_.columns[static_cast<size_t>(probe_keys_[0])].ints.data();
    bint = build_->columns()[static_cast<size_t>(build_->keys()[0])].ints.data();
  } else {
    pk = key_views(probe_.columns, probe_keys_);
    bk = key_views(build_->columns(), build_->keys());
  }
  for (size_t r = 0; r < rows; ++r) {
    if (probe_has_null_ && probe_null_[r]) continue;
    const uint64_t h = hashes_[r];
    for (uint32_t b = heads_[r]; b != HashJoinBuildOp::kEnd; b = build_->chain_next(b)) {
      if constexpr (kSingleInt) {
        if (bint[b] != pint[r]) continue;
      } else {
        if (build_->row_hash(b) != h || !keys_equal(pk, r, bk, b)) continue;
      }
      probe_matched_[r] = 1;
      break;
    }
  }
}

void HashJoinProbeOp::emit_pairs(Batch& out) {
  reset_batch(out, pair_types_);
  const size_t np = probe_.columns.size();
  for (size_t c = 0; c < np; ++c) out.columns[c].append_selected(probe_.columns[c], pair_probe_);
  append_selected_columns(build_->columns(), pair_build_, out.columns, np);
  out.rows = pair_probe_.size();
  if (residual_) {
    evaluate_filter(*residual_, out, sel_);
    if (sel_.size() < out.rows) {
      gather_batch_moved(out, sel_, scratch_);  // the unfiltered pairs are dropped
      std::swap(out, scratch_);
    }
    if (track_probe_)
      for (uint32_t k : sel_) probe_matched_[pair_probe_[k]] = 1;
    if (track_build_)
      for (uint32_t k : sel_) build_matched_[pair_build_[k]] = 1;
    return;
  }
  if (track_probe_)
    for (uint32_t r : pair_probe_) probe_matched_[r] = 1;
  if (track_build_)
    for (uint32_t b : pair_build_) build_matched_[b] = 1;
}

void HashJoinProbeOp::filter_probe_batch(Batch& out) {
  const size_t rows = probe_.rows;
  if (type_ == JoinType::NullAwareAnti && build_->total_rows() == 0) {
    std::swap(out, probe_);  // NOT IN over an empty set holds for every row, NULL or not
    return;
  }
  if (!residual_) {
    if (single_int_key_) mark_key_matches<true>();
    else mark_key_matches<false>();
  } else {
    const size_t np = probe_.columns.size();
    while (probe_row_ < rows) {
      pair_probe_.clear();
      pair_build_.clear();
      collect_pairs(kBatchSize);
      if (pair_probe_.empty()) break;
      reset_batch(scratch_, pair_types_);
      for (size_t c = 0; c < np; ++c) scratch_.columns[c].append_selected(probe_.columns[c], pair_probe_);
      append_selected_columns(build_->columns(), pair_build_, scratch_.columns, np);
      scratch_.rows = pair_probe_.size();
      evaluate_filter(*residual_, scratch_, sel_);
      for (uint32_t k : sel_) probe_matched_[pair_probe_[k]] = 1;
    }
  }
  const uint8_t want = type_ == JoinType::Semi ? 1 : 0;
  const bool drop_null_keys = type_ == JoinType::NullAwareAnti && probe_has_null_;
  sel_.clear();
  for (size_t r = 0; r < rows; ++r) {
    if (drop_null_keys && probe_null_[r]) continue;
    if (probe_matched_[r] == want) sel_.push_back(static_cast<uint32_t>(r));
  }
  if (sel_.size() == rows) {
    std::swap(out, probe_);
    return;
  }
  gather_batch(probe_, sel_, out);
}

void HashJoinProbeOp::emit_unmatched_probe(Batch& out) {
  sel_.clear();
  for (size_t r = 0; r < probe_.rows; ++r)
    if (!probe_matched_[r]) sel_.push_back(static_cast<uint32_t>(r));
  reset_batch(out, output_types_);
  if (sel_.empty()) return;
  const size_t np = probe_.columns.size();
  for (size_t c = 0; c < np; ++c) out.columns[c].append_selected(probe_.columns[c], sel_);
  for (size_t c = np; c < out.columns.size(); ++c) append_nulls(out.columns[c], sel_.size());
  out.rows = sel_.size();
}

bool HashJoinProbeOp::emit_unmatched_build(Batch& out) {
  if (!track_build_) return false;
  sel_.clear();
  const size_t rows = build_->rows();
  while (build_tail_ < rows && sel_.size() < kBatchSize) {
    if (!build_matched_[build_tail_]) sel_.push_back(static_cast<uint32_t>(build_tail_));
    ++build_tail_;
  }
  if (sel_.empty()) return false;
  reset_batch(out, output_types_);
  const size_t np = output_types_.size() - build_->columns().size();
  for (size_t c = 0; c < np; ++c) append_nulls(out.columns[c], sel_.size());
  append_selected_columns(build_->columns(), sel_, out.columns, np);
  out.rows = sel_.size();
  return true;
}

}  // namespace hindsight
