#pragma once
#include <cstdint>
#include <vector>

#include "planner/storage/column_vector.hpp"

namespace hindsight {

// Column and batch assembly used by the executable operators. All of them keep the ColumnVector invariant
// (the null mask is empty or has one byte per row) and reuse the capacity of the destination.

/// Empties `b` and gives it one empty column per type (existing buffers keep their capacity).
void reset_batch(Batch& b, const std::vector<DataType>& types);
/// Types of the columns of `b`.
std::vector<DataType> batch_types(const Batch& b);

/// Appends rows [begin, end) of `src` to `dst` (same physical kind).
void append_range(ColumnVector& dst, const ColumnVector& src, size_t begin, size_t end);
/// Appends `n` NULLs to `dst`.
void append_nulls(ColumnVector& dst, size_t n);
/// Appends all rows of `src`, moving its strings.
void append_moved(ColumnVector& dst, ColumnVector&& src);
/// Appends all rows of `in` to the columns `dst` (one per column of `in`), moving its strings, and
/// returns the bytes `dst` newly holds: the growth of its buffers' capacities plus the heap blocks of
/// the strings it took over. What an operator that accumulates its input charges the budget.
int64_t append_batch_moved(std::vector<ColumnVector>& dst, Batch&& in);

/// out = the rows of `in` listed in `sel`, all columns.
void gather_batch(const Batch& in, const std::vector<uint32_t>& sel, Batch& out);
/// dst.append_selected(src, sel) for a source that is discarded afterwards: selected strings are moved out of
/// `src` (left empty there). `sel` must not repeat a row.
void append_selected_moved(ColumnVector& dst, ColumnVector& src, const std::vector<uint32_t>& sel);
/// gather_batch() for a source that is discarded afterwards: the selected strings are moved out of `in` (no
/// copy of their heap blocks); `in` keeps its shape but its selected strings are left empty. `sel` must be
/// strictly increasing (as evaluate_filter() makes it).
void gather_batch_moved(Batch& in, const std::vector<uint32_t>& sel, Batch& out);
/// Appends the rows `sel` of every column of `src` to the columns of `dst` starting at column `first`.
void append_selected_columns(const std::vector<ColumnVector>& src, const std::vector<uint32_t>& sel,
                             std::vector<ColumnVector>& dst, size_t first);

/// Bytes the buffer of `v` holds (for memory accounting).
template <typename T>
int64_t vector_bytes(const std::vector<T>& v) {
  return static_cast<int64_t>(v.capacity() * sizeof(T));
}

}  // namespace hindsight
