#pragma once
#include <cstdint>
#include <string>

#include "planner/common/types.hpp"

namespace hindsight {

/// One scalar: a constant in an expression, a cell in a result row.
/// Int64-backed types (see DataType) use `i`; DOUBLE uses `d`; VARCHAR uses `s`.
struct Value {
  DataType type = DataType::null();
  bool is_null = true;
  int64_t i = 0;
  double d = 0.0;
  std::string s;

  static Value null(DataType t = DataType::null()) { Value v; v.type = t; return v; }
  static Value boolean(bool b) { return make_int(DataType::boolean(), b ? 1 : 0); }
  static Value integer(int64_t x) { return make_int(DataType::integer(), x); }
  static Value bigint(int64_t x) { return make_int(DataType::bigint(), x); }
  static Value date(int64_t days) { return make_int(DataType::date(), days); }
  /// `scaled` is value * 10^scale.
  static Value decimal(int64_t scaled, uint8_t precision, uint8_t scale) {
    return make_int(DataType::decimal(precision, scale), scaled);
  }
  static Value float64(double x) { Value v; v.type = DataType::float64(); v.is_null = false; v.d = x; return v; }
  static Value varchar(std::string x) { Value v; v.type = DataType::varchar(); v.is_null = false; v.s = std::move(x); return v; }
  static Value make_int(DataType t, int64_t x) { Value v; v.type = t; v.is_null = false; v.i = x; return v; }

  /// Numeric value as double (DECIMAL unscaled); 0 for non-numeric.
  double as_double() const;
  /// SQL-literal-like text: 'abc', DATE '1995-01-01', 12.50, NULL. Used by EXPLAIN and signatures.
  std::string to_sql() const;
  /// Plain text as printed in results: abc, 1995-01-01, 12.50, NULL -> "NULL".
  std::string to_string() const;
  bool operator==(const Value& o) const;
};

/// Shortest round-trip text of a double; integral values keep one decimal ("3.0").
std::string format_double(double x);

}  // namespace hindsight
