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
  add_child(std::move(child));
}

bool HashAggregateOp::next_impl(Batch& out) {
  if (!consumed_) {
    Batch in;
    while (pull(0, in)) consume(in);
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

void HashAggregateOp::consume(Batch& in) {
  const size_t rows = in.rows;
  if (!group_keys_.empty()) {
    std::vector<const ColumnVector*> keys;
    keys.reserve(group_keys_.size());
    for (int k : group_keys_) keys.push_back(&in.columns[static_cast<size_t>(k)]);
    groups_.find_or_insert(keys, rows, group_ids_);
    if (groups_.size() > group_count_) {
      group_count_ = groups_.size();
      for (auto& s : states_) s.resize(group_count_, groups_.group_capacity());
    }
  } else if (group_ids_.size() < rows) {
    group_ids_.assign(rows, 0);
  }
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
  charge_growth();
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
  if (total > charged_) {
    charge(total - charged_, live);
    charged_ = total;
  } else {
    set_live(live);
  }
}

void HashAggregateOp::emit(Batch& out, size_t begin, size_t end) {
  reset_batch(out, output_types_);
  const size_t k = group_keys_.size();
  for (size_t c = 0; c < k; ++c) append_range(out.columns[c], groups_.keys()[c], begin, end);
  size_t col = k;
  for (size_t i = 0; i < aggs_.size(); ++i) {
    const size_t first = slots_[i].first_state;
    if (mode_ == AggregateMode::Partial) {
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

}  // namespace hindsight
