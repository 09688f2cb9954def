#include "planner/exec/operators/hash_join_spill.hpp"

#include <algorithm>

#include "planner/common/error.hpp"
#include "planner/exec/key_columns.hpp"
#include "planner/exec/memory_tracker.hpp"
#include "planner/storage/bucketing.hpp"

namespace hindsight {

size_t JoinSpillFiles::open_fanout(bool level0, bool with_nulls) {
  const size_t first = files_.size();
  if (!backing_) backing_ = std::make_shared<SpillBacking>(dir_);
  for (int p = 0; p < kFanout; ++p) files_.push_back(std::make_unique<SpillFile>(types_, backing_, buffer_bytes_));
  if (level0) {
    HS_ASSERT(first == 0, "the first fanout of a hash join spill opens twice");
    files_.push_back(with_nulls ? std::make_unique<SpillFile>(types_, backing_, buffer_bytes_) : nullptr);
  }
  writing_.resize(files_.size(), 0);
  for (size_t id = first; id < files_.size(); ++id) writing_[id] = files_[id] != nullptr;
  return first;
}

bool JoinSpillFiles::append(const Batch& b, size_t first, int level, OperatorStats& stats) {
  if (b.rows == 0) return false;
  std::vector<const ColumnVector*> key_cols;
  key_cols.reserve(keys_.size());
  for (int k : keys_) key_cols.push_back(&b.columns[static_cast<size_t>(k)]);
  row_hashes(key_cols, b.rows, hashes_);
  const bool nulls = null_key_rows(key_cols, b.rows, nulls_);
  for (auto& s : sel_) s.clear();
  null_sel_.clear();
  for (size_t r = 0; r < b.rows; ++r) {
    if (nulls && nulls_[r]) null_sel_.push_back(static_cast<uint32_t>(r));
    else sel_[static_cast<size_t>(spill_partition_of(hashes_[r], level, kFanout))].push_back(static_cast<uint32_t>(r));
  }
  auto write = [&](SpillFile* f, const std::vector<uint32_t>& sel) {
    if (f == nullptr || sel.empty()) return;
    const uint64_t before = f->bytes();
    f->append(b, sel.data(), sel.size());
    stats.spilled_rows += sel.size();
    stats.spilled_bytes += f->bytes() - before;
  };
  for (int p = 0; p < kFanout; ++p) write(files_[first + static_cast<size_t>(p)].get(), sel_[static_cast<size_t>(p)]);
  if (nulls) write(file(kNullPartition), null_sel_);
  return nulls;
}

void JoinSpillFiles::finish_writing() {
  for (size_t id = 0; id < files_.size(); ++id)
    if (writing_[id]) {
      files_[id]->finish_writing();
      writing_[id] = 0;
    }
}

size_t JoinSpillFiles::split(size_t id, int level, OperatorStats& stats) {
  const size_t first = open_fanout(false, false);
  if (SpillFile* f = file(id)) {
    SpillFile::Reader rd = f->reader(read_bytes_);
    Batch in;
    while (rd.next(in)) append(in, first, level, stats);
  }
  drop(id);
  finish_writing();
  return first;
}

void JoinSpillFiles::drop(size_t id) {
  if (id >= files_.size()) return;
  files_[id].reset();
  writing_[id] = 0;
}

int64_t JoinSpillFiles::buffer_bytes() const {
  int64_t b = 0;
  for (size_t id = 0; id < files_.size(); ++id)
    if (writing_[id]) b += static_cast<int64_t>(files_[id]->buffer_capacity());
  return b;
}

JoinSpillFiles::JoinSpillFiles(std::vector<DataType> types, std::vector<int> keys, const ExecContext& ctx)
    : types_(std::move(types)),
      keys_(std::move(keys)),
      dir_(ctx.spill_directory),
      buffer_bytes_(write_buffer_bytes_for(ctx)),
      read_bytes_(read_buffer_bytes_for(ctx)) {}

size_t JoinSpillFiles::write_buffer_bytes_for(const ExecContext& ctx) {
  const int files = 2 * (kFanout + 1) * std::max(ctx.workers, 1);
  const int64_t limit = ctx.memory->limit();
  return std::min(spill_buffer_bytes(limit, files), std::max(kSpillMinBufferBytes, static_cast<size_t>(limit / 64 / files)));
}

size_t JoinSpillFiles::read_buffer_bytes_for(const ExecContext& ctx) {
  return spill_buffer_bytes(ctx.memory->limit(), 2 * std::max(ctx.workers, 1));
}

int64_t JoinSpillFiles::split_bytes() const {
  const int64_t one = static_cast<int64_t>(std::max(buffer_bytes_, kSpillMinBufferBytes));  // SpillFile's least buffer
  return kFanout * one + static_cast<int64_t>(read_bytes_);
}

}  // namespace hindsight
