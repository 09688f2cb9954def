#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "planner/exec/aggregate_spec.hpp"
#include "planner/exec/aggregate_state.hpp"
#include "planner/exec/exec_operator.hpp"
#include "planner/exec/group_table.hpp"
#include "planner/exec/spill_file.hpp"

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
///
/// Spilling (spill_enabled() and group keys; docs/spilling.md): new groups are inserted only after their
/// growth was reserved with try_charge. When that is refused, a Partial aggregate emits the groups it holds
/// early (the Final above merges them) and starts over; a Single/Final one keeps updating the groups it holds
/// and writes the rows of every other group to one of kSpillFanout partition files, then aggregates those
/// files one by one after emitting its groups (a file that does not fit either is split again, one level
/// deeper). Every group is aggregated wholly in memory in one pass, so results are exact for every function.
///
/// A Partial refused while it holds fewer than kPassThroughBelowGroups groups reduces too little to start over
/// with the rows refused: it emits what it holds and passes those rows on as one-row states, then goes on.
///
/// Spilling in place (docs/reexec.md): a grouped Partial or Final aggregate that started without spilling and whose
/// growth is refused asks ExecContext::spill_now; when spilling turns on it switches to the spilling mode where it
/// stands: a Partial emits the groups it holds (as it does when full), a Final writes them to its partition files
/// in its input's layout (its states are the Partial's columns) and sends every later row there too, so each group
/// is still aggregated in one place. A Single aggregate's states are not rows of its input, so it cannot write the
/// groups it holds: it switches to the spilling mode keeping them (they stay in memory and only other groups' rows
/// may go to files), at its first batch after spilling turned on for another operator, or when the growth of a
/// batch's new groups, reserved before inserting them near the limit (reserve_new_groups), was refused and it asked.
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

  /// False when the groups of `in` were refused and spilling turned on in place (reserve_new_groups): nothing of
  /// `in` was consumed, the spilling mode takes it.
  bool consume(Batch& in);
  /// Where spilling may turn on in place (ExecContext::spill_in_place), a Single aggregate cannot spill what it
  /// holds once its growth was refused, so near the limit it reserves the growth of a batch's new groups before
  /// inserting them, leaving the room it needs to go on spilling (the spill reserve; slack for growing states).
  /// Refused, it asks ExecContext::spill_now: false when spilling turned on (nothing reserved); true when the
  /// growth was reserved, fits anyway, or the answer was no (the insert then goes on as without spilling in place).
  bool reserve_new_groups(const Batch& in);
  /// A Single aggregate with group keys that started without spilling, and spilling is on now (turned on in place).
  bool keeps_groups_to_spill() const;
  /// A Single aggregate with group keys: it keeps the groups it holds when it spills.
  bool grouped_single() const;
  /// The group key columns of `in`.
  std::vector<const ColumnVector*> key_columns(const Batch& in) const;
  void insert_groups(const Batch& in);
  void update_states(const Batch& in, size_t rows);
  void update_distinct(size_t agg, const ColumnVector& arg, size_t rows);
  void charge_growth();
  /// Groups [begin, end) as output rows; `as_states`: in the Partial layout whatever the mode.
  void emit(Batch& out, size_t begin, size_t end, bool as_states = false);
  void release_all();

  // Spilling.
  static constexpr int kSpillFanout = 16;
  /// Sources deeper than this (a partition split this many times) may not spill again.
  static constexpr int kMaxSpillDepth = 6;
  struct Partition {
    std::unique_ptr<SpillFile> file;
    int depth;  ///< of the source it becomes: 1 + that of the source whose rows it holds
  };
  bool next_spilling(Batch& out);
  /// The spilling mode's set-up on its first call (or when switching to it mid-stream).
  /// `in_place`: switched while the attempt ran without spilling, so the spill reserve was not kept from the start.
  void start_spilling_mode(bool in_place);
  /// Spilling turned on while this Partial or Final aggregate ran without it: see the class comment.
  void switch_to_spilling();
  /// The table is full: new groups' rows go to kSpillFanout partition files from now on.
  void start_writing();
  /// A Partial's input rows as one-row states, in its output layout.
  void pass_through(const Batch& in, Batch& out);
  /// 0, 1, ..., n - 1: every row of a batch (as rows to spill, or each its own group).
  const std::vector<uint32_t>& identity(size_t n);
  static constexpr size_t kPassThroughBelowGroups = kBatchSize;
  /// Consumes one batch; false when a Partial aggregate must emit its groups first (pending_ then holds the
  /// rows still to consume).
  bool consume_spilling(const Batch& in);
  /// Looks the rows of `in` up: group_ids_, found_rows_ (groups held) and missing_rows_ (the others).
  void find_held_groups(const Batch& in);
  bool read_source(Batch& in);
  int64_t insert_bound(const Batch& in, const std::vector<uint32_t>& rows) const;
  /// `to_limit`: the growth may take the spill reserve too (the first group of an empty table).
  void settle_charge(bool after_insert, bool to_limit = false);
  void spill_rows(const Batch& in, const std::vector<uint32_t>& rows);
  void finish_source();
  bool open_next_partition();
  void sync_io_charge();
  int64_t writers_reserve() const { return kSpillFanout * static_cast<int64_t>(std::max(buffer_bytes_, kSpillMinBufferBytes)); }
  int64_t table_allocated() const;
  int64_t table_live() const;
  [[noreturn]] void spill_failed(const std::string& why) const;

  bool spill_checked_ = false;
  bool spilling_mode_ = false;  ///< spill_enabled() with group keys: next_spilling runs
  size_t buffer_bytes_ = 0;     ///< each spill file's buffer
  int depth_ = 0;               ///< of the current source: 0 the child, d a partition written at depth d - 1
  bool full_ = false;           ///< the current source's new groups go to writers_
  bool growing_states_ = false;  ///< DISTINCT sets or string MIN/MAX: held groups may still grow when full
  /// The room held groups with growing states need free once new groups are refused: a quarter of the table.
  int64_t growth_slack() const { return growing_states_ ? table_allocated() / 4 : 0; }
  bool emitting_ = false;
  bool source_done_ = false;
  bool has_pending_ = false;
  bool pass_pending_ = false;  ///< a Partial passes pending_ on (pass_through) once it emitted its groups
  std::vector<AggState> row_states_;  ///< pass_through's accumulators
  std::vector<uint32_t> identity_;  ///< identity()'s
  Batch pending_;
  Batch sub_;
  std::shared_ptr<SpillBacking> spill_backing_;  ///< the one file every partition's extents are in
  std::vector<std::unique_ptr<SpillFile>> writers_;
  std::vector<Partition> partitions_;  ///< written, not yet aggregated (a stack: depth first)
  std::unique_ptr<SpillFile> reading_;
  std::optional<SpillFile::Reader> reader_;
  std::vector<uint32_t> found_rows_, missing_rows_;
  std::vector<std::vector<uint32_t>> part_rows_;
  int64_t io_charged_ = 0;  ///< the spill files' buffers (apart from charged_)
  /// While partitions remain: what charged_ keeps however small the table (the previous source's charge, less
  /// what went to file buffers), so that a partition finds the memory its predecessor had.
  int64_t kept_ = 0;

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
