#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/join_type.hpp"
#include "planner/exec/operators/hash_join_build.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight {

/// The probe half of a hash join. Streams the probe child batch by batch against the table of `build` (which
/// becomes its second child and is built on the first next()).
/// Match condition: all key pairs equal (a NULL key never matches) and `residual` TRUE; the residual is over
/// [probe columns..., build columns...] and may be null.
/// Output: probe columns then build columns; Semi, Anti and NullAwareAnti output the probe columns only.
/// Unmatched probe rows (ProbeOuter, FullOuter) follow the matches of their probe batch; unmatched build rows
/// (BuildOuter, FullOuter) come after the probe side is exhausted.
///
/// Spilling (docs/spilling.md): when the build spilled, the probe child is drained into 16 probe partitions
/// by the same key hash (NULL-key probe rows into a partition of their own where the join emits unmatched
/// probe rows, else dropped); then partition by partition the build part is loaded into the table and the
/// probe part streamed through the same per-batch matching as in memory, unmatched build rows follow each
/// partition. A partition whose build part does not fit is split again (with its probe part), up to
/// kSpillLevels levels; then MEMORY_LIMIT_EXCEEDED. Output order differs from the in-memory join's.
class HashJoinProbeOp : public ExecOperator {
 public:
  HashJoinProbeOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> probe_child,
                  std::unique_ptr<HashJoinBuildOp> build, std::vector<int> probe_keys, JoinType type,
                  ExprPtr residual);

  JoinType join_type() const { return type_; }
  /// Levels of partitioning a spilled join goes to (0: the first split) before it gives up.
  static constexpr int kSpillLevels = 4;

 protected:
  bool next_impl(Batch& out) override;

 private:
  enum class Stage { Matches, UnmatchedProbe, BatchDone };
  static constexpr uint32_t kUnstarted = UINT32_MAX - 1;

  bool produce(Batch& out);
  void start_build();
  void start_probe_batch();
  /// Appends key-matching (probe row, build row) pairs of the current batch until `limit` pairs or its end.
  template <bool kSingleInt>
  void collect_pairs(size_t limit);
  void collect_pairs(size_t limit);
  /// Marks probe_matched_ for rows with at least one key match (no residual).
  template <bool kSingleInt>
  void mark_key_matches();
  /// Builds [probe cols, build cols] for the collected pairs into `out`; with a residual, keeps the passing pairs.
  void emit_pairs(Batch& out);
  /// Semi/Anti/NullAwareAnti: decides every row of the current batch and emits the kept ones.
  void filter_probe_batch(Batch& out);
  void emit_unmatched_probe(Batch& out);
  bool emit_unmatched_build(Batch& out);
  /// The next probe batch: from the child, or from the current probe partition once spilled.
  bool next_probe_batch();
  /// Spilled build: drains the probe child into partitions and queues them.
  void partition_probe();
  /// Spilled build: frees the finished partition and loads the next one (splitting those that do not fit);
  /// false when none is left.
  bool next_partition();
  /// Frees the current partition's build_matched_ and probe reader.
  void finish_partition();
  /// Charges or releases so that spill_charged_ is the probe files' write buffers plus `extra` (a reader's).
  void sync_spill_charge(int64_t extra);

  HashJoinBuildOp* build_;
  std::vector<int> probe_keys_;
  JoinType type_;
  ExprPtr residual_;
  bool single_int_key_ = false;
  bool built_ = false;
  bool probe_done_ = false;
  bool track_probe_ = false;
  bool track_build_ = false;

  Batch probe_;
  Stage stage_ = Stage::BatchDone;
  size_t probe_row_ = 0;
  uint32_t chain_ = kUnstarted;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> heads_;  ///< first build row of each probe row's chain
  std::vector<uint8_t> probe_null_;
  bool probe_has_null_ = false;
  std::vector<uint8_t> probe_matched_;
  std::vector<uint8_t> build_matched_;
  std::vector<uint32_t> pair_probe_, pair_build_, sel_;
  std::vector<DataType> pair_types_;  ///< [probe types..., build types...]
  Batch scratch_;
  size_t build_tail_ = 0;

  // Spilling: the probe parts of the partitions, those left to do (id, level; a stack), the current one.
  struct SpillPart {
    size_t id;
    int level;
  };
  std::unique_ptr<JoinSpillFiles> spill_;
  std::vector<SpillPart> todo_;
  std::optional<SpillFile::Reader> reader_;
  size_t current_ = SIZE_MAX;
  bool partitioned_ = false;
  int64_t spill_charged_ = 0;  ///< spill_'s buffers and the reader's, charged to this operator
};

}  // namespace hindsight
