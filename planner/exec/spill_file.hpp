#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// One anonymous temporary file that the SpillFiles of one operator instance (a spilling join side's 17 partitions,
/// an aggregate's 16) write their chunks to, each to ranges it takes (take) and gives back when it is gone (give),
/// which later writes reuse: creating a file is the file system's inode allocation, which a file per partition paid
/// for every fanout, and writing over a range given back reuses its cached pages as a reused file did. Created in
/// `dir` (a pooled descriptor first, see spill_file.cpp) and given back to the pool with the last SpillFile using it.
class SpillBacking {
 public:
  explicit SpillBacking(std::string dir);
  ~SpillBacking();
  SpillBacking(const SpillBacking&) = delete;
  SpillBacking& operator=(const SpillBacking&) = delete;

  /// The offset of `n` bytes for one writer: the most recently given back range that holds them, else the end.
  uint64_t take(uint64_t n);
  /// Gives [offset, offset + n) back for reuse.
  void give(uint64_t offset, uint64_t n);
  int fd() const { return fd_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  int fd_ = -1;
  std::mutex mutex_;
  uint64_t end_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> free_;  ///< (offset, bytes) given back, not yet taken
};

/// A temporary file of rows of fixed column types, written in chunks and read back (spilling: an operator
/// that would exceed `memory_limit` writes part of its data here instead, docs/spilling.md).
///
/// The file is anonymous: created in `dir` and unlinked at once (O_TMPFILE where the file system has it,
/// else mkstemp + unlink), so it disappears with the object and with the process, whatever way it ends. Files of
/// one operator instance may share one (SpillBacking): each then writes to extents of it and reads only those.
/// Writes go through one buffer of `buffer_bytes` (flushed when full and by flush()); readers each hold a
/// buffer of their own and read with pread, so several readers may read one file at once (a broadcast's
/// consumers) while nobody writes. A reader sees what was flushed when it reads.
///
/// Chunk format (native byte order; the file never outlives the process): u32 rows, then per column a u8
/// null flag (1: `rows` null bytes follow), then the values: 8 bytes each for Int64 and Double, u32 length +
/// bytes for String. Failures (a full disk, a directory that does not exist) throw IO_ERROR naming the
/// directory.
class SpillFile {
 public:
  /// A file of its own in `dir`.
  SpillFile(std::vector<DataType> types, const std::string& dir, size_t buffer_bytes);
  /// Extents of `backing`, which other SpillFiles may write to as well.
  SpillFile(std::vector<DataType> types, std::shared_ptr<SpillBacking> backing, size_t buffer_bytes);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  const std::vector<DataType>& types() const { return types_; }
  /// Appends every row of `batch` (columns in types() order).
  void append(const Batch& batch);
  /// Appends rows sel[0..n) of `batch`.
  void append(const Batch& batch, const uint32_t* sel, size_t n);
  /// Writes the buffer out.
  void flush();
  /// Writes the buffer out and frees it, for a file that is only read from now on (or waits to be): its
  /// buffer_capacity() is 0 until an append allocates the buffer again.
  void finish_writing();

  uint64_t rows() const { return rows_; }
  /// Bytes appended (flushed or not).
  uint64_t bytes() const { return file_bytes_ + buffer_.size(); }
  /// The memory this object holds for buffering (what its owner charges).
  size_t buffer_capacity() const { return buffer_capacity_; }

  /// Reads a flushed file from its start, chunk after chunk; each next() returns up to about kBatchSize rows.
  class Reader {
   public:
    /// Fills `out` (columns of the file's types); false at the end of what was flushed.
    bool next(Batch& out);
    size_t buffer_capacity() const { return capacity_; }

   private:
    friend class SpillFile;
    Reader(const SpillFile* file, size_t buffer_bytes) : file_(file), capacity_(buffer_bytes) {}
    /// Reads up to `n` bytes of the file from byte `at` (< file_bytes_) into `dst`, within one extent.
    size_t read_at(uint64_t at, char* dst, size_t n) const;
    /// Makes `n` bytes available at pos_ (reads more from the file); false when the file ends first.
    bool ensure(size_t n);
    const SpillFile* file_;
    size_t capacity_;
    uint64_t offset_ = 0;  ///< file offset of buf_[0]
    std::vector<char> buf_;
    size_t pos_ = 0;
  };
  Reader reader(size_t buffer_bytes) const { return Reader(this, buffer_bytes); }

 private:
  void write_out(const char* data, size_t n);
  template <typename RowAt>
  void append_rows(const Batch& batch, size_t n, RowAt row_at);

  /// Bytes [logical, logical + bytes) of this file are at [offset, offset + bytes) of the backing file.
  struct Extent {
    uint64_t logical, offset, bytes;
  };

  std::vector<DataType> types_;
  std::shared_ptr<SpillBacking> backing_;
  std::vector<Extent> extents_;  ///< in logical order; their offsets in any order (given-back ranges are reused)
  size_t buffer_bytes_;     ///< the write buffer's size when allocated
  size_t buffer_capacity_;  ///< 0 after finish_writing() until the next append
  std::vector<char> buffer_;
  uint64_t file_bytes_ = 0;
  uint64_t rows_ = 0;
};

/// The partition (of `fanout`, a power of two at most 256) a row with storage/join hash `hash` goes to at
/// recursion `level` (0 for the first split, 1 when a partition that did not fit is split again, ...). The
/// hash is mixed again per level, so the bits exchanges (hash % buckets) and hash tables (the top bits) use
/// do not decide it: every row of one worker's repartitioned input shares its low bits, and one partition
/// split again must spread.
int spill_partition_of(uint64_t hash, int level, int fanout);

/// The least buffer a SpillFile has (what it is given below this is raised to it). Small, for small limits:
/// a chunk larger than the buffer goes out in one write anyway.
inline constexpr size_t kSpillMinBufferBytes = 256;

/// Closes the descriptors of finished spill files kept for reuse (spill_file.cpp: creating a file is an inode
/// allocation, so a SpillFile takes a pooled one first). execute_plan calls it at the end of a spilling execution.
void release_pooled_spill_files();
/// How many are kept now (tests).
size_t pooled_spill_files();

/// How many bytes each of `files` spill files of one operator buffers under a query memory limit of
/// `limit` bytes: a small share of the limit (so that spilling itself fits), at most 64 KB, at least 4 KB
/// under limits of 1 MB and more; below, the floor is limit / 256 (at least kSpillMinBufferBytes): under a
/// limit of 100 KB, 16 files of 4 KB on each of 4 workers could never fit.
size_t spill_buffer_bytes(int64_t limit, int files);

}  // namespace hindsight
