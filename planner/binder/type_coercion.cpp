#include "planner/binder/type_coercion.hpp"

#include <algorithm>

#include "planner/common/date.hpp"
#include "planner/common/error.hpp"
#include "planner/expr/evaluator.hpp"

namespace hindsight {

namespace {
int numeric_rank(TypeId t) {
  switch (t) {
    case TypeId::Integer: return 1;
    case TypeId::BigInt: return 2;
    case TypeId::Decimal: return 3;
    case TypeId::Double: return 4;
    default: return 0;
  }
}

DataType as_decimal(DataType t) {
  if (t.id == TypeId::Decimal) return t;
  return DataType::decimal(t.id == TypeId::Integer ? 10 : 18, 0);
}

DataType merge_decimals(DataType a, DataType b) {
  a = as_decimal(a);
  b = as_decimal(b);
  int scale = std::max(a.scale, b.scale);
  int whole = std::max(a.precision - a.scale, b.precision - b.scale);
  int precision = std::min(18, whole + scale);
  if (precision < scale) precision = scale;
  return DataType::decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
}
}  // namespace

std::optional<DataType> common_type(DataType a, DataType b) {
  if (a == b) return a;
  if (a.id == TypeId::Null) return b;
  if (b.id == TypeId::Null) return a;
  if (a.is_numeric() && b.is_numeric()) {
    if (a.id == TypeId::Double || b.id == TypeId::Double) return DataType::float64();
    if (a.id == TypeId::Decimal || b.id == TypeId::Decimal) return merge_decimals(a, b);
    return numeric_rank(a.id) >= numeric_rank(b.id) ? a : b;
  }
  if ((a.id == TypeId::Date && b.id == TypeId::Varchar) || (a.id == TypeId::Varchar && b.id == TypeId::Date))
    return DataType::date();
  return std::nullopt;
}

ExprPtr coerce(ExprPtr e, DataType t) {
  if (e->type == t) return e;
  if (e->kind == ExprKind::Constant) {
    // Fold the conversion now so that literals keep being constants (and errors point at them).
    auto cast = Expr::cast(e->clone(), t);
    Value v = evaluate_constant(*cast);
    return Expr::constant(std::move(v));
  }
  return Expr::cast(std::move(e), t);
}

std::optional<DataType> arithmetic_type(ScalarOp op, DataType a, DataType b, DataType& lt, DataType& rt) {
  if (a.id == TypeId::Null) a = b.id == TypeId::Null ? DataType::integer() : b;
  if (b.id == TypeId::Null) b = a;
  if (!a.is_numeric() || !b.is_numeric()) return std::nullopt;
  switch (op) {
    case ScalarOp::Add:
    case ScalarOp::Sub: {
      auto c = *common_type(a, b);
      if (c.id == TypeId::Integer) c = DataType::bigint();  // avoid overflowing INTEGER sums
      lt = rt = c;
      return c;
    }
    case ScalarOp::Mul: {
      if (a.id == TypeId::Double || b.id == TypeId::Double) {
        lt = rt = DataType::float64();
        return DataType::float64();
      }
      if (a.is_integral() && b.is_integral()) {
        lt = rt = DataType::bigint();
        return DataType::bigint();
      }
      lt = as_decimal(a);
      rt = as_decimal(b);
      int scale = lt.scale + rt.scale;
      if (scale > 18) {
        lt = rt = DataType::float64();
        return DataType::float64();
      }
      return DataType::decimal(18, static_cast<uint8_t>(scale));
    }
    case ScalarOp::Div:
      if (a.is_integral() && b.is_integral()) {
        lt = rt = DataType::bigint();
        return DataType::bigint();
      }
      lt = rt = DataType::float64();
      return DataType::float64();
    case ScalarOp::Mod:
      if (a.is_integral() && b.is_integral()) {
        lt = rt = DataType::bigint();
        return DataType::bigint();
      }
      return std::nullopt;
    default: return std::nullopt;
  }
}

std::optional<DataType> aggregate_type(AggKind kind, DataType arg) {
  switch (kind) {
    case AggKind::CountStar:
    case AggKind::Count: return DataType::bigint();
    case AggKind::Sum:
      if (arg.is_integral() || arg.id == TypeId::Null) return DataType::bigint();
      if (arg.id == TypeId::Decimal) return DataType::decimal(18, arg.scale);
      if (arg.id == TypeId::Double) return DataType::float64();
      return std::nullopt;
    case AggKind::Avg:
      if (arg.is_numeric() || arg.id == TypeId::Null) return DataType::float64();
      return std::nullopt;
    case AggKind::Min:
    case AggKind::Max: return arg;
  }
  return std::nullopt;
}

}  // namespace hindsight
