// Arithmetic kernels: + - * / % unary minus, ABS and ROUND over int64-backed types (INTEGER, BIGINT, DECIMAL as
// scaled integers) and DOUBLE.
#include <algorithm>
#include <climits>
#include <cmath>

#include "planner/expr/eval_internal.hpp"

namespace hindsight::eval {
namespace {

__int128 pow10_128(int n) {
  __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

bool null_row(const std::vector<uint8_t>& nulls, size_t i) { return !nulls.empty() && nulls[i]; }

// Divides with rounding half away from zero.
__int128 div_round(__int128 num, __int128 den) {
  __int128 q = num / den, r = num % den;
  __int128 ar = r < 0 ? -r : r, ad = den < 0 ? -den : den;
  if (2 * ar >= ad) q += (num < 0) != (den < 0) ? -1 : 1;
  return q;
}

bool fits_int64(__int128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

// out[i] = f(l[i], r[i]) where f reports int64 overflow. The loop stays branch-free; values under a NULL are
// arbitrary, so an overflow flag is re-checked on the non-NULL rows only.
template <typename F>
void int_checked(const Operand& l, const Operand& r, size_t n, const std::vector<uint8_t>& nulls, int64_t* out, F f) {
  bool overflow = false;
  binary_loop(ints_of(l), l.is_constant(), ints_of(r), r.is_constant(), n,
              [&](size_t i, int64_t a, int64_t b) { overflow |= f(a, b, &out[i]); });
  if (!overflow) return;
  if (nulls.empty()) throw_overflow();
  for (size_t i = 0; i < n; ++i) {
    int64_t t;
    if (!nulls[i] && f(ints_of(l)[l.at(i)], ints_of(r)[r.at(i)], &t)) throw_overflow();
  }
}

template <bool kMod>
int64_t divide_special(int64_t a, int64_t b, bool is_null) {
  if (is_null) return 0;
  if (b == 0) throw_division_by_zero();
  if (kMod) return 0;  // x % -1
  if (a == INT64_MIN) throw_overflow();
  return -a;
}

// Integer division truncating toward zero (C++ semantics, as in PostgreSQL); the remainder takes the dividend's sign.
template <bool kMod>
void int_divide(const Operand& l, const Operand& r, size_t n, const std::vector<uint8_t>& nulls, int64_t* out) {
  binary_loop(ints_of(l), l.is_constant(), ints_of(r), r.is_constant(), n, [&](size_t i, int64_t a, int64_t b) {
    if (b == 0 || b == -1) [[unlikely]] {
      out[i] = divide_special<kMod>(a, b, null_row(nulls, i));
    } else {
      out[i] = kMod ? a % b : a / b;
    }
  });
}

// DECIMAL division: (a / 10^ls) / (b / 10^rs) at result scale S, rounded half away from zero.
void decimal_divide(const Operand& l, const Operand& r, size_t n, const std::vector<uint8_t>& nulls, int64_t* out,
                    int ls, int rs, int s) {
  const int exp = s - ls + rs;
  const __int128 num_mul = exp >= 0 ? pow10_128(exp) : 1, den_mul = exp < 0 ? pow10_128(-exp) : 1;
  for (size_t i = 0; i < n; ++i) {
    out[i] = 0;
    if (null_row(nulls, i)) continue;
    int64_t a = ints_of(l)[l.at(i)], b = ints_of(r)[r.at(i)];
    if (b == 0) throw_division_by_zero();
    __int128 num;
    if (__builtin_mul_overflow(static_cast<__int128>(a), num_mul, &num)) throw_overflow();
    __int128 q = div_round(num, static_cast<__int128>(b) * den_mul);
    if (!fits_int64(q)) throw_overflow();
    out[i] = static_cast<int64_t>(q);
  }
}

// DECIMAL product whose result scale is not the sum of the operand scales: exact product, then rescale.
void decimal_multiply_rescaled(const Operand& l, const Operand& r, size_t n, const std::vector<uint8_t>& nulls,
                               int64_t* out, int shift) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = 0;
    if (null_row(nulls, i)) continue;
    __int128 p = static_cast<__int128>(ints_of(l)[l.at(i)]) * ints_of(r)[r.at(i)];
    if (shift > 0) {
      p = div_round(p, pow10_128(shift));
    } else if (__builtin_mul_overflow(p, pow10_128(-shift), &p)) {
      throw_overflow();
    }
    if (!fits_int64(p)) throw_overflow();
    out[i] = static_cast<int64_t>(p);
  }
}

void check_integer_range(const std::vector<int64_t>& v, const std::vector<uint8_t>& nulls) {
  for (size_t i = 0; i < v.size(); ++i)
    if ((v[i] < INT32_MIN || v[i] > INT32_MAX) && !null_row(nulls, i)) throw_overflow();
}

void int_unary(const Expr& e, const Operand& x, size_t n, const std::vector<uint8_t>& nulls, int64_t* out) {
  const int64_t* in = ints_of(x);
  bool overflow = false;
  for (size_t i = 0; i < n; ++i) {
    int64_t a = in[x.at(i)];
    bool flip = e.op == ScalarOp::Neg || a < 0;
    overflow |= flip ? __builtin_sub_overflow(int64_t{0}, a, &out[i]) : (out[i] = a, false);
  }
  if (overflow)
    for (size_t i = 0; i < n; ++i)
      if (in[x.at(i)] == INT64_MIN && !null_row(nulls, i)) throw_overflow();
}

ColumnVector int_arithmetic(const Expr& e, const std::vector<Operand>& args, size_t n) {
  ColumnVector out(e.type);
  out.nulls = union_nulls(args, n);
  out.ints.resize(n);
  int64_t* o = out.ints.data();
  if (e.op == ScalarOp::Neg || e.op == ScalarOp::Abs) {
    int_unary(e, args.at(0), n, out.nulls, o);
    if (e.type.id == TypeId::Integer) check_integer_range(out.ints, out.nulls);
    return out;
  }
  HS_ASSERT(args.size() == 2, "binary arithmetic with " + std::to_string(args.size()) + " operands");
  const int ls = scale_of(e.children[0]->type), rs = scale_of(e.children[1]->type), s = scale_of(e.type);
  const Operand* l = &args[0];
  const Operand* r = &args[1];
  Operand l_aligned, r_aligned;
  const bool aligned_op = e.op == ScalarOp::Add || e.op == ScalarOp::Sub || e.op == ScalarOp::Mod;
  if (aligned_op && ls != s) l = &(l_aligned = rescale_operand(args[0], ls, s, n));
  if (aligned_op && rs != s) r = &(r_aligned = rescale_operand(args[1], rs, s, n));
  auto add = [](int64_t a, int64_t b, int64_t* res) { return __builtin_add_overflow(a, b, res); };
  auto sub = [](int64_t a, int64_t b, int64_t* res) { return __builtin_sub_overflow(a, b, res); };
  auto mul = [](int64_t a, int64_t b, int64_t* res) { return __builtin_mul_overflow(a, b, res); };
  switch (e.op) {
    case ScalarOp::Add:
      int_checked(*l, *r, n, out.nulls, o, add);
      break;
    case ScalarOp::Sub:
      int_checked(*l, *r, n, out.nulls, o, sub);
      break;
    case ScalarOp::Mul:
      if (ls + rs == s) {
        int_checked(*l, *r, n, out.nulls, o, mul);
      } else {
        decimal_multiply_rescaled(*l, *r, n, out.nulls, o, ls + rs - s);
      }
      break;
    case ScalarOp::Div:
      if (ls == 0 && rs == 0 && s == 0) {
        int_divide<false>(*l, *r, n, out.nulls, o);
      } else {
        decimal_divide(*l, *r, n, out.nulls, o, ls, rs, s);
      }
      break;
    case ScalarOp::Mod:
      int_divide<true>(*l, *r, n, out.nulls, o);
      break;
    default:
      throw_internal(__FILE__, __LINE__, std::string("not arithmetic: ") + scalar_op_name(e.op));
  }
  if (e.type.id == TypeId::Integer) check_integer_range(out.ints, out.nulls);
  return out;
}

template <bool kMod>
void double_divide(const Operand& l, const Operand& r, size_t n, const std::vector<uint8_t>& nulls, double* out) {
  binary_loop(dbls_of(l), l.is_constant(), dbls_of(r), r.is_constant(), n, [&](size_t i, double a, double b) {
    if (b == 0.0) [[unlikely]] {
      if (!null_row(nulls, i)) throw_division_by_zero();
      out[i] = 0;
    } else {
      out[i] = kMod ? std::fmod(a, b) : a / b;
    }
  });
}

ColumnVector double_arithmetic(const Expr& e, const std::vector<Operand>& args, size_t n) {
  ColumnVector out(e.type);
  out.nulls = union_nulls(args, n);
  out.dbls.resize(n);
  double* o = out.dbls.data();
  if (e.op == ScalarOp::Neg || e.op == ScalarOp::Abs) {
    const Operand& x = args.at(0);
    const double* in = dbls_of(x);
    for (size_t i = 0; i < n; ++i) o[i] = e.op == ScalarOp::Neg ? -in[x.at(i)] : std::fabs(in[x.at(i)]);
    return out;
  }
  const Operand& l = args.at(0);
  const Operand& r = args.at(1);
  auto loop = [&](auto f) {
    binary_loop(dbls_of(l), l.is_constant(), dbls_of(r), r.is_constant(), n,
                [&](size_t i, double a, double b) { o[i] = f(a, b); });
  };
  switch (e.op) {
    case ScalarOp::Add:
      loop([](double a, double b) { return a + b; });
      break;
    case ScalarOp::Sub:
      loop([](double a, double b) { return a - b; });
      break;
    case ScalarOp::Mul:
      loop([](double a, double b) { return a * b; });
      break;
    case ScalarOp::Div:
      double_divide<false>(l, r, n, out.nulls, o);
      break;
    case ScalarOp::Mod:
      double_divide<true>(l, r, n, out.nulls, o);
      break;
    default:
      throw_internal(__FILE__, __LINE__, std::string("not arithmetic: ") + scalar_op_name(e.op));
  }
  return out;
}

// Operands as DOUBLE when the result is DOUBLE but an operand is int64-backed.
std::vector<Operand> as_double_operands(const Expr& e, const std::vector<Operand>& args, size_t n) {
  std::vector<Operand> conv;
  for (size_t k = 0; k < args.size(); ++k) {
    const DataType& t = e.children[k]->type;
    if (t.physical() == PhysicalKind::Double) {
      conv.push_back(args[k]);
      continue;
    }
    const size_t m = args[k].is_constant() ? 1 : n;
    ColumnVector c = eval_cast(t, DataType::float64(), args[k], m);
    conv.push_back(args[k].is_constant() ? Operand::constant(std::move(c)) : Operand::owned(std::move(c)));
  }
  return conv;
}

}  // namespace

ColumnVector eval_arithmetic(const Expr& e, const std::vector<Operand>& args, size_t n) {
  if (e.type.physical() == PhysicalKind::Double) {
    for (size_t k = 0; k < args.size(); ++k)
      if (e.children[k]->type.physical() != PhysicalKind::Double)
        return double_arithmetic(e, as_double_operands(e, args, n), n);
    return double_arithmetic(e, args, n);
  }
  HS_ASSERT(e.type.physical() == PhysicalKind::Int64, "arithmetic on " + e.type.to_string());
  for (size_t k = 0; k < args.size(); ++k)
    HS_ASSERT(
        e.children[k]->type.physical() == PhysicalKind::Int64,
        "arithmetic operand of type " + e.children[k]->type.to_string() + " for a " + e.type.to_string() + " result");
  return int_arithmetic(e, args, n);
}

namespace {

ColumnVector round_values(const DataType& in_type, const DataType& out_type, const std::vector<Operand>& args,
                          size_t n) {
  const Operand& x = args.at(0);
  auto digits_at = [&](size_t i) -> int64_t { return args.size() > 1 ? ints_of(args[1])[args[1].at(i)] : 0; };
  ColumnVector out(out_type);
  out.nulls = union_nulls(args, n);
  if (out_type.physical() == PhysicalKind::Double) {
    out.dbls.resize(n);
    for (size_t i = 0; i < n; ++i) {
      double v = dbls_of(x)[x.at(i)];
      double p = std::pow(10.0, static_cast<double>(std::clamp<int64_t>(digits_at(i), -330, 330)));
      double scaled = v * p;
      // Past double precision there is nothing left to round.
      out.dbls[i] = std::isfinite(scaled) && std::fabs(scaled) < 4.5e15 ? std::round(scaled) / p : v;
      if (p == 0.0) out.dbls[i] = 0.0;
    }
    return out;
  }
  HS_ASSERT(in_type.physical() == PhysicalKind::Int64 && out_type.physical() == PhysicalKind::Int64,
            "ROUND of " + in_type.to_string() + " to " + out_type.to_string());
  const int ls = scale_of(in_type), s = scale_of(out_type);
  out.ints.resize(n);
  for (size_t i = 0; i < n; ++i) {
    out.ints[i] = 0;
    if (null_row(out.nulls, i)) continue;
    int64_t v = ints_of(x)[x.at(i)];
    int64_t d = std::clamp<int64_t>(digits_at(i), -40, 40);
    if (d < ls) {
      // Round to d fraction digits (d < 0 rounds to tens, hundreds, ...), then express at the result scale.
      int64_t rounded = 0;
      if (ls - d <= 19) {
        rescale(v, ls, static_cast<int>(d), rounded);
      }
      if (!rescale(rounded, static_cast<int>(d), s, out.ints[i])) throw_overflow();
    } else if (!rescale(v, ls, s, out.ints[i])) {
      throw_overflow();
    }
  }
  if (out_type.id == TypeId::Integer) check_integer_range(out.ints, out.nulls);
  return out;
}

}  // namespace

ColumnVector eval_round(const Expr& e, const std::vector<Operand>& args, size_t n) {
  const DataType& in_type = e.children.at(0)->type;
  if (e.type.physical() == PhysicalKind::Double && in_type.physical() != PhysicalKind::Double) {
    std::vector<Operand> conv = args;
    ColumnVector c = eval_cast(in_type, DataType::float64(), args[0], args[0].is_constant() ? 1 : n);
    conv[0] = args[0].is_constant() ? Operand::constant(std::move(c)) : Operand::owned(std::move(c));
    return round_values(DataType::float64(), e.type, conv, n);
  }
  return round_values(in_type, e.type, args, n);
}

}  // namespace hindsight::eval
