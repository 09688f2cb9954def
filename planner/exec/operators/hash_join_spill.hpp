#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "planner/exec/exec_operator.hpp"
#include "planner/exec/spill_file.hpp"

namespace hindsight {

/// The spill files of one side of a spilled hash join (docs/spilling.md), by partition id: ids 0..15 are the
/// first split (level 0) and id kNullPartition the rows with a NULL key; a partition split again gets 16
/// fresh ids at the end. Both sides of a join open and split their partitions in the same order, so one id
/// names the build part and the probe part of one partition. Its owner charges buffer_bytes(): the write
/// buffers of the files being written (a finished fanout frees them: its files are only read afterwards).
class JoinSpillFiles {
 public:
  static constexpr int kFanout = 16;
  static constexpr size_t kNullPartition = kFanout;

  /// `ctx` gives the directory and the buffer sizes (write_buffer_bytes_for, read_buffer_bytes_for).
  JoinSpillFiles(std::vector<DataType> types, std::vector<int> keys, const ExecContext& ctx);

  /// Opens kFanout files for a split and returns the first id; `with_nulls` (level 0 only) adds the NULL-key
  /// file at kNullPartition, else that slot stays empty and such rows are dropped.
  size_t open_fanout(bool level0, bool with_nulls);
  /// Appends the rows of `b` to the files [first, first + kFanout) by spill_partition_of(key hash, level),
  /// rows with a NULL key to the NULL-key file (if open; dropped otherwise). Adds what it wrote to `stats`;
  /// returns whether some row had a NULL key.
  bool append(const Batch& b, size_t first, int level, OperatorStats& stats);
  /// Ends the writing of every file (SpillFile::finish_writing): their buffers are freed.
  void finish_writing();
  /// The file of partition `id` (null when none was opened or it was consumed).
  SpillFile* file(size_t id) const { return id < files_.size() ? files_[id].get() : nullptr; }
  uint64_t rows(size_t id) const { return file(id) ? file(id)->rows() : 0; }
  /// Deletes the file of partition `id`.
  void drop(size_t id);
  /// Splits partition `id` at `level` into a new fanout (returns its first id, finished writing) and drops
  /// it; the caller charges split_bytes() before (the new write buffers and a reader's).
  size_t split(size_t id, int level, OperatorStats& stats);
  size_t read_buffer_bytes() const { return read_bytes_; }
  /// What the files being written buffer.
  int64_t buffer_bytes() const;
  /// What split() holds while it runs.
  int64_t split_bytes() const;

  /// The write buffer of each file of a join's spill under `ctx`: spill_buffer_bytes' share of the limit for
  /// the 2 x 17 files of every worker's instance, and below its 4 KB floor (down to SpillFile's 1 KB) when the
  /// limit is so small that 34 files of 4 KB a worker would take a large part of it.
  static size_t write_buffer_bytes_for(const ExecContext& ctx);
  /// A reader's buffer: a join reads one file of each side at a time, so spill_buffer_bytes for 2 files a
  /// worker (fewer, larger reads).
  static size_t read_buffer_bytes_for(const ExecContext& ctx);

 private:
  std::vector<DataType> types_;
  std::vector<int> keys_;
  std::string dir_;
  size_t buffer_bytes_;  ///< of each file's writes
  size_t read_bytes_;    ///< of a reader
  std::shared_ptr<SpillBacking> backing_;  ///< the one file every partition's extents are in (from the first fanout)
  std::vector<std::unique_ptr<SpillFile>> files_;
  std::vector<uint8_t> writing_;  ///< per id: the file's write buffer is allocated
  std::vector<uint64_t> hashes_;
  std::vector<uint8_t> nulls_;
  std::array<std::vector<uint32_t>, kFanout> sel_;
  std::vector<uint32_t> null_sel_;
};

}  // namespace hindsight
