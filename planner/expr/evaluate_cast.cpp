// CAST between the engine's types. Rounding is half away from zero; out-of-range values and unparsable text are
// DATA_ERRORs; casts with no meaning (DATE to DOUBLE) are NOT_SUPPORTED.
#include <charconv>
#include <climits>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "planner/common/date.hpp"
#include "planner/common/text.hpp"
#include "planner/expr/eval_internal.hpp"

namespace hindsight::eval {
namespace {

enum class Parse { Ok, Invalid, Overflow };

std::string_view trim(std::string_view t) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!t.empty() && space(t.front())) t.remove_prefix(1);
  while (!t.empty() && space(t.back())) t.remove_suffix(1);
  return t;
}

// Drops a leading '+' (std::from_chars does not take one); "+-1" stays invalid.
bool strip_plus(std::string_view& t) {
  if (t.empty() || t[0] != '+') return true;
  t.remove_prefix(1);
  return !t.empty() && t[0] != '-';
}

Parse parse_int(std::string_view t, int64_t& out) {
  t = trim(t);
  if (!strip_plus(t) || t.empty()) return Parse::Invalid;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  if (ec == std::errc::result_out_of_range) return Parse::Overflow;
  return ec == std::errc() && p == t.data() + t.size() ? Parse::Ok : Parse::Invalid;
}

Parse parse_double(std::string_view t, double& out) {
  t = trim(t);
  if (!strip_plus(t) || t.empty()) return Parse::Invalid;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  if (ec == std::errc::result_out_of_range) return Parse::Overflow;
  return ec == std::errc() && p == t.data() + t.size() ? Parse::Ok : Parse::Invalid;
}

// "-12.345" at `scale` fraction digits, rounding half away from zero beyond them.
Parse parse_scaled(std::string_view t, int scale, int64_t& out) {
  t = trim(t);
  size_t i = 0;
  bool neg = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
  __int128 v = 0;
  bool any = false, round_up = false, overflow = false;
  int kept = 0;
  auto digit = [&](size_t k) { return t[k] >= '0' && t[k] <= '9'; };
  for (; i < t.size() && digit(i); ++i) {
    any = true;
    if (v > static_cast<__int128>(INT64_MAX))
      overflow = true;
    else
      v = v * 10 + (t[i] - '0');
  }
  if (i < t.size() && t[i] == '.') {
    for (++i; i < t.size() && digit(i); ++i) {
      any = true;
      if (kept < scale) {
        v = v * 10 + (t[i] - '0');
        ++kept;
      } else if (kept == scale) {
        round_up = t[i] >= '5';
        ++kept;
      }
    }
  }
  if (!any || i != t.size()) return Parse::Invalid;
  for (; kept < scale; ++kept) v *= 10;
  if (round_up) ++v;
  if (overflow || v > static_cast<__int128>(INT64_MAX)) return Parse::Overflow;
  out = static_cast<int64_t>(neg ? -v : v);
  return Parse::Ok;
}

bool parse_bool(std::string_view t, int64_t& out) {
  std::string s;
  for (char c : trim(t)) s += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  if (s == "true" || s == "t" || s == "yes" || s == "y" || s == "on" || s == "1")
    out = 1;
  else if (s == "false" || s == "f" || s == "no" || s == "n" || s == "off" || s == "0")
    out = 0;
  else
    return false;
  return true;
}

void check(Parse p, const char* what, const std::string& text) {
  if (p == Parse::Overflow) throw_overflow();
  if (p == Parse::Invalid) throw_data_error(std::string("invalid ") + what + " '" + printable(text) + "'");
}

// Round half away from zero, then range-check against [lo, hi].
int64_t double_to_int(double x, double lo, double hi) {
  double r = std::round(x);
  if (!(r >= lo && r <= hi)) throw_overflow();  // also catches NaN
  return static_cast<int64_t>(r);
}

// DOUBLE -> DECIMAL through the shortest round-trip text, so that 2.675 becomes 2.68 as written, not 2.67.
// False when it does not fit an int64 (or is not finite).
bool double_to_decimal(double x, int scale, int64_t& out) {
  if (!std::isfinite(x)) return false;
  char buf[1100];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed);
  return res.ec == std::errc() &&
         parse_scaled(std::string_view(buf, static_cast<size_t>(res.ptr - buf)), scale, out) == Parse::Ok;
}

[[noreturn]] void out_of_range(const std::string& value, const DataType& to) {
  throw_data_error(fmt::format("value {} is out of range for {} (at most {} digits before the decimal point)", value,
                               to.to_string(), to.precision - to.scale));
}

bool is_int_like(TypeId t) { return t == TypeId::Boolean || t == TypeId::Integer || t == TypeId::BigInt; }

[[noreturn]] void unsupported(const DataType& from, const DataType& to) {
  throw Error(ErrorCode::NOT_SUPPORTED, "cannot cast " + from.to_string() + " to " + to.to_string());
}

}  // namespace

ColumnVector eval_cast(const DataType& from, const DataType& to, const Operand& in, size_t n) {
  ColumnVector out(to);
  switch (to.physical()) {
    case PhysicalKind::Int64:
      out.ints.assign(n, 0);
      break;
    case PhysicalKind::Double:
      out.dbls.assign(n, 0.0);
      break;
    case PhysicalKind::String:
      out.strs.resize(n);
      break;
  }
  if (from.id == TypeId::Null) {
    out.nulls.assign(n, 1);
    return out;
  }
  if (in.has_nulls()) {
    out.nulls.resize(n);
    for (size_t i = 0; i < n; ++i) out.nulls[i] = in.null_at(i);
  }
  const ColumnVector& c = in.col();
  auto rows = [&](auto f) {
    for (size_t i = 0; i < n; ++i)
      if (out.nulls.empty() || !out.nulls[i]) f(i);
  };
  auto iv = [&](size_t i) { return c.ints[in.at(i)]; };
  auto dv = [&](size_t i) { return c.dbls[in.at(i)]; };
  auto sv = [&](size_t i) -> const std::string& { return c.strs[in.at(i)]; };
  const int fs = scale_of(from), ts = scale_of(to);

  if (from.id == to.id && (from.id != TypeId::Decimal || (fs == ts && to.precision >= from.precision))) {
    switch (to.physical()) {
      case PhysicalKind::Int64:
        rows([&](size_t i) { out.ints[i] = iv(i); });
        break;
      case PhysicalKind::Double:
        rows([&](size_t i) { out.dbls[i] = dv(i); });
        break;
      case PhysicalKind::String:
        rows([&](size_t i) { out.strs[i] = sv(i); });
        break;
    }
    return out;
  }
  switch (to.id) {
    case TypeId::Boolean:
      if (from.id == TypeId::Varchar) {
        rows([&](size_t i) {
          if (!parse_bool(sv(i), out.ints[i])) throw_data_error("invalid boolean '" + printable(sv(i)) + "'");
        });
      } else if (from.id == TypeId::Double) {
        rows([&](size_t i) { out.ints[i] = dv(i) != 0.0; });
      } else if (is_int_like(from.id) || from.id == TypeId::Decimal) {
        rows([&](size_t i) { out.ints[i] = iv(i) != 0; });
      } else {
        unsupported(from, to);
      }
      return out;
    case TypeId::Integer:
    case TypeId::BigInt: {
      const bool narrow = to.id == TypeId::Integer;
      const int64_t lo = narrow ? INT32_MIN : INT64_MIN, hi = narrow ? INT32_MAX : INT64_MAX;
      auto store = [&](size_t i, int64_t v) {
        if (v < lo || v > hi) throw_overflow();
        out.ints[i] = v;
      };
      if (is_int_like(from.id)) {
        rows([&](size_t i) { store(i, iv(i)); });
      } else if (from.id == TypeId::Decimal) {
        rows([&](size_t i) {
          int64_t v;
          rescale(iv(i), fs, 0, v);
          store(i, v);
        });
      } else if (from.id == TypeId::Double) {
        // 2^63 is exactly representable; the largest double below it is the top of the BIGINT range.
        const double dlo = narrow ? INT32_MIN : -9223372036854775808.0;
        const double dhi = narrow ? INT32_MAX : 9223372036854774784.0;
        rows([&](size_t i) { out.ints[i] = double_to_int(dv(i), dlo, dhi); });
      } else if (from.id == TypeId::Varchar) {
        rows([&](size_t i) {
          int64_t v = 0;
          check(parse_int(sv(i), v), "integer", sv(i));
          store(i, v);
        });
      } else {
        unsupported(from, to);
      }
      return out;
    }
    case TypeId::Decimal: {
      // DECIMAL(p,s) holds |value| < 10^(p-s): the scaled integer, rounded at scale s, must stay below 10^p.
      const int64_t limit = pow10_i64(to.precision);
      auto store = [&](size_t i, bool ok, int64_t v, auto&& shown) {
        if (!ok || v >= limit || v <= -limit) out_of_range(shown(), to);
        out.ints[i] = v;
      };
      if (is_int_like(from.id) || from.id == TypeId::Decimal) {
        rows([&](size_t i) {
          int64_t v = 0;
          bool ok = rescale(iv(i), fs, ts, v);
          store(i, ok, v,
                [&] { return from.id == TypeId::Decimal ? format_decimal(iv(i), fs) : std::to_string(iv(i)); });
        });
      } else if (from.id == TypeId::Double) {
        rows([&](size_t i) {
          int64_t v = 0;
          bool ok = double_to_decimal(dv(i), ts, v);
          store(i, ok, v, [&] { return format_double(dv(i)); });
        });
      } else if (from.id == TypeId::Varchar) {
        rows([&](size_t i) {
          int64_t v = 0;
          Parse p = parse_scaled(sv(i), ts, v);
          if (p == Parse::Invalid) check(p, "decimal", sv(i));
          store(i, p == Parse::Ok, v, [&] { return printable(trim(sv(i))); });
        });
      } else {
        unsupported(from, to);
      }
      return out;
    }
    case TypeId::Double:
      if (is_int_like(from.id)) {
        rows([&](size_t i) { out.dbls[i] = static_cast<double>(iv(i)); });
      } else if (from.id == TypeId::Decimal) {
        const double p = static_cast<double>(pow10_i64(fs));
        rows([&](size_t i) { out.dbls[i] = static_cast<double>(iv(i)) / p; });
      } else if (from.id == TypeId::Varchar) {
        rows([&](size_t i) { check(parse_double(sv(i), out.dbls[i]), "double", sv(i)); });
      } else {
        unsupported(from, to);
      }
      return out;
    case TypeId::Varchar:
      switch (from.id) {
        case TypeId::Boolean:
          rows([&](size_t i) { out.strs[i] = iv(i) ? "true" : "false"; });
          break;
        case TypeId::Integer:
        case TypeId::BigInt:
          rows([&](size_t i) { out.strs[i] = std::to_string(iv(i)); });
          break;
        case TypeId::Decimal:
          rows([&](size_t i) { out.strs[i] = format_decimal(iv(i), fs); });
          break;
        case TypeId::Double:
          rows([&](size_t i) { out.strs[i] = format_double(dv(i)); });
          break;
        case TypeId::Date:
          rows([&](size_t i) { out.strs[i] = format_date(iv(i)); });
          break;
        default:
          unsupported(from, to);
      }
      return out;
    case TypeId::Date:
      if (from.id != TypeId::Varchar) unsupported(from, to);
      rows([&](size_t i) {
        if (!parse_date(trim(sv(i)), out.ints[i])) throw_data_error("invalid date '" + printable(sv(i)) + "'");
      });
      return out;
    case TypeId::Null:
      break;
  }
  unsupported(from, to);
}

}  // namespace hindsight::eval
