#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "planner/exec/sort_key.hpp"
#include "planner/storage/column_vector.hpp"

namespace hindsight {

/// Bytes for string payloads in blocks that grow geometrically (`min_block` doubling up to `max_block`, a
/// payload larger than that gets a block of its own) and are freed together by clear() or the destructor.
/// Blocks of 128 KB and more are mapped from the system directly (mmap), so that freeing them returns them to
/// it at once, whatever the allocator does with small blocks; smaller ones come from malloc.
///
/// Why (docs/spilling.md, "Sort"): a sorted run held ~10 million strings, each its own small heap block; freed
/// when the run was spilled, they stayed resident (the allocator keeps them, partly in other threads' arenas),
/// so the process grew far past the memory limit that the tracker honoured.
class ByteArena {
 public:
  explicit ByteArena(size_t min_block = 16 << 10, size_t max_block = 1 << 20);
  ~ByteArena();
  ByteArena(const ByteArena&) = delete;
  ByteArena& operator=(const ByteArena&) = delete;

  /// The bytes reserve(n) would newly allocate: 0 if the current block has `n` bytes left, else the block's size.
  size_t growth_for(size_t n) const;
  /// Makes `n` contiguous bytes available for the next copies; returns the bytes newly allocated.
  size_t reserve(size_t n);
  /// Copies `s` into the arena (reserve()s it first when the current block has no room) and returns the copy.
  std::string_view copy(std::string_view s);
  /// Blocks held (what the owner charges).
  size_t allocated_bytes() const { return allocated_; }
  /// Bytes copied in.
  size_t used_bytes() const { return used_; }
  size_t blocks() const { return blocks_.size(); }
  /// Frees every block; the next block is `min_block` again.
  void clear();

 private:
  struct Block {
    char* data;
    size_t size;
  };
  size_t next_block_size(size_t n) const;
  size_t min_block_, max_block_;
  size_t next_;  ///< the size of the next block (before rounding up to a request)
  std::vector<Block> blocks_;
  char* pos_ = nullptr;
  char* end_ = nullptr;
  size_t allocated_ = 0;
  size_t used_ = 0;
};

/// The rows a sort holds, by column, in fixed-size chunks of kChunkRows values (the first one smaller while few) (never a growing vector: a
/// vector's growth holds the old and the new buffer at once and leaves the freed one to the allocator), with
/// every string's bytes in a ByteArena. Values are copied in (the input batch's strings are freed with the
/// batch, at once). Read with is_null / int_at / dbl_at / str_at; gather() builds a Batch of rows in any order.
class SortStore {
 public:
  static constexpr size_t kChunkShift = 12;
  static constexpr size_t kChunkRows = size_t{1} << kChunkShift;

  /// `max_block`: the arena's largest block (a small share of the memory limit).
  explicit SortStore(std::vector<DataType> types, size_t max_block = 1 << 20);

  const std::vector<DataType>& types() const { return types_; }
  size_t rows() const { return rows_; }
  /// The bytes append(in) will newly allocate (chunks, null masks, arena blocks); allocates nothing.
  int64_t growth_for(const Batch& in) const;
  /// Appends every row of `in` (columns of types()); returns the bytes newly allocated (= growth_for(in)).
  int64_t append(const Batch& in);
  /// The bytes of data it holds (what MemoryTracker calls live): a value's width a row and column, a byte a row of
  /// a column with NULLs, the string bytes in the arena.
  size_t live_bytes() const;
  /// What live_bytes() grows by with append(in).
  size_t live_growth(const Batch& in) const;
  /// Everything it holds: chunks, chunk tables, arena blocks.
  size_t allocated_bytes() const { return allocated_ + arena_.allocated_bytes(); }
  /// Frees every row.
  void clear();

  bool is_null(size_t col, size_t row) const {
    const Column& c = cols_[col];
    return !c.nulls.empty() && c.nulls[row >> kChunkShift][row & kMask];
  }
  int64_t int_at(size_t col, size_t row) const { return cols_[col].ints[row >> kChunkShift][row & kMask]; }
  double dbl_at(size_t col, size_t row) const { return cols_[col].dbls[row >> kChunkShift][row & kMask]; }
  std::string_view str_at(size_t col, size_t row) const { return cols_[col].strs[row >> kChunkShift][row & kMask].view(); }

  /// The chunk tables of column `col` (for tight loops: chunk r >> kChunkShift, value r & (kChunkRows - 1)); null
  /// when the column is of another kind (nulls: has no NULL). Invalidated by append() and clear().
  const int64_t* const* int_chunks(size_t col) const { return chunk_table(cols_[col].ints); }
  const double* const* dbl_chunks(size_t col) const { return chunk_table(cols_[col].dbls); }
  const uint8_t* const* null_chunks(size_t col) const { return chunk_table(cols_[col].nulls); }

  /// `out` = rows sel[0..n) in that order, all columns (its strings' buffers are reused where they have room).
  void gather(const uint32_t* sel, size_t n, Batch& out) const;

 private:
  static constexpr size_t kMask = kChunkRows - 1;
  /// A string: up to kInline bytes in place, longer ones as a pointer into the arena.
  struct Ref {
    static constexpr size_t kInline = 12;
    uint32_t len;
    char bytes[kInline];  ///< the bytes, or (len > kInline) the arena pointer in bytes[4..12)
    std::string_view view() const {
      if (len <= kInline) return {bytes, len};
      const char* p;
      std::memcpy(&p, bytes + 4, sizeof p);
      return {p, len};
    }
  };
  static_assert(sizeof(Ref) == 16);
  struct Column {
    PhysicalKind kind = PhysicalKind::Int64;
    std::vector<std::unique_ptr<int64_t[]>> ints;
    std::vector<std::unique_ptr<double[]>> dbls;
    std::vector<std::unique_ptr<Ref[]>> strs;
    std::vector<std::unique_ptr<uint8_t[]>> nulls;  ///< empty until a NULL comes; then one chunk per value chunk
    size_t cap0 = 0;       ///< rows chunk 0 of the values holds (less than kChunkRows while the column is small)
    size_t null_cap0 = 0;  ///< the same for the null mask
    size_t value_chunks() const { return ints.size() + dbls.size() + strs.size(); }
  };
  static size_t value_width(PhysicalKind k);
  /// The rows chunk 0 holds while the store holds `rows` < kChunkRows: a power of two, at least 16.
  static size_t first_chunk_rows(size_t rows);
  /// What a chunk table of `chunks` chunks (chunk 0 holding `cap0` rows, the table `table_cap` entries) grows by
  /// to hold `rows` rows of `width` bytes.
  static int64_t table_growth(size_t chunks, size_t cap0, size_t table_cap, size_t rows, size_t width);
  template <typename T>
  static const T* const* chunk_table(const std::vector<std::unique_ptr<T[]>>& v) {
    static_assert(sizeof(std::unique_ptr<T[]>) == sizeof(T*));
    return v.empty() ? nullptr : reinterpret_cast<const T* const*>(v.data());
  }
  /// Chunks (and chunk-table growth) `col` needs to hold `extra` more rows; with nulls: for its mask too.
  int64_t column_growth(const Column& col, size_t extra, bool needs_nulls) const;

  std::vector<DataType> types_;
  std::vector<Column> cols_;
  size_t rows_ = 0;
  size_t allocated_ = 0;
  ByteArena arena_;
};

/// sort_rows() (row_comparator.hpp) over a SortStore: sorts `perm` (row indexes into `rows`) stably by `keys`, in
/// RowComparator's order; needs sort_scratch_bytes(perm.size()) of scratch.
void sort_store_rows(const SortStore& rows, const std::vector<SortKey>& keys, std::vector<uint32_t>& perm);

}  // namespace hindsight
