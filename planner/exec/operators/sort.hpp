#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/sort_key.hpp"
#include "planner/exec/sort_store.hpp"
#include "planner/exec/spill_file.hpp"

namespace hindsight {

/// Materialises its child (memory charged) in a SortStore (fixed-size chunks, string bytes in an arena of large
/// blocks: memory that is given back whole when the rows go), sorts a row permutation stably by `keys` and emits
/// the rows in order in batches of kBatchSize. Output: the child's layout.
///
/// With spill on (docs/spilling.md) it is an external merge sort: the accumulation's charges (which include the
/// sort's permutation and scratch for every row held) are asked with try_charge before the buffers grow; when
/// one is refused, the rows held are sorted and written as a run to a SpillFile and freed. At the end the tail
/// is written as a run too and the runs are merged k-way (compare_rows_across, ties by run: the result is as
/// stable as the in-memory sort), each run read with a small reader buffer; when the readers of all runs do not
/// fit, the first runs are merged into one in a pass of their own, until they do.
class SortOp : public ExecOperator {
 public:
  SortOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<SortKey> keys);

  /// Runs the merge reads at once at most (the fan-in); fewer when their buffers do not fit.
  static constexpr size_t kMaxMergeFanIn = 16;

  /// With spill on, a sort whose rows fit but whose output would not fit beside them writes them as one run and
  /// merges it back, so that its memory is free while the output accumulates.
  void set_output_held() override { output_held_ = true; }

 protected:
  bool next_impl(Batch& out) override;

 private:
  /// Spill on: pulls the input into runs (and the tail in store_).
  void accumulate_spilling();
  /// Sorts store_ and writes it as a run; frees its rows.
  void seal_run(SpillFile& f);
  void spill_run();
  /// One input of a merge: a run read back batch after batch.
  struct Cursor {
    std::unique_ptr<SpillFile> file;
    std::optional<SpillFile::Reader> reader;
    Batch batch;
    size_t row = 0;
    int64_t charged = 0;  ///< its read buffer and an estimate of one batch
  };
  /// Opens cursors over the first runs (at least 2, as many as fit, at most kMaxMergeFanIn); charges them.
  void open_cursors();
  /// Moves up to `max_rows` of the smallest rows of the open cursors into `out`; false when all are drained.
  bool merge_into(Batch& out, size_t max_rows);
  void close_cursors();
  std::unique_ptr<SpillFile> new_run_file();
  /// The buffer of a run's SpillFile (what new_run_file charges).
  int64_t run_buffer_bytes() const;

  std::vector<SortKey> keys_;
  SortStore store_;  ///< the materialised input
  size_t row_count_ = 0;
  std::vector<uint32_t> perm_;
  size_t emit_pos_ = 0;
  bool sorted_ = false;

  // Spilling.
  int64_t data_charged_ = 0;  ///< what store_ (with the sort's reservations) is charged
  int64_t data_live_ = 0;
  int64_t buffer_reserved_ = 0;
  bool output_held_ = false;
  int64_t output_bytes_ = 0;  ///< what the input's batches held (what the sort's output will take where it is held)  ///< part of data_charged_: the next run's write buffer, reserved with its rows
  int64_t files_charged_ = 0;  ///< the runs' write buffers and the cursors
  std::vector<std::unique_ptr<SpillFile>> runs_;  ///< in input order (ties go to the earlier run)
  std::vector<Cursor> cursors_;
  std::vector<size_t> heap_;  ///< cursor indexes, the smallest head on top
  bool merging_ = false;
};

}  // namespace hindsight
