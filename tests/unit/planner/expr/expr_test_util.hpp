#pragma once
// Builders for expression and evaluator tests.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planner/common/date.hpp"
#include "planner/common/error.hpp"
#include "planner/expr/evaluator.hpp"
#include "planner/expr/expr.hpp"

namespace hindsight::expr_test {

/// A column reference resolved to position `index` (its ColumnId is the index too).
inline ExprPtr col(int index, DataType t) { return Expr::column(static_cast<ColumnId>(index), t, index); }
inline ExprPtr lit(Value v) { return Expr::constant(std::move(v)); }
inline ExprPtr big(int64_t x) { return lit(Value::bigint(x)); }
inline ExprPtr str(std::string s) { return lit(Value::varchar(std::move(s))); }
inline ExprPtr dbl(double x) { return lit(Value::float64(x)); }
inline ExprPtr dec(int64_t scaled, uint8_t scale) { return lit(Value::decimal(scaled, 18, scale)); }
inline ExprPtr null_of(DataType t) { return lit(Value::null(t)); }
inline ExprPtr boolean(bool b) { return lit(Value::boolean(b)); }
inline int64_t day(const char* text) {
  int64_t d = 0;
  parse_date(text, d);
  return d;
}
inline ExprPtr date(const char* text) { return lit(Value::date(day(text))); }

template <typename... A>
std::vector<ExprPtr> list(A&&... a) {
  std::vector<ExprPtr> v;
  (v.push_back(std::forward<A>(a)), ...);
  return v;
}
template <typename... A>
ExprPtr call(ScalarOp op, DataType t, A&&... a) {
  return Expr::call(op, t, list(std::forward<A>(a)...));
}
template <typename... A>
ExprPtr node(ExprKind k, DataType t, A&&... a) {
  return Expr::make(k, t, list(std::forward<A>(a)...));
}
template <typename... A>
ExprPtr cmp(ScalarOp op, A&&... a) {
  return call(op, DataType::boolean(), std::forward<A>(a)...);
}
template <typename... A>
ExprPtr conj(A&&... a) {
  return node(ExprKind::And, DataType::boolean(), std::forward<A>(a)...);
}
template <typename... A>
ExprPtr disj(A&&... a) {
  return node(ExprKind::Or, DataType::boolean(), std::forward<A>(a)...);
}

/// Int64-backed column (BIGINT, INTEGER, DECIMAL, DATE, BOOLEAN); nullopt is NULL.
inline ColumnVector ints(DataType t, const std::vector<std::optional<int64_t>>& v) {
  ColumnVector c(t);
  for (auto& x : v) x ? c.append_int(*x) : c.append_null();
  return c;
}
inline ColumnVector bigints(const std::vector<std::optional<int64_t>>& v) { return ints(DataType::bigint(), v); }
inline ColumnVector bools(const std::vector<std::optional<int64_t>>& v) { return ints(DataType::boolean(), v); }
inline ColumnVector doubles(const std::vector<std::optional<double>>& v) {
  ColumnVector c(DataType::float64());
  for (auto& x : v) x ? c.append_double(*x) : c.append_null();
  return c;
}
inline ColumnVector strings(const std::vector<std::optional<std::string>>& v) {
  ColumnVector c(DataType::varchar());
  for (auto& x : v) x ? c.append_string(*x) : c.append_null();
  return c;
}
inline Batch batch(std::vector<ColumnVector> cols) {
  Batch b;
  b.rows = cols.empty() ? 0 : cols[0].size();
  b.columns = std::move(cols);
  return b;
}

/// Each row as printed in results ("NULL" for NULL, "true"/"false" for BOOLEAN).
inline std::vector<std::string> texts(const ColumnVector& c) {
  std::vector<std::string> out;
  for (size_t i = 0; i < c.size(); ++i) out.push_back(c.get(i).to_string());
  return out;
}
inline std::vector<std::string> eval_texts(const Expr& e, const Batch& b) { return texts(evaluate(e, b)); }
using Texts = std::vector<std::string>;

/// The code of the Error thrown by f, or nullopt when it does not throw.
template <typename F>
std::optional<ErrorCode> error_code_of(F&& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (message) *message = e.message();
    return e.code();
  }
  return std::nullopt;
}

}  // namespace hindsight::expr_test
