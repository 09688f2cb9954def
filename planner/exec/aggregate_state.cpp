#include "planner/exec/aggregate_state.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"

namespace hindsight {

namespace {
[[noreturn]] void throw_sum_overflow() { throw Error(ErrorCode::DATA_ERROR, "SUM overflowed the 64-bit range"); }
}  // namespace

void AggState::resize(size_t groups, size_t capacity) {
  // Grown to `capacity` at once, not by resize()'s doubling.
  auto fit = [&](auto& v) {
    if (groups > v.capacity()) v.reserve(capacity > groups ? capacity : groups);
  };
  if (is_count()) {
    fit(ints_);
    ints_.resize(groups, 0);
    return;
  }
  switch (type_.physical()) {
    case PhysicalKind::Int64: fit(ints_); ints_.resize(groups, 0); break;
    case PhysicalKind::Double: fit(dbls_); dbls_.resize(groups, 0.0); break;
    case PhysicalKind::String:
      string_bytes_ += static_cast<int64_t>((groups > strs_.size() ? groups - strs_.size() : 0) * sizeof(std::string));
      fit(strs_);
      strs_.resize(groups);
      break;
  }
  fit(has_);
  has_.resize(groups, 0);
}

template <typename T, typename Op>
void AggState::fold(const T* values, const uint8_t* nulls, const uint32_t* group_ids, size_t rows, std::vector<T>& acc,
                    Op op) {
  T* a = acc.data();
  uint8_t* has = has_.data();
  for (size_t r = 0; r < rows; ++r) {
    if (nulls && nulls[r]) continue;
    uint32_t g = group_ids[r];
    if (!has[g]) {
      a[g] = values[r];
      has[g] = 1;
    } else {
      op(a[g], values[r]);
    }
  }
}

void AggState::update(const ColumnVector* input, const uint32_t* gids, size_t rows) {
  int64_t* counts = ints_.data();
  if (update_ == AggUpdate::CountRows) {
    for (size_t r = 0; r < rows; ++r) ++counts[gids[r]];
    return;
  }
  const uint8_t* nulls = input->has_nulls() ? input->nulls.data() : nullptr;
  const PhysicalKind in_kind = input->type.physical();
  if (in_kind != type_.physical() && update_ != AggUpdate::CountValues) {
    // A partial accumulator that never saw a value may carry another physical type (all NULL): nothing to fold.
    bool all_null = nulls != nullptr;
    for (size_t r = 0; all_null && r < rows; ++r) all_null = nulls[r] != 0;
    if (all_null) return;
    if (!(update_ == AggUpdate::SumDouble && in_kind == PhysicalKind::Int64))
      throw_internal(__FILE__, __LINE__,
                     fmt::format("aggregate input {} does not fit accumulator {}", input->type.to_string(),
                                 type_.to_string()));
    // Integer values into a DOUBLE sum.
    double scale = input->type.id == TypeId::Decimal ? static_cast<double>(pow10_i64(input->type.scale)) : 1.0;
    const int64_t* v = input->ints.data();
    for (size_t r = 0; r < rows; ++r) {
      if (nulls && nulls[r]) continue;
      dbls_[gids[r]] += static_cast<double>(v[r]) / scale;
      has_[gids[r]] = 1;
    }
    return;
  }
  switch (update_) {
    case AggUpdate::CountRows: break;
    case AggUpdate::CountValues:
      if (nulls) {
        for (size_t r = 0; r < rows; ++r) counts[gids[r]] += nulls[r] ? 0 : 1;
      } else {
        for (size_t r = 0; r < rows; ++r) ++counts[gids[r]];
      }
      break;
    case AggUpdate::AddCounts: {
      const int64_t* v = input->ints.data();
      for (size_t r = 0; r < rows; ++r)
        if (!(nulls && nulls[r])) counts[gids[r]] += v[r];
      break;
    }
    case AggUpdate::SumInt:
      fold(input->ints.data(), nulls, gids, rows, ints_, [](int64_t& a, int64_t v) {
        if (__builtin_add_overflow(a, v, &a)) throw_sum_overflow();
      });
      break;
    case AggUpdate::SumDouble:
      fold(input->dbls.data(), nulls, gids, rows, dbls_, [](double& a, double v) { a += v; });
      break;
    case AggUpdate::Min:
    case AggUpdate::Max: {
      const bool is_min = update_ == AggUpdate::Min;
      switch (type_.physical()) {
        case PhysicalKind::Int64:
          if (is_min) fold(input->ints.data(), nulls, gids, rows, ints_, [](int64_t& a, int64_t v) { if (v < a) a = v; });
          else fold(input->ints.data(), nulls, gids, rows, ints_, [](int64_t& a, int64_t v) { if (v > a) a = v; });
          break;
        case PhysicalKind::Double:
          if (is_min) fold(input->dbls.data(), nulls, gids, rows, dbls_, [](double& a, double v) { if (v < a) a = v; });
          else fold(input->dbls.data(), nulls, gids, rows, dbls_, [](double& a, double v) { if (v > a) a = v; });
          break;
        case PhysicalKind::String: {
          const std::string* v = input->strs.data();
          for (size_t r = 0; r < rows; ++r) {
            if (nulls && nulls[r]) continue;
            uint32_t g = gids[r];
            if (!has_[g] || (is_min ? v[r] < strs_[g] : v[r] > strs_[g])) {
              string_bytes_ += static_cast<int64_t>(v[r].size()) - static_cast<int64_t>(strs_[g].size());
              strs_[g] = v[r];
              has_[g] = 1;
            }
          }
          break;
        }
      }
      break;
    }
  }
}

void AggState::append_to(ColumnVector& out, size_t begin, size_t end) const {
  const size_t base = out.size();
  const bool count = is_count();
  switch (count ? PhysicalKind::Int64 : type_.physical()) {
    case PhysicalKind::Int64: out.ints.insert(out.ints.end(), ints_.begin() + begin, ints_.begin() + end); break;
    case PhysicalKind::Double: out.dbls.insert(out.dbls.end(), dbls_.begin() + begin, dbls_.begin() + end); break;
    case PhysicalKind::String: out.strs.insert(out.strs.end(), strs_.begin() + begin, strs_.begin() + end); break;
  }
  bool missing = false;
  if (!count)
    for (size_t g = begin; g < end && !missing; ++g) missing = !has_[g];
  if (missing || out.has_nulls()) {
    if (out.nulls.empty()) out.nulls.assign(base, 0);
    for (size_t g = begin; g < end; ++g) out.nulls.push_back(count ? 0 : !has_[g]);
  }
}

int64_t AggState::allocated_bytes() const {
  // string_bytes_: a string object per group plus the payloads.
  return static_cast<int64_t>(ints_.capacity() * 8 + dbls_.capacity() * 8 + has_.capacity() +
                              (strs_.capacity() - strs_.size()) * sizeof(std::string)) +
         string_bytes_;
}

int64_t AggState::live_bytes() const {
  return static_cast<int64_t>(ints_.size() * 8 + dbls_.size() * 8 + has_.size()) + string_bytes_;
}

void AggState::clear() {
  // Really freed: `= {}` would keep the capacities (a spilling aggregate starts over on the next partition).
  ints_ = std::vector<int64_t>();
  dbls_ = std::vector<double>();
  strs_ = std::vector<std::string>();
  has_ = std::vector<uint8_t>();
  string_bytes_ = 0;
}

}  // namespace hindsight
