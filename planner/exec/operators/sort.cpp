#include "planner/exec/operators/sort.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"
#include "planner/exec/row_comparator.hpp"

namespace hindsight {

namespace {

/// The largest block of a sort's string arena under `limit`: a small share of it (a block is charged whole),
/// 4 KB to 1 MB.
size_t arena_block_bytes(int64_t limit) {
  return static_cast<size_t>(std::clamp<int64_t>(limit / 64, int64_t{4} << 10, int64_t{1} << 20));
}

std::vector<DataType> checked_types(const ExecOperator& child, const std::vector<SortKey>& keys) {
  std::vector<DataType> types = child.output_types();
  for (auto& k : keys)
    HS_ASSERT(k.column >= 0 && static_cast<size_t>(k.column) < types.size(), "sort key out of range");
  return types;
}

}  // namespace

SortOp::SortOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child, std::vector<SortKey> keys)
    : ExecOperator("Sort", ctx, worker),
      keys_(std::move(keys)),
      store_(checked_types(*child, keys_), arena_block_bytes(ctx->memory ? ctx->memory->limit() : int64_t{1} << 40)) {
  output_types_ = store_.types();
  add_child(std::move(child));
}

bool SortOp::next_impl(Batch& out) {
  if (!sorted_) {
    if (spill_enabled()) {
      accumulate_spilling();
    } else {
      Batch in;
      while (pull(0, in)) {
        row_count_ += in.rows;
        const int64_t live = live_bytes_ + static_cast<int64_t>(store_.live_growth(in));
        const int64_t g = store_.growth_for(in);
        charge(g, live);  // before the store grows: a refusal leaves nothing uncharged
        const int64_t got = store_.append(in);
        if (got != g) charge(got - g, live);  // not expected: growth_for is exact
      }
      charge(static_cast<int64_t>(row_count_ * sizeof(uint32_t)));
      perm_.resize(row_count_);
      std::iota(perm_.begin(), perm_.end(), 0u);
      const auto scratch = static_cast<int64_t>(sort_scratch_bytes(row_count_));
      charge(scratch);  // the sort's entries, freed when it returns
      sort_store_rows(store_, keys_, perm_);
      release(scratch);
    }
    sorted_ = true;
  }
  if (merging_) {
    if (merge_into(out, kBatchSize)) return true;
    close_cursors();
    release(held_memory_);
    return false;
  }
  if (emit_pos_ >= row_count_) {
    store_.clear();
    std::vector<uint32_t>().swap(perm_);  // not perm_ = {}: that keeps the capacity
    release(held_memory_);
    return false;
  }
  size_t end = std::min(row_count_, emit_pos_ + kBatchSize);
  store_.gather(perm_.data() + emit_pos_, end - emit_pos_, out);
  emit_pos_ = end;
  return true;
}

// ---- Spilling (docs/spilling.md) -------------------------------------------------------------------------------

namespace {

/// What sorting a held row needs besides the row: its permutation entry and sort_rows' scratch. Reserved with
/// every batch while spilling, so that sorting what is held when a charge is refused needs no further charge.
const int64_t kSortBytesPerRow = static_cast<int64_t>(sizeof(uint32_t) + sort_scratch_bytes(1));

/// An estimate of the memory one batch read back from `f` takes: the file's bytes a row plus, per string, its
/// object and the allocator's header and rounding of a payload.
int64_t batch_estimate(const SpillFile& f) {
  if (f.rows() == 0) return 0;
  int64_t strings = 0;
  for (const DataType& t : f.types()) strings += t.physical() == PhysicalKind::String ? 1 : 0;
  const int64_t per_row = static_cast<int64_t>(f.bytes() / f.rows()) + 48 * strings + 8;
  return per_row * static_cast<int64_t>(std::min<uint64_t>(f.rows(), kBatchSize));
}

}  // namespace

void SortOp::accumulate_spilling() {
  auto explain = [this](const Error& e, const std::string& what) {
    return Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
                 fmt::format("{}: spilling did not help: {} ({})", label(), what, e.what()));
  };
  Batch in;
  const int64_t trim_every = std::max<int64_t>(ctx_->memory->limit() / 16, int64_t{1} << 20);
  int64_t consumed = 0;
  while (pull(0, in)) {
    const size_t n = in.rows;
    consumed += static_cast<int64_t>(in.byte_size());
    if (consumed >= trim_every) {
      trim_free_heap();
      consumed = 0;
    }
    for (const ColumnVector& c : in.columns) output_bytes_ += static_cast<int64_t>(c.allocated_bytes());
    const int64_t in_live = static_cast<int64_t>(store_.live_growth(in)) + static_cast<int64_t>(n) * kSortBytesPerRow;
    // A run's first batch also reserves the run's write buffer, so that a refusal always leaves room to write
    // the run out: refused with less than that left, the spill itself failed ("spilling did not help").
    int64_t reserve = row_count_ == 0 ? run_buffer_bytes() : 0;
    int64_t g = store_.growth_for(in) + static_cast<int64_t>(n) * kSortBytesPerRow + reserve;
    // To the limit, the spill reserve included: the sort is usually the last operator of a query (ORDER BY above the
    // final Gather), so no other operator's spill buffers need the reserve while it runs, and taking the
    // reserve from it only made it write more, smaller runs whose merge cursors crowd out the result.
    if (!try_charge_to_limit(g, live_bytes_ + in_live)) {
      if (row_count_ > 0) spill_run();
      reserve = run_buffer_bytes();
      g = store_.growth_for(in) + static_cast<int64_t>(n) * kSortBytesPerRow + reserve;
      try {
        charge(g, live_bytes_ + in_live);
      } catch (const Error& e) {
        if (e.code() != ErrorCode::MEMORY_LIMIT_EXCEEDED) throw;
        throw explain(e, fmt::format("one batch of {} rows does not fit besides what the query holds", n));
      }
    }
    const int64_t grown = store_.append(in) + static_cast<int64_t>(n) * kSortBytesPerRow + reserve;
    if (grown > g) charge(grown - g, live_bytes_);  // not expected: growth_for is exact
    data_charged_ += std::max(grown, g);
    buffer_reserved_ += reserve;
    data_live_ += in_live;
    row_count_ += n;
  }
  // Everything fit. Emitting from memory holds every row until the last is out, while what the sort emits is
  // usually held too (the query result, charged as it comes): when the room left cannot take the output besides
  // the rows, they go out as one run and are merged back, so that the sort's memory is free while it emits.
  const int64_t room = ctx_->memory->limit() - ctx_->memory->used();
  if (output_held_ && runs_.empty() && row_count_ > 0 && output_bytes_ > room) spill_run();
  if (runs_.empty()) {
    // The in-memory sort, on memory reserved as the rows came.
    perm_.resize(row_count_);
    std::iota(perm_.begin(), perm_.end(), 0u);
    sort_store_rows(store_, keys_, perm_);
    return;
  }
  if (row_count_ > 0) spill_run();
  // What the input's batches left in other threads' heaps goes back before the merge fills the query result.
  trim_free_heap();
  // Merge: while the readers of all runs do not fit, merge the first runs into one (keeping input order).
  for (;;) {
    // The write buffer of a pass's output, reserved before the cursors take what is left.
    auto out_file = new_run_file();
    open_cursors();
    if (runs_.empty()) {
      const auto b = static_cast<int64_t>(out_file->buffer_capacity());
      out_file.reset();
      files_charged_ -= b;
      release(b);
      set_live(files_charged_);
      merging_ = true;
      return;
    }
    Batch merged;
    while (merge_into(merged, kBatchSize)) {
      const uint64_t before = out_file->bytes();
      out_file->append(merged);
      stats_.spilled_rows += merged.rows;
      stats_.spilled_bytes += out_file->bytes() - before;
    }
    close_cursors();
    seal_run(*out_file);
    runs_.insert(runs_.begin(), std::move(out_file));
  }
}

int64_t SortOp::run_buffer_bytes() const {
  return static_cast<int64_t>(
      std::max(spill_buffer_bytes(ctx_->memory->limit(), static_cast<int>(kMaxMergeFanIn)), kSpillMinBufferBytes));
}

std::unique_ptr<SpillFile> SortOp::new_run_file() {
  auto f = std::make_unique<SpillFile>(output_types_, ctx_->spill_directory,
                                       spill_buffer_bytes(ctx_->memory->limit(), static_cast<int>(kMaxMergeFanIn)));
  const auto b = static_cast<int64_t>(f->buffer_capacity());
  try {
    charge(b, live_bytes_ + b);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::MEMORY_LIMIT_EXCEEDED) throw;
    throw Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
                fmt::format("{}: spilling did not help: the write buffer of a sorted run ({}) does not fit ({})",
                            label(), format_bytes(b), e.what()));
  }
  files_charged_ += b;
  return f;
}

void SortOp::seal_run(SpillFile& f) {
  // A finished run is only read from now on: its write buffer goes (SpillFile::finish_writing), and so does
  // its charge, so that the runs waiting for the merge cost nothing while the merge and what it feeds run.
  const auto b = static_cast<int64_t>(f.buffer_capacity());
  f.finish_writing();
  files_charged_ -= b;
  release(b);  // the buffer was charged as live data: its live figure goes with it
}

void SortOp::spill_run() {
  perm_.resize(row_count_);
  std::iota(perm_.begin(), perm_.end(), 0u);
  sort_store_rows(store_, keys_, perm_);  // its permutation and scratch were reserved with the rows
  // The write buffer's reservation becomes the buffer's charge.
  release(buffer_reserved_);
  data_charged_ -= buffer_reserved_;
  buffer_reserved_ = 0;
  auto file = new_run_file();
  // Written a batch at a time, so that the file's buffer keeps its charged size (one chunk of the whole run grew
  // it to the run's size, uncharged, while the run was still held).
  Batch slice;
  for (size_t at = 0; at < row_count_; at += kBatchSize) {
    const size_t n = std::min(kBatchSize, row_count_ - at);
    store_.gather(perm_.data() + at, n, slice);
    file->append(slice);
  }
  seal_run(*file);
  stats_.spilled_rows += row_count_;
  stats_.spilled_bytes += file->bytes();
  if (runs_.empty()) stats_.spills += 1;
  runs_.push_back(std::move(file));
  // Free the run's rows: the store's chunks and arena blocks go back whole.
  slice = Batch();
  std::vector<uint32_t>().swap(perm_);  // not perm_ = {}: that keeps the capacity (charge released, memory held)
  store_.clear();
  row_count_ = 0;
  release(data_charged_);
  set_live(files_charged_);
  data_charged_ = 0;
  data_live_ = 0;
}

void SortOp::open_cursors() {
  const size_t reader_bytes = spill_buffer_bytes(ctx_->memory->limit(), static_cast<int>(kMaxMergeFanIn));
  while (!runs_.empty() && cursors_.size() < kMaxMergeFanIn) {
    const int64_t cost = static_cast<int64_t>(reader_bytes) + batch_estimate(*runs_.front());
    if (cursors_.size() >= 2) {
      if (!try_charge_to_limit(cost, live_bytes_ + cost)) break;
    } else {
      try {
        charge(cost, live_bytes_ + cost);
      } catch (const Error& e) {
        if (e.code() != ErrorCode::MEMORY_LIMIT_EXCEEDED) throw;
        throw Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
                    fmt::format("{}: spilling did not help: merging needs to read two sorted runs at once, {} each, "
                                "and they do not fit ({})",
                                label(), format_bytes(cost), e.what()));
      }
    }
    files_charged_ += cost;
    Cursor c;
    c.file = std::move(runs_.front());
    runs_.erase(runs_.begin());
    c.reader.emplace(c.file->reader(reader_bytes));
    c.charged = cost;
    if (c.reader->next(c.batch)) cursors_.push_back(std::move(c));
    else {  // cannot happen (runs are never empty): drop it
      const int64_t freed = cost + static_cast<int64_t>(c.file->buffer_capacity());
      files_charged_ -= freed;
      release(freed);
      set_live(files_charged_);
    }
  }
  heap_.clear();
  for (size_t i = 0; i < cursors_.size(); ++i) heap_.push_back(i);
  auto after = [this](size_t a, size_t b) {
    const Cursor& x = cursors_[a];
    const Cursor& y = cursors_[b];
    const int c = compare_rows_across(x.batch.columns, x.row, y.batch.columns, y.row, keys_);
    return c != 0 ? c > 0 : a > b;  // ties: the earlier run first
  };
  std::make_heap(heap_.begin(), heap_.end(), after);
}

bool SortOp::merge_into(Batch& out, size_t max_rows) {
  auto after = [this](size_t a, size_t b) {
    const Cursor& x = cursors_[a];
    const Cursor& y = cursors_[b];
    const int c = compare_rows_across(x.batch.columns, x.row, y.batch.columns, y.row, keys_);
    return c != 0 ? c > 0 : a > b;
  };
  reset_batch(out, output_types_);
  size_t n = 0;
  while (n < max_rows && !heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), after);
    Cursor& c = cursors_[heap_.back()];
    for (size_t col = 0; col < out.columns.size(); ++col) out.columns[col].append_from(c.batch.columns[col], c.row);
    ++n;
    if (++c.row >= c.batch.rows) {
      c.row = 0;
      if (!c.reader->next(c.batch)) {
        heap_.pop_back();
        continue;
      }
    }
    std::push_heap(heap_.begin(), heap_.end(), after);
  }
  out.rows = n;
  return n > 0;
}

void SortOp::close_cursors() {
  int64_t freed = 0;
  for (Cursor& c : cursors_) freed += c.charged + static_cast<int64_t>(c.file->buffer_capacity());
  cursors_.clear();
  heap_.clear();
  files_charged_ -= freed;
  release(freed);
  set_live(files_charged_);
}

}  // namespace hindsight
