#include "planner/storage/connector/sqlite_pushdown.hpp"

#include <cmath>
#include <cstdlib>

#include "planner/common/date.hpp"
#include "planner/common/text.hpp"

namespace hindsight {

namespace {

/// Largest |scaled| of a DECIMAL literal pushed as a REAL: 15 significant digits.
constexpr int64_t kMaxExactDecimal = 999'999'999'999'999;

struct ColumnTarget {
  std::string sql;  ///< quoted SQLite column name
  DataType type;    ///< declared type
};

std::optional<ColumnTarget> column_of(const Expr& e, const ScanLayout& layout, const SqliteTable& table) {
  if (e.kind != ExprKind::ColumnRef) return std::nullopt;
  int p = layout.position(e.column_id);
  if (p < 0) return std::nullopt;
  size_t col = static_cast<size_t>(layout.columns.at(static_cast<size_t>(p)));
  return ColumnTarget{quote_sqlite_identifier(table.sqlite_columns.at(col)), table.def.columns.at(col).type};
}

/// Text comparisons (VARCHAR, and DATE stored as text) use BINARY whatever the column's declared collation.
const char* collation(const DataType& t) {
  return t.id == TypeId::Varchar || t.id == TypeId::Date ? " COLLATE BINARY" : "";
}

/// The value bound for literal `v` compared with a column of type `col`; nullopt when the comparison in SQLite
/// could differ from the engine's.
std::optional<SqlParam> literal_param(const Expr& e, const DataType& col) {
  if (e.kind != ExprKind::Constant || e.value.is_null) return std::nullopt;
  const Value& v = e.value;
  switch (col.id) {
    case TypeId::Boolean:
      if (v.type.id != TypeId::Boolean) return std::nullopt;
      return SqlParam::integer(v.i ? 1 : 0);
    case TypeId::Integer:
    case TypeId::BigInt:
      if (!v.type.is_integral()) return std::nullopt;
      return SqlParam::integer(v.i);
    case TypeId::Double:
      if (v.type.id != TypeId::Double || !std::isfinite(v.d)) return std::nullopt;
      return SqlParam::real(v.d);
    case TypeId::Decimal:
      if (col.precision > 15 || v.type.id != TypeId::Decimal || v.type.scale != col.scale) return std::nullopt;
      if (v.i > kMaxExactDecimal || v.i < -kMaxExactDecimal) return std::nullopt;
      // |v.i| < 2^53 is exact as a double and 10^scale too: one correctly rounded division gives the double
      // nearest the decimal, the same double SQLite holds for that decimal written as REAL.
      return SqlParam::real(static_cast<double>(v.i) / static_cast<double>(pow10_i64(col.scale)));
    case TypeId::Date: {
      if (v.type.id != TypeId::Date) return std::nullopt;
      int64_t y;
      unsigned m, d;
      civil_from_days(v.i, y, m, d);
      if (y < 0 || y > 9999) return std::nullopt;
      return SqlParam::text(format_date(v.i));
    }
    case TypeId::Varchar:
      if (v.type.id != TypeId::Varchar || !is_valid_utf8(v.s)) return std::nullopt;
      return SqlParam::text(v.s);
    case TypeId::Null: return std::nullopt;
  }
  return std::nullopt;
}

const char* comparison_sql(ScalarOp op) {
  switch (op) {
    case ScalarOp::Eq: return "=";
    case ScalarOp::Ne: return "<>";
    case ScalarOp::Lt: return "<";
    case ScalarOp::Le: return "<=";
    case ScalarOp::Gt: return ">";
    case ScalarOp::Ge: return ">=";
    default: return nullptr;
  }
}

std::optional<SqliteTerm> translate(const Expr& e, const ScanLayout& layout, const SqliteTable& table) {
  switch (e.kind) {
    case ExprKind::Call: {
      if (!is_comparison_op(e.op) || e.children.size() != 2) return std::nullopt;
      ScalarOp op = e.op;
      const Expr* col_expr = e.children[0].get();
      const Expr* lit_expr = e.children[1].get();
      if (col_expr->kind != ExprKind::ColumnRef) {
        std::swap(col_expr, lit_expr);
        op = mirror_comparison(op);
      }
      auto col = column_of(*col_expr, layout, table);
      if (!col) return std::nullopt;
      auto param = literal_param(*lit_expr, col->type);
      if (!param) return std::nullopt;
      return SqliteTerm{col->sql + collation(col->type) + " " + comparison_sql(op) + " ?", {*param}};
    }
    case ExprKind::IsNull: {
      auto col = column_of(*e.children.at(0), layout, table);
      if (!col) return std::nullopt;
      return SqliteTerm{col->sql + (e.negated ? " IS NOT NULL" : " IS NULL"), {}};
    }
    case ExprKind::InList: {
      auto col = column_of(*e.children.at(0), layout, table);
      if (!col || e.children.size() < 2) return std::nullopt;
      SqliteTerm term{col->sql + collation(col->type) + (e.negated ? " NOT IN (" : " IN ("), {}};
      for (size_t i = 1; i < e.children.size(); ++i) {
        auto param = literal_param(*e.children[i], col->type);
        if (!param) return std::nullopt;
        term.sql += i > 1 ? ", ?" : "?";
        term.params.push_back(std::move(*param));
      }
      term.sql += ")";
      return term;
    }
    case ExprKind::Like: {
      auto col = column_of(*e.children.at(0), layout, table);
      if (!col || col->type.id != TypeId::Varchar) return std::nullopt;
      const Expr& pat = *e.children.at(1);
      if (pat.kind != ExprKind::Constant || pat.value.is_null || pat.value.type.id != TypeId::Varchar ||
          !is_valid_utf8(pat.value.s))
        return std::nullopt;
      return SqliteTerm{col->sql + (e.negated ? " NOT GLOB ?" : " GLOB ?"), {SqlParam::text(like_to_glob(pat.value.s))}};
    }
    case ExprKind::Not: {
      auto inner = translate(*e.children.at(0), layout, table);
      if (!inner) return std::nullopt;
      return SqliteTerm{"NOT (" + inner->sql + ")", std::move(inner->params)};
    }
    case ExprKind::And:
    case ExprKind::Or: {
      SqliteTerm term{"(", {}};
      for (size_t i = 0; i < e.children.size(); ++i) {
        auto part = translate(*e.children[i], layout, table);
        if (!part) return std::nullopt;
        if (i) term.sql += e.kind == ExprKind::And ? " AND " : " OR ";
        term.sql += part->sql;
        for (auto& p : part->params) term.params.push_back(std::move(p));
      }
      term.sql += ")";
      return term;
    }
    default: return std::nullopt;
  }
}

}  // namespace

std::string like_to_glob(const std::string& pattern) {
  std::string out;
  for (char c : pattern) {
    switch (c) {
      case '%': out += '*'; break;
      case '_': out += '?'; break;
      case '*': out += "[*]"; break;
      case '?': out += "[?]"; break;
      case '[': out += "[[]"; break;
      default: out += c;
    }
  }
  return out;
}

std::optional<SqliteTerm> translate_sqlite_conjunct(const Expr& e, const ScanLayout& layout, const SqliteTable& table) {
  return translate(e, layout, table);
}

}  // namespace hindsight
