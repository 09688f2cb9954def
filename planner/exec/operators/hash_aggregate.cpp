#include "planner/exec/operators/hash_aggregate.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/exec/batch_gather.hpp"

namespace hindsight {

namespace {

std::vector<DataType> key_types(const std::vector<DataType>& in, const std::vector<int>& keys) {
  std::vector<DataType> t;
  for (int k : keys) {
    HS_ASSERT(k >= 0 && static_cast<size_t>(k) < in.size(), "group key out of range");
    t.push_back(in[static_cast<size_t>(k)]);
  }
  return t;
}

AggUpdate sum_update(const DataType& t) { return t.physical() == PhysicalKind::Double ? AggUpdate::SumDouble : AggUpdate::SumInt; }

/// Type of AVG's running sum over values of type `arg`.
DataType avg_sum_type(const DataType& arg) {
  if (arg.physical() == PhysicalKind::Double) return DataType::float64();
  if (arg.id == TypeId::Decimal) return DataType::decimal(18, arg.scale);
  return DataType::bigint();
}

}  // namespace

HashAggregateOp::HashAggregateOp(ExecContext* ctx, int worker, std::unique_ptr<ExecOperator> child,
                                 std::vector<int> group_keys, std::vector<AggregateSpec> aggs, AggregateMode mode)
    : ExecOperator("HashAggregate", ctx, worker),
      group_keys_(std::move(group_keys)),
      aggs_(std::move(aggs)),
      mode_(mode),
      groups_(key_types(child->output_types(), group_keys_)) {
  const auto& in = child->output_types();
  output_types_ = key_types(in, group_keys_);
  size_t next_input = group_keys_.size();  // Final: states follow the keys
  auto arg_type = [&](const AggregateSpec& a) {
    HS_ASSERT(a.arg >= 0 && static_cast<size_t>(a.arg) < in.size(), "aggregate argument out of range");
    return in[static_cast<size_t>(a.arg)];
  };
  auto final_input = [&]() {
    HS_ASSERT(next_input < in.size(), "Final aggregate input lacks a partial state column");
    return static_cast<int>(next_input++);
  };
  distinct_sets_.resize(aggs_.size());
  for (auto& a : aggs_)
    if (a.kind == AggKind::CountStar) a.distinct = false;  // COUNT(DISTINCT *) is not a thing; never index arg -1
  for (size_t i = 0; i < aggs_.size(); ++i) {
    const AggregateSpec& a = aggs_[i];
    if (a.distinct && mode_ != AggregateMode::Single)
      throw Error(ErrorCode::NOT_SUPPORTED,
                  fmt::format("{}(DISTINCT) in a {} aggregate", agg_kind_name(a.kind), aggregate_mode_name(mode_)));
    size_t first = states_.size();
    if (mode_ != AggregateMode::Final) {
      switch (a.kind) {
        case AggKind::CountStar: states_.emplace_back(AggUpdate::CountRows, DataType::bigint(), -1); break;
        case AggKind::Count: states_.emplace_back(AggUpdate::CountValues, DataType::bigint(), a.arg); break;
        case AggKind::Sum:
          if (arg_type(a).physical() == PhysicalKind::Double)
            HS_ASSERT(a.result_type.physical() == PhysicalKind::Double, "SUM of DOUBLE must be DOUBLE");
          states_.emplace_back(sum_update(a.result_type), a.result_type, a.arg);
          break;
        case AggKind::Avg: {
          DataType st = avg_sum_type(arg_type(a));
          states_.emplace_back(sum_update(st), st, a.arg);
          states_.emplace_back(AggUpdate::CountValues, DataType::bigint(), a.arg);
          break;
        }
        case AggKind::Min:
        case AggKind::Max:
          states_.emplace_back(a.kind == AggKind::Min ? AggUpdate::Min : AggUpdate::Max, arg_type(a), a.arg);
          break;
      }
      if (a.distinct) distinct_sets_[i] = std::make_unique<GroupTable>(std::vector<DataType>{DataType::bigint(), arg_type(a)});
    } else {
      switch (a.kind) {
        case AggKind::CountStar:
        case AggKind::Count: states_.emplace_back(AggUpdate::AddCounts, DataType::bigint(), final_input()); break;
        case AggKind::Sum: {
          int c = final_input();
          states_.emplace_back(sum_update(in[c]), in[c], c);
          break;
        }
        case AggKind::Avg: {
          int c = final_input();
          states_.emplace_back(sum_update(in[c]), in[c], c);
          states_.emplace_back(AggUpdate::AddCounts, DataType::bigint(), final_input());
          break;
        }
        case AggKind::Min:
        case AggKind::Max: {
          int c = final_input();
          states_.emplace_back(a.kind == AggKind::Min ? AggUpdate::Min : AggUpdate::Max, in[c], c);
          break;
        }
      }
    }
    slots_.push_back({first, states_.size() - first});
    if (mode_ == AggregateMode::Partial) {
      for (size_t s = first; s < states_.size(); ++s) output_types_.push_back(states_[s].type());
    } else {
      DataType rt = a.kind == AggKind::Avg ? DataType::float64() : a.result_type;
      if (a.kind != AggKind::Avg)
        HS_ASSERT(rt.physical() == (states_[first].is_count() ? PhysicalKind::Int64 : states_[first].type().physical()),
                  fmt::format("{} result type {} does not fit its input", agg_kind_name(a.kind), rt.to_string()));
      output_types_.push_back(rt);
    }
  }
  if (group_keys_.empty()) {
    group_count_ = 1;  // a global aggregate has its one row even on empty input
    for (auto& s : states_) s.resize(1);
  }
  for (const auto& st : states_) growing_states_ |= !st.is_count() && st.type().physical() == PhysicalKind::String;
  for (const auto& d : distinct_sets_) growing_states_ |= d != nullptr;
  add_child(std::move(child));
}

bool HashAggregateOp::next_impl(Batch& out) {
  if (!spill_checked_) {
    spill_checked_ = true;
    spilling_mode_ = spill_enabled() && !group_keys_.empty();
  }
  if (spilling_mode_) return next_spilling(out);
  if (!consumed_) {
    Batch in;
    while (pull(0, in)) {
      // A Single aggregate keeps its groups once spilling turned on in place (for another operator or, refused the
      // groups of `in`, for itself): `in` is consumed in the spilling mode.
      if (keeps_groups_to_spill() || !consume(in)) {
        start_spilling_mode(/*in_place=*/true);
        pending_ = std::move(in);
        has_pending_ = true;
        return next_spilling(out);
      }
      if (spilling_mode_) return next_spilling(out);  // switched: spilling turned on in place
    }
    consumed_ = true;
  }
  if (emit_pos_ >= group_count_) {
    release_all();
    return false;
  }
  size_t end = std::min(group_count_, emit_pos_ + kBatchSize);
  emit(out, emit_pos_, end);
  emit_pos_ = end;
  return true;
}

std::vector<const ColumnVector*> HashAggregateOp::key_columns(const Batch& in) const {
  std::vector<const ColumnVector*> keys;
  keys.reserve(group_keys_.size());
  for (int k : group_keys_) keys.push_back(&in.columns[static_cast<size_t>(k)]);
  return keys;
}

bool HashAggregateOp::keeps_groups_to_spill() const {
  // Its states are not rows of its input, so a Single aggregate cannot write the groups it holds to its files as
  // a Final does; but it can keep them, updating them in memory, and spill only the rows of groups it does not
  // hold yet, as it does once full. It must switch before its growth is refused (a refused growth has already
  // happened), so at the first batch after spilling turned on.
  return grouped_single() && spill_enabled();
}

bool HashAggregateOp::grouped_single() const { return mode_ == AggregateMode::Single && !group_keys_.empty(); }

bool HashAggregateOp::consume(Batch& in) {
  if (grouped_single() && ctx_->spill_in_place && !reserve_new_groups(in))
    return false;
  insert_groups(in);
  update_states(in, in.rows);
  charge_growth();
  return true;
}

bool HashAggregateOp::reserve_new_groups(const Batch& in) {
  // Once spilling is on, the groups held may grow only up to the limit less the spill reserve, and held groups
  // whose states grow need a quarter of the table's size free (consume_spilling's slack): it asks before the
  // growth would leave less than that room, or it could not go on spilling. Cheap first: when the batch fits with
  // that room even if every row is a new group, nothing is reserved (another worker may charge in between; then
  // the growth is refused after the insert, as without spilling in place).
  const MemoryTracker& m = *ctx_->memory;
  const int64_t room = m.limit() - spill_reserve_for(m.limit(), ctx_->workers) - growth_slack();
  if (m.used() + insert_bound(in, identity(in.rows)) <= room) return true;
  find_held_groups(in);
  if (missing_rows_.empty()) return true;
  const int64_t bound = insert_bound(in, missing_rows_);
  if (m.used() + bound <= room && try_charge(bound, table_live())) {
    charged_ += bound;  // charge_growth gives back what the insert did not use
    return true;
  }
  return !spill_in_place();  // no: insert and fail on the growth as without spilling in place
}

void HashAggregateOp::insert_groups(const Batch& in) {
  const size_t rows = in.rows;
  if (!group_keys_.empty()) {
    groups_.find_or_insert(key_columns(in), rows, group_ids_);
    if (groups_.size() > group_count_) {
      group_count_ = groups_.size();
      for (auto& s : states_) s.resize(group_count_, groups_.group_capacity());
    }
  } else if (group_ids_.size() < rows) {
    group_ids_.assign(rows, 0);
  }
}

void HashAggregateOp::update_states(const Batch& in, size_t rows) {
  for (size_t i = 0; i < aggs_.size(); ++i) {
    if (distinct_sets_[i]) {
      update_distinct(i, in.columns[static_cast<size_t>(aggs_[i].arg)], rows);
      continue;
    }
    for (size_t s = slots_[i].first_state; s < slots_[i].first_state + slots_[i].state_count; ++s) {
      int input = states_[s].input();
      states_[s].update(input >= 0 ? &in.columns[static_cast<size_t>(input)] : nullptr, group_ids_.data(), rows);
    }
  }
}

void HashAggregateOp::update_distinct(size_t agg, const ColumnVector& arg, size_t rows) {
  GroupTable& set = *distinct_sets_[agg];
  gid_column_.ints.assign(group_ids_.begin(), group_ids_.begin() + static_cast<std::ptrdiff_t>(rows));
  const size_t before = set.size();
  set.find_or_insert({&gid_column_, &arg}, rows, scratch_ids_);
  // New (group, value) pairs get consecutive ids in row order: a row is a first occurrence iff it has the next one.
  distinct_rows_.clear();
  distinct_gids_.clear();
  uint32_t next_id = static_cast<uint32_t>(before);
  for (size_t r = 0; r < rows; ++r) {
    if (scratch_ids_[r] != next_id) continue;
    ++next_id;
    distinct_rows_.push_back(static_cast<uint32_t>(r));
    distinct_gids_.push_back(group_ids_[r]);
  }
  if (distinct_rows_.empty()) return;
  distinct_values_.clear();
  distinct_values_.type = arg.type;
  distinct_values_.append_selected(arg, distinct_rows_);
  for (size_t s = slots_[agg].first_state; s < slots_[agg].first_state + slots_[agg].state_count; ++s)
    states_[s].update(&distinct_values_, distinct_gids_.data(), distinct_rows_.size());
}

void HashAggregateOp::charge_growth() {
  int64_t total = groups_.allocated_bytes(), live = groups_.live_bytes();
  for (auto& s : states_) {
    total += s.allocated_bytes();
    live += s.live_bytes();
  }
  for (auto& d : distinct_sets_)
    if (d) {
      total += d->allocated_bytes();
      live += d->live_bytes();
    }
  if (total <= charged_) {
    if (total < charged_) {  // what reserve_new_groups reserved beyond the growth
      release(charged_ - total);
      charged_ = total;
    }
    return set_live(live);
  }
  if (group_keys_.empty() || mode_ == AggregateMode::Single) {
    charge(total - charged_, live);
  } else if (!charge_or_spill(total - charged_, live, [this] { switch_to_spilling(); })) {
    return;  // spilling is on (it turned on in place): the class comment
  }
  charged_ = total;
}

void HashAggregateOp::emit(Batch& out, size_t begin, size_t end, bool as_states) {
  // As states, a Final aggregate's rows are rows of its input: the keys, then the Partial states.
  reset_batch(out, as_states && mode_ == AggregateMode::Final ? children_[0]->output_types() : output_types_);
  const size_t k = group_keys_.size();
  for (size_t c = 0; c < k; ++c) append_range(out.columns[c], groups_.keys()[c], begin, end);
  size_t col = k;
  for (size_t i = 0; i < aggs_.size(); ++i) {
    const size_t first = slots_[i].first_state;
    if (mode_ == AggregateMode::Partial || as_states) {
      for (size_t s = first; s < first + slots_[i].state_count; ++s) states_[s].append_to(out.columns[col++], begin, end);
      continue;
    }
    ColumnVector& o = out.columns[col++];
    if (aggs_[i].kind != AggKind::Avg) {
      states_[first].append_to(o, begin, end);
      continue;
    }
    const AggState& sum = states_[first];
    const AggState& count = states_[first + 1];
    const bool is_double = sum.type().physical() == PhysicalKind::Double;
    const double scale = sum.type().id == TypeId::Decimal ? static_cast<double>(pow10_i64(sum.type().scale)) : 1.0;
    for (size_t g = begin; g < end; ++g) {
      int64_t n = count.int_at(g);
      if (n == 0 || !sum.has_value(g)) {
        o.append_null();
        continue;
      }
      double total = is_double ? sum.double_at(g) : static_cast<double>(sum.int_at(g)) / scale;
      o.append_double(total / static_cast<double>(n));
    }
  }
  out.rows = end - begin;
}

void HashAggregateOp::release_all() {
  groups_.clear();
  for (auto& s : states_) s.clear();
  for (auto& d : distinct_sets_)
    if (d) d->clear();
  release(charged_);
  charged_ = 0;
}

// ---- Spilling (docs/spilling.md) ----

namespace {

/// An upper bound of the heap block a copy of a string of `len` bytes allocates (string_heap_block).
int64_t heap_bound(size_t len) { return len <= 15 ? 0 : static_cast<int64_t>(std::max<size_t>(32, (len + 1 + 8 + 15) & ~size_t{15})); }

int64_t string_heap_of(const ColumnVector& c, const std::vector<uint32_t>& rows) {
  if (c.type.physical() != PhysicalKind::String) return 0;
  int64_t b = 0;
  for (uint32_t r : rows) b += heap_bound(c.strs[r].size());
  return b;
}

}  // namespace

int64_t HashAggregateOp::table_allocated() const {
  int64_t total = groups_.allocated_bytes();
  for (const auto& s : states_) total += s.allocated_bytes();
  for (const auto& d : distinct_sets_)
    if (d) total += d->allocated_bytes();
  return total;
}

int64_t HashAggregateOp::table_live() const {
  int64_t live = groups_.live_bytes();
  for (const auto& s : states_) live += s.live_bytes();
  for (const auto& d : distinct_sets_)
    if (d) live += d->live_bytes();
  return live;
}

void HashAggregateOp::spill_failed(const std::string& why) const {
  throw Error(ErrorCode::MEMORY_LIMIT_EXCEEDED,
              fmt::format("{}: spilling did not help: {} (memory limit {}, {} in use)", label(), why,
                          format_bytes(ctx_->memory->limit()), format_bytes(ctx_->memory->used())));
}

bool HashAggregateOp::read_source(Batch& in) {
  if (!reader_) return pull(0, in);
  if (check_interrupt()) throw QueryCancelled();
  return reader_->next(in);
}

/// What inserting the groups of `rows` (none of them in the table) may allocate at most: table slots and
/// per-group arrays grown to fit them all, their string keys, DISTINCT set entries, string MIN/MAX values.
int64_t HashAggregateOp::insert_bound(const Batch& in, const std::vector<uint32_t>& rows) const {
  const size_t n = rows.size();
  int64_t heap = 0;
  for (int k : group_keys_) heap += string_heap_of(in.columns[static_cast<size_t>(k)], rows);
  int64_t bound = groups_.growth_bound(n, heap);
  const size_t room = groups_.capacity_for(group_count_ + n) - groups_.group_capacity();
  for (const auto& st : states_) {
    bound += static_cast<int64_t>(room) * st.bytes_per_group();
    if (st.input() >= 0 && !st.is_count() && st.type().physical() == PhysicalKind::String) {
      const ColumnVector& c = in.columns[static_cast<size_t>(st.input())];
      for (uint32_t r : rows) bound += static_cast<int64_t>(c.strs[r].size());
    }
  }
  for (size_t i = 0; i < aggs_.size(); ++i)
    if (distinct_sets_[i])
      bound += distinct_sets_[i]->growth_bound(n, string_heap_of(in.columns[static_cast<size_t>(aggs_[i].arg)], rows));
  return bound + bound / 8 + 1024;  // slack for the null masks' and vectors' rounding
}

/// Brings what is charged for the table to what it allocates. Growth past what was reserved (DISTINCT sets
/// and string MIN/MAX values of groups already held, which cannot be spilled) must fit.
void HashAggregateOp::settle_charge(bool after_insert, bool to_limit) {
  const int64_t total = table_allocated();
  const int64_t live = table_live() + io_charged_;
  const int64_t floor = std::max(total, kept_);
  if (charged_ > floor) {
    release(charged_ - floor);
    charged_ = floor;
    set_live(live);
  } else if (total > charged_) {
    if (!(to_limit ? try_charge_to_limit(total - charged_, live) : try_charge(total - charged_, live)))
      spill_failed(after_insert ? fmt::format("inserting new groups beside the {} held needed {} more than fits",
                                              group_count_, format_bytes(total - charged_))
                                : fmt::format("the DISTINCT sets or string MIN/MAX values of the {} groups held in "
                                              "memory grew by {} more than fits",
                                              group_count_, format_bytes(total - charged_)));
    charged_ = total;
  } else {
    set_live(live);
  }
}

void HashAggregateOp::sync_io_charge() {
  // Once spilled, the writers' buffers stay charged while partitions remain (the next partition may have to be
  // split again, and the memory they need must not go to other operators or workers in between).
  int64_t target = writers_.empty() && (reading_ || !partitions_.empty()) ? writers_reserve() : 0;
  for (const auto& w : writers_) target += static_cast<int64_t>(w->buffer_capacity());
  for (const auto& p : partitions_) target += static_cast<int64_t>(p.file->buffer_capacity());
  if (reading_) target += static_cast<int64_t>(reading_->buffer_capacity());
  if (reader_) target += static_cast<int64_t>(reader_->buffer_capacity());
  if (target > io_charged_) {
    // From what the table holds charged beyond its buffers first (kept_ between partitions), then anew.
    const int64_t pooled = std::min(target - io_charged_, std::max<int64_t>(0, charged_ - table_allocated()));
    charged_ -= pooled;
    kept_ = std::max<int64_t>(0, kept_ - pooled);
    const int64_t more = target - io_charged_ - pooled;
    if (more > 0 && !try_charge_spill_buffers(more, table_live() + target)) {
      io_charged_ += pooled;
      spill_failed(fmt::format("the buffers of its {} spill files ({}) do not fit beside {} groups",
                               writers_.size() + partitions_.size() + (reading_ ? 1 : 0), format_bytes(target),
                               group_count_));
    }
  } else if (target < io_charged_) {
    release(io_charged_ - target);
    set_live(table_live() + target);
  }
  io_charged_ = target;
}

void HashAggregateOp::spill_rows(const Batch& in, const std::vector<uint32_t>& rows) {
  const std::vector<uint64_t>& hashes = groups_.last_hashes();  // of the find() that found these rows missing
  part_rows_.resize(kSpillFanout);
  for (auto& p : part_rows_) p.clear();
  for (uint32_t r : rows) part_rows_[static_cast<size_t>(spill_partition_of(hashes[r], depth_, kSpillFanout))].push_back(r);
  for (int p = 0; p < kSpillFanout; ++p) {
    const auto& sel = part_rows_[static_cast<size_t>(p)];
    if (sel.empty()) continue;
    SpillFile& w = *writers_[static_cast<size_t>(p)];
    const uint64_t before = w.bytes();
    w.append(in, sel.data(), sel.size());
    stats_.spilled_bytes += w.bytes() - before;
  }
  stats_.spilled_rows += rows.size();
}

void HashAggregateOp::find_held_groups(const Batch& in) {
  groups_.find(key_columns(in), in.rows, group_ids_);
  found_rows_.clear();
  missing_rows_.clear();
  for (size_t r = 0; r < in.rows; ++r)
    (group_ids_[r] == GroupTable::kNotFound ? missing_rows_ : found_rows_).push_back(static_cast<uint32_t>(r));
}

bool HashAggregateOp::consume_spilling(const Batch& in) {
  const size_t rows = in.rows;
  if (rows == 0) return true;
  find_held_groups(in);
  if (!found_rows_.empty()) {
    if (missing_rows_.empty()) {
      update_states(in, rows);
    } else {
      for (size_t i = 0; i < found_rows_.size(); ++i) group_ids_[i] = group_ids_[found_rows_[i]];
      gather_batch(in, found_rows_, sub_);
      update_states(sub_, found_rows_.size());
    }
    settle_charge(false);
  }
  if (missing_rows_.empty()) return true;
  if (!full_) {
    const int64_t bound = insert_bound(in, missing_rows_);
    // Held groups whose state grows (DISTINCT sets, string MIN/MAX) keep growing after the table is full:
    // new groups are taken only while a quarter of the table's size stays free for that.
    const int64_t slack = growth_slack();
    // ... and the writers' buffers must fit once the table is full: a new group is taken only while they would.
    const int64_t writers = mode_ == AggregateMode::Partial || io_charged_ >= writers_reserve() ? 0 : writers_reserve();
    const int64_t pooled = std::max<int64_t>(0, charged_ - table_allocated());
    // A table grows to at most a fair share of the limit (limit / workers), so that the workers' instances,
    // which fill up and start their partitions at different times, do not starve each other.
    const bool within_share =
        group_count_ == 0 || mode_ == AggregateMode::Partial ||
        charged_ + io_charged_ + bound + slack - pooled <= ctx_->memory->limit() / std::max(1, ctx_->workers);
    const int64_t extra = bound + slack + writers - pooled;
    const bool fits = within_share && (extra <= 0 || try_charge(extra, table_live() + io_charged_));

    if (!fits && group_count_ == 0 && missing_rows_.size() > 1) {
      // Not a batch of new groups fits in the empty table (a small limit): take them half a batch at a time.
      const std::vector<uint32_t> rows_left = missing_rows_;
      const size_t half = rows_left.size() / 2;
      Batch first, second;
      gather_batch(in, std::vector<uint32_t>(rows_left.begin(), rows_left.begin() + static_cast<std::ptrdiff_t>(half)), first);
      gather_batch(in, std::vector<uint32_t>(rows_left.begin() + static_cast<std::ptrdiff_t>(half), rows_left.end()), second);
      if (!consume_spilling(first)) {  // a Partial filled up: pending_ holds the rest of `first`, then `second`
        for (size_t c = 0; c < pending_.columns.size(); ++c)
          append_range(pending_.columns[c], second.columns[c], 0, second.rows);
        pending_.rows += second.rows;
        return false;
      }
      return consume_spilling(second);
    }
    if (fits || group_count_ == 0) {
      if (fits && extra > 0) charged_ += extra;  // settle_charge gives back what the insert did not use
      gather_batch(in, missing_rows_, sub_);
      try {
        insert_groups(sub_);
        update_states(sub_, sub_.rows);
        // The first group of an empty table may take the spill reserve: without one group the aggregate cannot go
        // on at all, while with it every other group goes to the partitions (whose buffers are charged to the
        // limit anyway). Seen at SF 0.1 (top_supplier_lines under 5.7 MB): the other operators held 5.0 MB, all
        // but the reserve, and the attempt failed with "not even the first 1 groups fit".
        settle_charge(true, /*to_limit=*/!fits);  // !fits: the table was empty, and this is one group
      } catch (const Error& e) {
        if (e.code() != ErrorCode::MEMORY_LIMIT_EXCEEDED || fits) throw;
        spill_failed(fmt::format("not even the first {} groups of {} fit", missing_rows_.size(),
                                 depth_ == 0 ? "its input" : fmt::format("a partition split {} times", depth_)));
      }
      return true;
    }
    ++stats_.spills;
    if (mode_ == AggregateMode::Partial) {  // emit what it holds, start over with these rows
      gather_batch(in, missing_rows_, pending_);
      has_pending_ = true;
      // Too little room to reduce much: these rows pass on as one-row states (pass_through) instead of starting
      // over with them, which with room for a few groups would take a cycle per group.
      pass_pending_ = group_count_ < kPassThroughBelowGroups;
      return false;
    }
    if (depth_ >= kMaxSpillDepth)
      spill_failed(fmt::format("a partition split {} times still has more groups than fit beside the {} held",
                               depth_, group_count_));
    start_writing();
  }
  spill_rows(in, missing_rows_);
  return true;
}

void HashAggregateOp::start_writing() {
  full_ = true;
  const std::vector<DataType>& types = children_[0]->output_types();
  if (!spill_backing_) spill_backing_ = std::make_shared<SpillBacking>(ctx_->spill_directory);
  for (int p = 0; p < kSpillFanout; ++p)
    writers_.push_back(std::make_unique<SpillFile>(types, spill_backing_, buffer_bytes_));
  sync_io_charge();
}

const std::vector<uint32_t>& HashAggregateOp::identity(size_t n) {
  while (identity_.size() < n) identity_.push_back(static_cast<uint32_t>(identity_.size()));
  identity_.resize(n);
  return identity_;
}

void HashAggregateOp::finish_source() {
  for (auto& w : writers_) {
    if (w->rows() == 0) continue;
    w->finish_writing();  // its buffer is not needed while the file waits
    partitions_.push_back({std::move(w), depth_ + 1});
  }
  writers_.clear();
  reader_.reset();
  reading_.reset();
  full_ = false;
  sync_io_charge();
}

bool HashAggregateOp::open_next_partition() {
  if (partitions_.empty()) return false;
  Partition p = std::move(partitions_.back());
  partitions_.pop_back();
  reading_ = std::move(p.file);
  depth_ = p.depth;
  reader_.emplace(reading_->reader(buffer_bytes_));
  source_done_ = false;
  sync_io_charge();
  return true;
}

void HashAggregateOp::start_spilling_mode(bool in_place) {
  spilling_mode_ = true;
  consumed_ = true;
  // The files' share of the limit (a 64th) as spill_buffer_bytes has it, but below its 4 KB floor under a limit of
  // a few MB: 16 writers of 4 KB on each of several workers would take much of such a limit. Switched in place near
  // the limit (other operators hold nearly all of it; the spill reserve keeps their data out only from now on), at
  // most a worker's share of half of the room left, as the other workers' instances switch too, rather than fail
  // for want of the usual size (q10 at SF 1: 16 files of 7.6 KB did not fit in the 100 KB left beside one group).
  const int64_t limit = ctx_->memory->limit();
  int64_t room = limit / 64;
  if (in_place) room = std::min(room, (limit - ctx_->memory->used()) / 2 / std::max(1, ctx_->workers));
  buffer_bytes_ = std::min(spill_buffer_bytes(limit, kSpillFanout),
                           std::max(kSpillMinBufferBytes, static_cast<size_t>(std::max<int64_t>(0, room / kSpillFanout))));
}

void HashAggregateOp::switch_to_spilling() {
  start_spilling_mode(/*in_place=*/true);
  ++stats_.spills;
  if (mode_ == AggregateMode::Partial) {  // the groups held go out now (next_spilling emits them), then on
    emitting_ = true;
    emit_pos_ = 0;
    return;
  }
  // Final: the groups held, in the input's layout, go to the partition files, and so does every later row.
  // Their charge is given back first: the files' buffers must fit, and the table is freed right after.
  release(charged_);
  charged_ = 0;
  start_writing();
  Batch held;
  std::vector<const ColumnVector*> keys;
  for (size_t begin = 0; begin < group_count_; begin += kBatchSize) {
    const size_t end = std::min(group_count_, begin + kBatchSize);
    emit(held, begin, end, /*as_states=*/true);
    keys.clear();
    for (size_t c = 0; c < group_keys_.size(); ++c) keys.push_back(&held.columns[c]);
    groups_.find(keys, held.rows, scratch_ids_);  // the rows' hashes, for their partitions
    spill_rows(held, identity(held.rows));
  }
  groups_.clear();
  for (auto& st : states_) st.clear();
  group_count_ = 0;
  set_live(io_charged_);
}

void HashAggregateOp::pass_through(const Batch& in, Batch& out) {
  reset_batch(out, output_types_);
  const size_t k = group_keys_.size();
  for (size_t c = 0; c < k; ++c) append_range(out.columns[c], in.columns[static_cast<size_t>(group_keys_[c])], 0, in.rows);
  if (row_states_.empty()) row_states_ = states_;  // the same accumulators, one group per row
  const std::vector<uint32_t>& groups = identity(in.rows);
  size_t col = k;
  for (AggState& st : row_states_) {
    st.clear();
    st.resize(in.rows);
    const int input = st.input();
    st.update(input >= 0 ? &in.columns[static_cast<size_t>(input)] : nullptr, groups.data(), in.rows);
    st.append_to(out.columns[col++], 0, in.rows);
  }
  out.rows = in.rows;
}

bool HashAggregateOp::next_spilling(Batch& out) {
  if (!consumed_) start_spilling_mode(/*in_place=*/false);  // first call: the child is the source
  while (true) {
    if (emitting_) {
      if (emit_pos_ < group_count_) {
        const size_t end = std::min(group_count_, emit_pos_ + kBatchSize);
        emit(out, emit_pos_, end);
        emit_pos_ = end;
        return true;
      }
      groups_.clear();
      for (auto& s : states_) s.clear();
      for (auto& d : distinct_sets_)
        if (d) d->clear();
      group_count_ = 0;
      emit_pos_ = 0;
      emitting_ = false;
      if (source_done_ && !partitions_.empty()) {
        // The next partition reuses this memory (charged_ stays: the pool its table and files grow into), so
        // that other workers' aggregates do not take it in between.
        // Not all of it: what follows (an exchange buffering the groups emitted) needs memory too. A partition's
        // groups take at most about twice its bytes.
        kept_ = std::min<int64_t>(charged_, 2 * static_cast<int64_t>(partitions_.back().file->bytes()));
        open_next_partition();
        settle_charge(true);
      } else {
        kept_ = 0;
        release(charged_);
        charged_ = 0;
        set_live(io_charged_);
        if (source_done_) {
          release(io_charged_);
          io_charged_ = 0;
          return false;
        }
      }
    }
    if (pass_pending_) {
      pass_pending_ = has_pending_ = false;
      pass_through(pending_, out);
      return true;
    }
    bool refused = false;
    if (has_pending_) {
      Batch carry = std::move(pending_);
      has_pending_ = false;
      refused = !consume_spilling(carry);
    }
    Batch in;
    while (!refused && read_source(in)) refused = !consume_spilling(in);
    if (!refused) {
      finish_source();
      source_done_ = true;
    }
    emitting_ = true;
  }
}

}  // namespace hindsight
