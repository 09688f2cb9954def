#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <string_view>

#include "planner/binder/binder.hpp"
#include "planner/binder/type_coercion.hpp"
#include "planner/common/date.hpp"
#include "planner/common/error.hpp"
#include "planner/common/stack_guard.hpp"
#include "planner/common/text.hpp"
#include "planner/expr/evaluator.hpp"

namespace hindsight {

namespace {
bool is_bool(const Expr& e) { return e.type.id == TypeId::Boolean || e.type.id == TypeId::Null; }

ScalarOp comparison_op(sql::BinaryOp op) {
  switch (op) {
    case sql::BinaryOp::Eq: return ScalarOp::Eq;
    case sql::BinaryOp::Ne: return ScalarOp::Ne;
    case sql::BinaryOp::Lt: return ScalarOp::Lt;
    case sql::BinaryOp::Le: return ScalarOp::Le;
    case sql::BinaryOp::Gt: return ScalarOp::Gt;
    default: return ScalarOp::Ge;
  }
}
}  // namespace

ExprPtr Binder::bind_column(const sql::ColumnRefExpr& c, ExprContext& ec) {
  const ScopeColumn* hit = nullptr;
  bool qualifier_seen = false;
  for (const Scope* s = ec.scope; s; s = s->outer) {
    for (auto& col : s->columns) {
      if (!c.qualifier.empty()) {
        if (col.qualifier != c.qualifier) continue;
        qualifier_seen = true;
      }
      if (col.name != c.name) continue;
      if (hit && hit->id != col.id)
        fail(ErrorCode::BIND_ERROR, c, fmt::format("column reference '{}' is ambiguous", printable(c.name)));
      hit = &col;
    }
    if (hit) {
      if (s == ec.scope && ec.on_column) ec.on_column(c, *hit);
      return Expr::column(hit->id, hit->type);
    }
  }
  if (!c.qualifier.empty() && !qualifier_seen)
    fail(ErrorCode::BIND_ERROR, c, fmt::format("missing FROM-clause entry for table '{}'", printable(c.qualifier)));
  fail(ErrorCode::BIND_ERROR, c,
       fmt::format("column '{}' does not exist", printable(c.qualifier.empty() ? c.name : c.qualifier + "." + c.name)));
}

ExprPtr Binder::bind_comparison(ScalarOp op, ExprPtr l, ExprPtr r, const sql::AstNode& at) {
  DataType t = unify(l->type, r->type, at, fmt::format("comparison '{}'", scalar_op_name(op)));
  try {
    l = coerce(std::move(l), t);
    r = coerce(std::move(r), t);
  } catch (const Error& e) {
    fail(e.code(), at, e.message());
  }
  std::vector<ExprPtr> args;
  args.push_back(std::move(l));
  args.push_back(std::move(r));
  return Expr::call(op, DataType::boolean(), std::move(args));
}

ExprPtr Binder::bind_binary(const sql::BinaryExpr& b, ExprContext& ec) {
  // A left-deep chain (a + b + c ..., a OR b OR c ...) is as deep as it is long: walk down its left spine and
  // bind it bottom-up in a loop, so binding recurses only into right operands (kMaxChainedOperators allows
  // chains far longer than the nesting the stack could take).
  std::vector<const sql::BinaryExpr*> spine{&b};
  ExprPtr left;
  while (true) {
    const sql::Expr& next = *spine.back()->left;
    if (ec.intercept && (left = ec.intercept(next))) break;  // a GROUP BY expression or an aggregate
    if (!next.is<sql::BinaryExpr>()) break;
    spine.push_back(&next.as<sql::BinaryExpr>());
  }
  const sql::Expr& leaf = *spine.back()->left;
  if (!left && !leaf.is<sql::IntervalLiteral>()) left = bind_expr(leaf, ec);  // an interval is bound with its date
  if (left && !left->loc.valid()) left->loc = {leaf.span.line, leaf.span.col};
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    left = bind_binary_on(**it, std::move(left), ec);
    if (!left->loc.valid()) left->loc = {(*it)->span.line, (*it)->span.col};
  }
  return left;
}

ExprPtr Binder::bind_binary_on(const sql::BinaryExpr& b, ExprPtr l, ExprContext& ec) {
  using Op = sql::BinaryOp;
  const bool logical_or_comparison = b.op == Op::And || b.op == Op::Or || (b.op >= Op::Eq && b.op <= Op::Ge);
  if (!l && logical_or_comparison) l = bind_expr(*b.left, ec);  // an INTERVAL here: NOT_SUPPORTED
  if (b.op == Op::And || b.op == Op::Or) {
    ExprPtr r = bind_expr(*b.right, ec);
    if (!is_bool(*l)) fail(ErrorCode::TYPE_ERROR, *b.left, fmt::format("argument of {} must be BOOLEAN, not {}", binary_op_sql(b.op), l->type.to_string()));
    if (!is_bool(*r)) fail(ErrorCode::TYPE_ERROR, *b.right, fmt::format("argument of {} must be BOOLEAN, not {}", binary_op_sql(b.op), r->type.to_string()));
    ExprKind k = b.op == Op::And ? ExprKind::And : ExprKind::Or;
    // Flattened into one n-ary node; a left operand of the same kind gives up its children vector, so a chain
    // of n terms costs O(n), not O(n^2).
    std::vector<ExprPtr> kids;
    if (l->kind == k)
      kids = std::move(l->children);
    else
      kids.push_back(coerce(std::move(l), DataType::boolean()));
    if (r->kind == k)
      for (auto& c : r->children) kids.push_back(std::move(c));
    else
      kids.push_back(coerce(std::move(r), DataType::boolean()));
    return Expr::make(k, DataType::boolean(), std::move(kids));
  }
  if (b.op >= Op::Eq && b.op <= Op::Ge) {
    ExprPtr r = bind_expr(*b.right, ec);
    return bind_comparison(comparison_op(b.op), std::move(l), std::move(r), b);
  }

  // Date arithmetic with intervals.
  const bool left_interval = b.left->is<sql::IntervalLiteral>(), right_interval = b.right->is<sql::IntervalLiteral>();
  if (left_interval || right_interval) {
    if (left_interval && (right_interval || b.op != Op::Add))
      fail(ErrorCode::TYPE_ERROR, b, "an INTERVAL can only be added to or subtracted from a DATE");
    if (b.op != Op::Add && b.op != Op::Sub)
      fail(ErrorCode::TYPE_ERROR, b, "an INTERVAL can only be added to or subtracted from a DATE");
    const auto& iv = (left_interval ? *b.left : *b.right).as<sql::IntervalLiteral>();
    ExprPtr d = left_interval ? bind_expr(*b.right, ec) : std::move(l);
    if (d->type.id == TypeId::Varchar && d->is_constant()) d = coerce(std::move(d), DataType::date());
    if (d->type.id != TypeId::Date && d->type.id != TypeId::Null)
      fail(ErrorCode::TYPE_ERROR, b, "an INTERVAL can only be added to or subtracted from a DATE, not " + d->type.to_string());
    int64_t n = 0;
    std::string_view digits = iv.value;
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec == std::errc::result_out_of_range)
      fail(ErrorCode::DATA_ERROR, iv, "date out of range (DATE values lie between 0001-01-01 and 9999-12-31)");
    if (ec != std::errc() || end != digits.data() + digits.size())
      fail(ErrorCode::TYPE_ERROR, iv, fmt::format("invalid interval quantity '{}'", printable(iv.value)));
    // Checked: a quantity this large can only leave the DATE range, which is what the error says.
    if ((b.op == Op::Sub && __builtin_sub_overflow(int64_t{0}, n, &n)) ||
        (iv.unit == sql::IntervalUnit::Year && __builtin_mul_overflow(n, int64_t{12}, &n)))
      fail(ErrorCode::DATA_ERROR, iv, "date out of range (DATE values lie between 0001-01-01 and 9999-12-31)");
    const ScalarOp op = iv.unit == sql::IntervalUnit::Day ? ScalarOp::DateAddDays : ScalarOp::DateAddMonths;
    std::vector<ExprPtr> args;
    args.push_back(std::move(d));
    args.push_back(Expr::constant(Value::integer(n)));
    return Expr::call(op, DataType::date(), std::move(args));
  }

  ExprPtr r = bind_expr(*b.right, ec);
  if (b.op == Op::Concat) {
    std::vector<ExprPtr> args;
    args.push_back(coerce(std::move(l), DataType::varchar()));
    args.push_back(coerce(std::move(r), DataType::varchar()));
    return Expr::call(ScalarOp::Concat, DataType::varchar(), std::move(args));
  }
  ScalarOp op = b.op == Op::Add ? ScalarOp::Add : b.op == Op::Sub ? ScalarOp::Sub : b.op == Op::Mul ? ScalarOp::Mul
              : b.op == Op::Div ? ScalarOp::Div : ScalarOp::Mod;
  // DATE +/- integer days, DATE - DATE.
  if (l->type.id == TypeId::Date && (op == ScalarOp::Add || op == ScalarOp::Sub) && r->type.is_integral()) {
    if (op == ScalarOp::Sub) {
      std::vector<ExprPtr> neg;
      neg.push_back(coerce(std::move(r), DataType::bigint()));
      r = Expr::call(ScalarOp::Neg, DataType::bigint(), std::move(neg));
    }
    std::vector<ExprPtr> args;
    args.push_back(std::move(l));
    args.push_back(std::move(r));
    return Expr::call(ScalarOp::DateAddDays, DataType::date(), std::move(args));
  }
  if (l->type.id == TypeId::Date && r->type.id == TypeId::Date && op == ScalarOp::Sub) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(l));
    args.push_back(std::move(r));
    return Expr::call(ScalarOp::DateDiffDays, DataType::integer(), std::move(args));
  }
  DataType lt, rt;
  auto t = arithmetic_type(op, l->type, r->type, lt, rt);
  if (!t)
    fail(ErrorCode::TYPE_ERROR, b,
         fmt::format("operator {} is not defined for {} and {}", binary_op_sql(b.op), l->type.to_string(), r->type.to_string()));
  std::vector<ExprPtr> args;
  try {
    args.push_back(coerce(std::move(l), lt));
    args.push_back(coerce(std::move(r), rt));
  } catch (const Error& e) {
    fail(e.code(), b, e.message());
  }
  return Expr::call(op, *t, std::move(args));
}

ExprPtr Binder::bind_expr(const sql::Expr& e, ExprContext& ec) {
  check_stack_depth("binding");
  ExprPtr out = bind_expr_node(e, ec);
  // The nearest written expression is where a runtime error of this node (or of a cast inserted here) is reported.
  if (!out->loc.valid()) out->loc = {e.span.line, e.span.col};
  return out;
}

ExprPtr Binder::bind_expr_node(const sql::Expr& e, ExprContext& ec) {
  if (ec.intercept)
    if (ExprPtr hit = ec.intercept(e)) return hit;
  using T = sql::ExprType;
  switch (e.type) {
    case T::ColumnRef: return bind_column(e.as<sql::ColumnRefExpr>(), ec);
    case T::IntegerLiteral: {
      int64_t v = e.as<sql::IntegerLiteral>().value;
      const bool fits_integer = v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
      return Expr::constant(fits_integer ? Value::integer(v) : Value::bigint(v));
    }
    case T::DecimalLiteral: {
      const auto& d = e.as<sql::DecimalLiteral>();
      auto dot = d.text.find('.');
      int scale = dot == std::string::npos ? 0 : static_cast<int>(d.text.size() - dot - 1);
      int digits = 0;
      for (char ch : d.text) digits += ch >= '0' && ch <= '9';
      int64_t scaled;
      if (digits > 18 || scale > 12 || !parse_decimal(d.text, scale, scaled)) return Expr::constant(Value::float64(d.value));
      int precision = std::max(digits, scale + 1);
      return Expr::constant(Value::decimal(scaled, static_cast<uint8_t>(std::min(precision, 18)), static_cast<uint8_t>(scale)));
    }
    case T::DoubleLiteral: return Expr::constant(Value::float64(e.as<sql::DoubleLiteral>().value));
    case T::StringLiteral: return Expr::constant(Value::varchar(e.as<sql::StringLiteral>().value));
    case T::DateLiteral: {
      int64_t days;
      if (!parse_date(e.as<sql::DateLiteral>().text, days))
        fail(ErrorCode::TYPE_ERROR, e, fmt::format("invalid DATE literal '{}' (expected YYYY-MM-DD, from 0001-01-01 to 9999-12-31)", printable(e.as<sql::DateLiteral>().text)));
      return Expr::constant(Value::date(days));
    }
    case T::IntervalLiteral: fail(ErrorCode::NOT_SUPPORTED, e, "INTERVAL values outside DATE arithmetic");
    case T::NullLiteral: return Expr::constant(Value::null());
    case T::BoolLiteral: return Expr::constant(Value::boolean(e.as<sql::BoolLiteral>().value));
    case T::Unary: {
      const auto& u = e.as<sql::UnaryExpr>();
      ExprPtr x = bind_expr(*u.operand, ec);
      if (u.op == sql::UnaryOp::Not) {
        if (!is_bool(*x)) fail(ErrorCode::TYPE_ERROR, u, "argument of NOT must be BOOLEAN, not " + x->type.to_string());
        std::vector<ExprPtr> k;
        k.push_back(coerce(std::move(x), DataType::boolean()));
        return Expr::make(ExprKind::Not, DataType::boolean(), std::move(k));
      }
      if (!x->type.is_numeric() && x->type.id != TypeId::Null)
        fail(ErrorCode::TYPE_ERROR, u, "unary minus/plus needs a number, not " + x->type.to_string());
      if (u.op == sql::UnaryOp::Plus) return x;
      if (x->is_constant() && !x->value.is_null) {
        Value v = x->value;
        if (v.type.id == TypeId::Double) {
          v.d = -v.d;
        } else {
          if (v.i == std::numeric_limits<int64_t>::min())
            fail(ErrorCode::DATA_ERROR, u, "numeric overflow: the negation does not fit BIGINT");
          v.i = -v.i;
          if (v.type.id == TypeId::Integer && v.i > std::numeric_limits<int32_t>::max()) v.type = DataType::bigint();
        }
        return Expr::constant(v);
      }
      DataType t = x->type.id == TypeId::Integer ? DataType::bigint() : x->type;
      std::vector<ExprPtr> k;
      k.push_back(coerce(std::move(x), t));
      return Expr::call(ScalarOp::Neg, t, std::move(k));
    }
    case T::Binary: return bind_binary(e.as<sql::BinaryExpr>(), ec);
    case T::Between: {
      const auto& b = e.as<sql::BetweenExpr>();
      ExprPtr x = bind_expr(*b.operand, ec);
      ExprPtr lo = bind_expr(*b.low, ec), hi = bind_expr(*b.high, ec);
      std::vector<ExprPtr> kids;
      kids.push_back(bind_comparison(ScalarOp::Ge, x->clone(), std::move(lo), b));
      kids.push_back(bind_comparison(ScalarOp::Le, std::move(x), std::move(hi), b));
      ExprPtr both = Expr::make(ExprKind::And, DataType::boolean(), std::move(kids));
      if (!b.negated) return both;
      std::vector<ExprPtr> k;
      k.push_back(std::move(both));
      return Expr::make(ExprKind::Not, DataType::boolean(), std::move(k));
    }
    case T::InList: {
      const auto& in = e.as<sql::InListExpr>();
      std::vector<ExprPtr> kids;
      kids.push_back(bind_expr(*in.operand, ec));
      DataType t = kids[0]->type;
      for (auto& item : in.list) {
        kids.push_back(bind_expr(*item, ec));
        t = unify(t, kids.back()->type, *item, "IN list");
      }
      try {
        for (auto& k : kids) k = coerce(std::move(k), t);
      } catch (const Error& err) {
        fail(err.code(), in, err.message());
      }
      ExprPtr out = Expr::make(ExprKind::InList, DataType::boolean(), std::move(kids));
      out->negated = in.negated;
      return out;
    }
    case T::Like: {
      const auto& l = e.as<sql::LikeExpr>();
      ExprPtr x = bind_expr(*l.operand, ec), p = bind_expr(*l.pattern, ec);
      for (auto* side : {&x, &p})
        if ((*side)->type.id != TypeId::Varchar && (*side)->type.id != TypeId::Null)
          fail(ErrorCode::TYPE_ERROR, l, "LIKE needs VARCHAR operands, not " + (*side)->type.to_string());
      std::vector<ExprPtr> kids;
      kids.push_back(coerce(std::move(x), DataType::varchar()));
      kids.push_back(coerce(std::move(p), DataType::varchar()));
      ExprPtr out = Expr::make(ExprKind::Like, DataType::boolean(), std::move(kids));
      out->negated = l.negated;
      return out;
    }
    case T::IsNull: {
      const auto& n = e.as<sql::IsNullExpr>();
      std::vector<ExprPtr> kids;
      kids.push_back(bind_expr(*n.operand, ec));
      ExprPtr out = Expr::make(ExprKind::IsNull, DataType::boolean(), std::move(kids));
      out->negated = n.negated;
      return out;
    }
    case T::Case: {
      const auto& c = e.as<sql::CaseExpr>();
      std::vector<ExprPtr> conds, results;
      ExprPtr operand = c.operand ? bind_expr(*c.operand, ec) : nullptr;
      DataType t = DataType::null();
      for (auto& w : c.whens) {
        ExprPtr cond = bind_expr(*w->when, ec);
        if (operand) cond = bind_comparison(ScalarOp::Eq, operand->clone(), std::move(cond), *w);
        else if (!is_bool(*cond)) fail(ErrorCode::TYPE_ERROR, *w->when, "CASE WHEN condition must be BOOLEAN, not " + cond->type.to_string());
        conds.push_back(coerce(std::move(cond), DataType::boolean()));
        results.push_back(bind_expr(*w->then, ec));
        t = unify(t, results.back()->type, *w->then, "CASE branches");
      }
      ExprPtr else_e = c.else_expr ? bind_expr(*c.else_expr, ec) : nullptr;
      if (else_e) t = unify(t, else_e->type, *c.else_expr, "CASE branches");
      std::vector<ExprPtr> kids;
      try {
        for (size_t i = 0; i < conds.size(); ++i) {
          kids.push_back(std::move(conds[i]));
          kids.push_back(coerce(std::move(results[i]), t));
        }
        if (else_e) kids.push_back(coerce(std::move(else_e), t));
      } catch (const Error& err) {
        fail(err.code(), c, err.message());
      }
      ExprPtr out = Expr::make(ExprKind::Case, t, std::move(kids));
      out->has_else = c.else_expr != nullptr;
      return out;
    }
    case T::Cast: {
      const auto& c = e.as<sql::CastExpr>();
      DataType t;
      if (!parse_type_name(c.type_name, t)) fail(ErrorCode::TYPE_ERROR, c, fmt::format("unknown type '{}'", printable(c.type_name)));
      ExprPtr x = bind_expr(*c.operand, ec);
      try {
        return coerce(std::move(x), t);
      } catch (const Error& err) {
        fail(err.code(), c, err.message());
      }
    }
    case T::FunctionCall: return bind_function(e.as<sql::FunctionCallExpr>(), ec);
    case T::Extract: {
      const auto& x = e.as<sql::ExtractExpr>();
      ExprPtr d = bind_expr(*x.operand, ec);
      if (d->type.id == TypeId::Varchar && d->is_constant()) d = coerce(std::move(d), DataType::date());
      if (d->type.id != TypeId::Date && d->type.id != TypeId::Null)
        fail(ErrorCode::TYPE_ERROR, x, "EXTRACT needs a DATE, not " + d->type.to_string());
      ScalarOp op = x.field == sql::ExtractField::Year ? ScalarOp::ExtractYear
                  : x.field == sql::ExtractField::Month ? ScalarOp::ExtractMonth : ScalarOp::ExtractDay;
      std::vector<ExprPtr> k;
      k.push_back(coerce(std::move(d), DataType::date()));
      return Expr::call(op, DataType::integer(), std::move(k));
    }
    case T::Subquery: return bind_scalar_subquery(e.as<sql::SubqueryExpr>(), ec);
    case T::Exists:
    case T::InSubquery:
      fail(ErrorCode::NOT_SUPPORTED, e,
           fmt::format("EXISTS / IN (subquery) only as a top-level AND term of WHERE, not in the {}", ec.clause));
  }
  fail(ErrorCode::INTERNAL, e, "unknown expression");
}

ExprPtr Binder::bind_function(const sql::FunctionCallExpr& f, ExprContext& ec) {
  const std::string& n = f.name;
  if (n == "count" || n == "sum" || n == "avg" || n == "min" || n == "max")
    fail(ErrorCode::BIND_ERROR, f, fmt::format("aggregate functions are not allowed in {}", ec.clause));
  if (f.distinct || f.star) fail(ErrorCode::BIND_ERROR, f, fmt::format("{}() is not an aggregate function", printable(n)));
  std::vector<ExprPtr> args;
  for (auto& a : f.args) args.push_back(bind_expr(*a, ec));
  auto arity = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi)
      fail(ErrorCode::BIND_ERROR, f, fmt::format("{}() takes {} argument(s), got {}", n, lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi), args.size()));
  };
  auto need = [&](size_t i, bool ok, const char* what) {
    if (!ok && args[i]->type.id != TypeId::Null)
      fail(ErrorCode::TYPE_ERROR, *f.args[i], fmt::format("argument {} of {}() must be {}, not {}", i + 1, n, what, args[i]->type.to_string()));
  };
  try {
    if (n == "coalesce" || n == "nullif") {
      if (n == "coalesce") arity(1, 64);
      else arity(2, 2);
      DataType t = DataType::null();
      for (size_t i = 0; i < args.size(); ++i) t = unify(t, args[i]->type, *f.args[i], n);
      for (auto& a : args) a = coerce(std::move(a), t);
      return Expr::call(n == "coalesce" ? ScalarOp::Coalesce : ScalarOp::NullIf, t, std::move(args));
    }
    if (n == "substring" || n == "substr") {
      arity(2, 3);
      need(0, args[0]->type.id == TypeId::Varchar, "VARCHAR");
      for (size_t i = 1; i < args.size(); ++i) need(i, args[i]->type.is_integral(), "an integer");
      args[0] = coerce(std::move(args[0]), DataType::varchar());
      for (size_t i = 1; i < args.size(); ++i) args[i] = coerce(std::move(args[i]), DataType::bigint());
      return Expr::call(ScalarOp::Substring, DataType::varchar(), std::move(args));
    }
    if (n == "upper" || n == "lower" || n == "length" || n == "char_length") {
      arity(1, 1);
      need(0, args[0]->type.id == TypeId::Varchar, "VARCHAR");
      args[0] = coerce(std::move(args[0]), DataType::varchar());
      if (n == "upper") return Expr::call(ScalarOp::Upper, DataType::varchar(), std::move(args));
      if (n == "lower") return Expr::call(ScalarOp::Lower, DataType::varchar(), std::move(args));
      return Expr::call(ScalarOp::Length, DataType::bigint(), std::move(args));
    }
    if (n == "abs") {
      arity(1, 1);
      need(0, args[0]->type.is_numeric(), "a number");
      DataType t = args[0]->type.id == TypeId::Null ? DataType::integer() : args[0]->type;
      args[0] = coerce(std::move(args[0]), t);
      return Expr::call(ScalarOp::Abs, t, std::move(args));
    }
    if (n == "round") {
      arity(1, 2);
      need(0, args[0]->type.is_numeric(), "a number");
      if (args.size() == 2) {
        need(1, args[1]->type.is_integral() && args[1]->is_constant(), "an integer constant");
        args[1] = coerce(std::move(args[1]), DataType::bigint());
      }
      DataType t = args[0]->type;
      if (t.is_integral()) return std::move(args[0]);
      if (t.id == TypeId::Decimal) {
        int64_t digits = args.size() == 2 && !args[1]->value.is_null ? args[1]->value.i : 0;
        digits = std::clamp<int64_t>(digits, 0, t.scale);
        return coerce(std::move(args[0]), DataType::decimal(t.precision, static_cast<uint8_t>(digits)));
      }
      return Expr::call(ScalarOp::Round, DataType::float64(), std::move(args));
    }
  } catch (const Error& err) {
    if (err.pos().valid()) throw;
    fail(err.code(), f, err.message());
  }
  fail(ErrorCode::BIND_ERROR, f, fmt::format("function {}() does not exist", printable(n)));
}

}  // namespace hindsight
