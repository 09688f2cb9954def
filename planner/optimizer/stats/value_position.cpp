#include "planner/optimizer/stats/value_position.hpp"

#include <cmath>

#include "planner/common/date.hpp"

namespace hindsight {

namespace {

// 10^n as a double for any n (pow10_i64 covers 0..18 exactly).
double pow10_double(int n) {
  if (n >= 0 && n <= 18) return static_cast<double>(pow10_i64(n));
  return std::pow(10.0, n);
}

// The number `v` stands for, expressed in units of 10^-scale.
std::optional<double> scaled_number(const Value& v, int scale) {
  switch (v.type.id) {
    case TypeId::Integer:
    case TypeId::BigInt:
      return static_cast<double>(v.i) * pow10_double(scale);
    case TypeId::Decimal: {
      const int diff = scale - static_cast<int>(v.type.scale);
      if (diff >= 0) return static_cast<double>(v.i) * pow10_double(diff);
      return static_cast<double>(v.i) / pow10_double(-diff);
    }
    case TypeId::Double:
      return v.d * pow10_double(scale);
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<double> numeric_position(const Value& v, DataType column_type) {
  if (v.is_null) return std::nullopt;
  switch (column_type.id) {
    case TypeId::Integer:
    case TypeId::BigInt:
    case TypeId::Double:
      return scaled_number(v, 0);
    case TypeId::Decimal:
      return scaled_number(v, column_type.scale);
    case TypeId::Date: {
      if (v.type.id == TypeId::Date) return static_cast<double>(v.i);
      int64_t days = 0;
      if (v.type.id == TypeId::Varchar && parse_date(v.s, days)) return static_cast<double>(days);
      return std::nullopt;
    }
    case TypeId::Boolean:
      if (v.type.id == TypeId::Boolean || v.type.is_integral()) return static_cast<double>(v.i);
      return std::nullopt;
    case TypeId::Varchar:
    case TypeId::Null:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace hindsight
