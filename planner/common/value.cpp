#include "planner/common/value.hpp"

#include <cmath>
#include <fmt/format.h>

#include "planner/common/date.hpp"

namespace hindsight {

double Value::as_double() const {
  switch (type.id) {
    case TypeId::Double: return d;
    case TypeId::Decimal: return static_cast<double>(i) / static_cast<double>(pow10_i64(type.scale));
    case TypeId::Integer:
    case TypeId::BigInt:
    case TypeId::Boolean: return static_cast<double>(i);
    default: return 0.0;
  }
}

std::string format_double(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x == std::floor(x) && std::fabs(x) < 1e15) return fmt::format("{:.1f}", x);
  return fmt::format("{}", x);  // shortest round-trip representation
}

std::string Value::to_string() const {
  if (is_null) return "NULL";
  switch (type.id) {
    case TypeId::Null: return "NULL";
    case TypeId::Boolean: return i ? "true" : "false";
    case TypeId::Integer:
    case TypeId::BigInt: return std::to_string(i);
    case TypeId::Double: return format_double(d);
    case TypeId::Decimal: return format_decimal(i, type.scale);
    case TypeId::Varchar: return s;
    case TypeId::Date: return format_date(i);
  }
  return "?";
}

std::string Value::to_sql() const {
  if (is_null) return "NULL";
  switch (type.id) {
    case TypeId::Varchar: {
      std::string out = "'";
      for (char c : s) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    }
    case TypeId::Date: return "DATE '" + format_date(i) + "'";
    case TypeId::Boolean: return i ? "TRUE" : "FALSE";
    default: return to_string();
  }
}

bool Value::operator==(const Value& o) const {
  if (is_null || o.is_null) return is_null == o.is_null && type == o.type;
  if (type != o.type) return false;
  switch (type.physical()) {
    case PhysicalKind::Int64: return i == o.i;
    case PhysicalKind::Double: return d == o.d || (std::isnan(d) && std::isnan(o.d));
    case PhysicalKind::String: return s == o.s;
  }
  return false;
}

}  // namespace hindsight
