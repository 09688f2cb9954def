#include "planner/storage/field_parser.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "planner/common/date.hpp"

namespace hindsight {

namespace {

bool parse_integer(std::string_view t, int64_t lo, int64_t hi, int64_t& out) {
  size_t i = 0;
  bool neg = false;
  if (i < t.size() && (t[i] == '-' || t[i] == '+')) neg = t[i++] == '-';
  if (i == t.size()) return false;
  // Accumulate negatively so that INT64_MIN parses.
  int64_t v = 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  for (; i < t.size(); ++i) {
    unsigned d = static_cast<unsigned>(t[i] - '0');
    if (d > 9) return false;
    if (v < kMin / 10 || (v == kMin / 10 && static_cast<int64_t>(d) > -(kMin % 10))) return false;
    v = v * 10 - static_cast<int64_t>(d);
  }
  if (!neg) {
    if (v == kMin) return false;
    v = -v;
  }
  if (v < lo || v > hi) return false;
  out = v;
  return true;
}

bool parse_boolean(std::string_view t, int64_t& out) {
  auto eq = [&](const char* word) {
    size_t n = 0;
    for (; word[n]; ++n)
      if (n >= t.size() || (t[n] | 0x20) != word[n]) return false;
    return n == t.size();
  };
  if (t == "1" || eq("true")) return out = 1, true;
  if (t == "0" || eq("false")) return out = 0, true;
  return false;
}

bool parse_decimal_field(std::string_view t, const DataType& type, int64_t& out) {
  // Fast path for the common shape [-]digits[.digits] with at most `scale` fraction digits and few digits overall;
  // everything else (rounding, '+', long inputs, errors) takes the general path below.
  if (!t.empty() && t.size() <= 17) {
    size_t i = t[0] == '-' ? 1 : 0;
    int64_t whole = 0, frac = 0;
    int int_digits = 0, frac_digits = 0;
    bool simple = i < t.size();
    for (; simple && i < t.size() && t[i] != '.'; ++i, ++int_digits) {
      unsigned d = static_cast<unsigned>(t[i] - '0');
      simple = d <= 9;
      whole = whole * 10 + d;
    }
    if (simple && i < t.size()) {
      for (++i; simple && i < t.size(); ++i, ++frac_digits) {
        unsigned d = static_cast<unsigned>(t[i] - '0');
        simple = d <= 9;
        frac = frac * 10 + d;
      }
    }
    simple = simple && frac_digits <= type.scale && int_digits + frac_digits > 0;
    if (simple) {
      if (whole >= pow10_i64(type.precision - type.scale)) return false;
      int64_t v = whole * pow10_i64(type.scale) + frac * pow10_i64(type.scale - frac_digits);
      out = t[0] == '-' ? -v : v;
      return true;
    }
  }
  // General path: [+-]digits[.digits], at least one digit, rounding half away from zero beyond the scale. At most
  // precision - scale integer digits are accepted, so the scaled value has at most 18 digits and cannot overflow.
  size_t i = 0;
  bool neg = false;
  if (i < t.size() && (t[i] == '-' || t[i] == '+')) neg = t[i++] == '-';
  int64_t v = 0;
  int int_digits = 0, frac_digits = 0;
  bool any = false, round_up = false;
  for (; i < t.size() && t[i] != '.'; ++i) {
    unsigned d = static_cast<unsigned>(t[i] - '0');
    if (d > 9) return false;
    any = true;
    if (v == 0 && d == 0) continue;  // leading zeros
    if (++int_digits > type.precision - type.scale) return false;
    v = v * 10 + d;
  }
  if (i < t.size()) {
    for (++i; i < t.size(); ++i) {
      unsigned d = static_cast<unsigned>(t[i] - '0');
      if (d > 9) return false;
      any = true;
      if (frac_digits < type.scale) {
        v = v * 10 + d;
        ++frac_digits;
      } else if (frac_digits == type.scale) {
        round_up = d >= 5;
        ++frac_digits;
      }
    }
  }
  if (!any) return false;
  for (int kept = std::min<int>(frac_digits, type.scale); kept < type.scale; ++kept) v *= 10;
  if (round_up) ++v;
  if (v >= pow10_i64(type.precision)) return false;
  out = neg ? -v : v;
  return true;
}

}  // namespace

bool parse_int64_field(const DataType& type, std::string_view text, int64_t& out) {
  switch (type.id) {
    case TypeId::Integer:
      return parse_integer(text, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), out);
    case TypeId::BigInt:
      return parse_integer(text, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), out);
    case TypeId::Decimal:
      return parse_decimal_field(text, type, out);
    case TypeId::Date:
      return parse_date(text, out);
    case TypeId::Boolean:
      return parse_boolean(text, out);
    default:
      return false;
  }
}

bool parse_double_field(std::string_view t, double& out) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  if (t.empty()) return false;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && ptr == t.data() + t.size();
}

}  // namespace hindsight
