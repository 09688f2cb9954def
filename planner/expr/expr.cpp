#include "planner/expr/expr.hpp"

#include <algorithm>
#include <cmath>

#include "planner/common/error.hpp"
#include "planner/common/stack_guard.hpp"

namespace hindsight {

const char* scalar_op_name(ScalarOp op) {
  switch (op) {
    case ScalarOp::Add:
      return "ADD";
    case ScalarOp::Sub:
      return "SUB";
    case ScalarOp::Mul:
      return "MUL";
    case ScalarOp::Div:
      return "DIV";
    case ScalarOp::Mod:
      return "MOD";
    case ScalarOp::Neg:
      return "NEG";
    case ScalarOp::Eq:
      return "EQ";
    case ScalarOp::Ne:
      return "NE";
    case ScalarOp::Lt:
      return "LT";
    case ScalarOp::Le:
      return "LE";
    case ScalarOp::Gt:
      return "GT";
    case ScalarOp::Ge:
      return "GE";
    case ScalarOp::Concat:
      return "CONCAT";
    case ScalarOp::Substring:
      return "SUBSTRING";
    case ScalarOp::ExtractYear:
      return "EXTRACT_YEAR";
    case ScalarOp::ExtractMonth:
      return "EXTRACT_MONTH";
    case ScalarOp::ExtractDay:
      return "EXTRACT_DAY";
    case ScalarOp::DateAddDays:
      return "DATE_ADD_DAYS";
    case ScalarOp::DateAddMonths:
      return "DATE_ADD_MONTHS";
    case ScalarOp::DateDiffDays:
      return "DATE_DIFF_DAYS";
    case ScalarOp::Coalesce:
      return "COALESCE";
    case ScalarOp::NullIf:
      return "NULLIF";
    case ScalarOp::Abs:
      return "ABS";
    case ScalarOp::Upper:
      return "UPPER";
    case ScalarOp::Lower:
      return "LOWER";
    case ScalarOp::Length:
      return "LENGTH";
    case ScalarOp::Round:
      return "ROUND";
  }
  return "?";
}

const char* agg_kind_name(AggKind k) {
  switch (k) {
    case AggKind::CountStar:
      // Printed as "COUNT(*)" by callers: the missing argument, not the name, tells it from COUNT(x).
      return "COUNT";
    case AggKind::Count:
      return "COUNT";
    case AggKind::Sum:
      return "SUM";
    case AggKind::Avg:
      return "AVG";
    case AggKind::Min:
      return "MIN";
    case AggKind::Max:
      return "MAX";
  }
  return "?";
}

ExprPtr Expr::column(ColumnId id, DataType t, int index) {
  auto e = make(ExprKind::ColumnRef, t, {});
  e->column_id = id;
  e->index = index;
  return e;
}

ExprPtr Expr::constant(Value v) {
  auto e = make(ExprKind::Constant, v.type, {});
  e->value = std::move(v);
  return e;
}

ExprPtr Expr::call(ScalarOp op, DataType t, std::vector<ExprPtr> args) {
  auto e = make(ExprKind::Call, t, std::move(args));
  e->op = op;
  return e;
}

ExprPtr Expr::cast(ExprPtr child, DataType t) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(child));
  return make(ExprKind::Cast, t, std::move(args));
}

ExprPtr Expr::make(ExprKind kind, DataType t, std::vector<ExprPtr> children) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->type = t;
  e->children = std::move(children);
  return e;
}

ExprPtr Expr::clone() const {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->type = type;
  e->children.reserve(children.size());
  for (auto& c : children) e->children.push_back(c->clone());
  e->column_id = column_id;
  e->index = index;
  e->value = value;
  e->op = op;
  e->negated = negated;
  e->has_else = has_else;
  e->loc = loc;
  return e;
}

bool Expr::equals(const Expr& o) const {
  if (kind != o.kind || type != o.type || children.size() != o.children.size()) return false;
  switch (kind) {
    case ExprKind::ColumnRef:
      if (column_id != o.column_id) return false;
      break;
    case ExprKind::Constant:
      // Value::operator== compares NULLs by type; a NULL never equals a non-NULL.
      if (!(value == o.value)) return false;
      break;
    case ExprKind::Call:
      if (op != o.op) return false;
      break;
    case ExprKind::Case:
      if (has_else != o.has_else) return false;
      break;
    case ExprKind::InList:
    case ExprKind::Like:
    case ExprKind::IsNull:
      if (negated != o.negated) return false;
      break;
    default:
      break;
  }
  for (size_t i = 0; i < children.size(); ++i)
    if (!children[i]->equals(*o.children[i])) return false;
  return true;
}

void Expr::collect_columns(std::vector<ColumnId>& out) const {
  if (kind == ExprKind::ColumnRef) {
    if (std::find(out.begin(), out.end(), column_id) == out.end()) out.push_back(column_id);
    return;
  }
  for (auto& c : children) c->collect_columns(out);
}

namespace {

// Binding strength used to print the minimum of parentheses; higher binds tighter.
enum Prec : int {
  kOr = 1,
  kAnd = 2,
  kNot = 3,
  kCompare = 4,
  kAdditive = 5,
  kMultiplicative = 6,
  kUnary = 7,
  kAtom = 8,
};

const char* infix_symbol(ScalarOp op) {
  switch (op) {
    case ScalarOp::Add:
      return "+";
    case ScalarOp::Sub:
      return "-";
    case ScalarOp::Mul:
      return "*";
    case ScalarOp::Div:
      return "/";
    case ScalarOp::Mod:
      return "%";
    case ScalarOp::Eq:
      return "=";
    case ScalarOp::Ne:
      return "<>";
    case ScalarOp::Lt:
      return "<";
    case ScalarOp::Le:
      return "<=";
    case ScalarOp::Gt:
      return ">";
    case ScalarOp::Ge:
      return ">=";
    case ScalarOp::Concat:
      return "||";
    default:
      return nullptr;
  }
}

int infix_prec(ScalarOp op) {
  switch (op) {
    case ScalarOp::Add:
    case ScalarOp::Sub:
    case ScalarOp::Concat:
      return kAdditive;
    case ScalarOp::Mul:
    case ScalarOp::Div:
    case ScalarOp::Mod:
      return kMultiplicative;
    default:
      return kCompare;
  }
}

int prec_of(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Constant: {
      // A negative number prints with a leading '-': treat it like unary minus so that "- -5" never becomes "--5".
      const Value& v = e.value;
      bool negative = !v.is_null && ((v.type.physical() == PhysicalKind::Int64 && v.type.id != TypeId::Date &&
                                      v.type.id != TypeId::Boolean && v.i < 0) ||
                                     (v.type.physical() == PhysicalKind::Double && std::signbit(v.d)));
      return negative ? kUnary : kAtom;
    }
    case ExprKind::Call:
      if (e.op == ScalarOp::Neg) return kUnary;
      if (infix_symbol(e.op) && e.children.size() >= 2) return infix_prec(e.op);
      return kAtom;
    case ExprKind::InList:
    case ExprKind::Like:
    case ExprKind::IsNull:
      return kCompare;
    case ExprKind::Not:
      return kNot;
    case ExprKind::And:
      return e.children.size() == 1 ? prec_of(*e.children[0]) : kAnd;
    case ExprKind::Or:
      return e.children.size() == 1 ? prec_of(*e.children[0]) : kOr;
    default:
      return kAtom;
  }
}

/// Appends to one string (no per-node temporaries, O(length) in total); a chain of left-associative operators is
/// printed by a loop, since its tree is as deep as the chain is long.
struct Printer {
  const std::function<std::string(ColumnId)>* name_of;
  std::string& out;

  // Prints `e`, parenthesized when it binds less tightly than `min_prec`.
  void sub(const Expr& e, int min_prec) {
    const bool paren = prec_of(e) < min_prec;
    if (paren) out += '(';
    print(e);
    if (paren) out += ')';
  }

  void join(const std::vector<ExprPtr>& xs, size_t from, const char* sep, int min_prec) {
    for (size_t i = from; i < xs.size(); ++i) {
      if (i > from) out += sep;
      sub(*xs[i], min_prec);
    }
  }

  void function(const char* prefix, const Expr& e) {
    out += prefix;
    out += '(';
    join(e.children, 0, ", ", 0);
    out += ')';
  }

  static bool is_infix(const Expr& e) {
    return e.kind == ExprKind::Call && infix_symbol(e.op) != nullptr && e.children.size() >= 2;
  }

  void infix_chain(const Expr& top) {
    // Left-associative: a left operand of at least our precedence needs no parentheses, so it is printed first,
    // walking down the spine; the other operands must bind tighter.
    std::vector<const Expr*> spine{&top};
    while (true) {
      const Expr& left = *spine.back()->children[0];
      if (!is_infix(left) || infix_prec(left.op) < infix_prec(spine.back()->op)) break;
      spine.push_back(&left);
    }
    sub(*spine.back()->children[0], infix_prec(spine.back()->op));
    for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
      const Expr& e = **it;
      const int p = infix_prec(e.op);
      for (size_t i = 1; i < e.children.size(); ++i) {
        out += ' ';
        out += infix_symbol(e.op);
        out += ' ';
        sub(*e.children[i], p + 1);
      }
    }
  }

  void call(const Expr& e) {
    const auto& c = e.children;
    if (e.op == ScalarOp::Neg && c.size() == 1) {
      out += '-';
      sub(*c[0], kUnary + 1);
      return;
    }
    if (is_infix(e)) return infix_chain(e);
    const char* field = e.op == ScalarOp::ExtractYear    ? "YEAR"
                        : e.op == ScalarOp::ExtractMonth ? "MONTH"
                        : e.op == ScalarOp::ExtractDay   ? "DAY"
                                                         : nullptr;
    if (!field) return function(scalar_op_name(e.op), e);
    out += "EXTRACT(";
    out += field;
    out += " FROM ";
    join(c, 0, ", ", 0);
    out += ')';
  }

  void print(const Expr& e) {
    const auto& c = e.children;
    if (!c.empty()) check_stack_depth("printing an expression");
    switch (e.kind) {
      case ExprKind::ColumnRef:
        out += name_of && *name_of ? (*name_of)(e.column_id) : "#" + std::to_string(e.column_id);
        return;
      case ExprKind::Constant:
        out += e.value.to_sql();
        return;
      case ExprKind::Call:
        return call(e);
      case ExprKind::Case: {
        out += "CASE";
        size_t pairs = (c.size() - (e.has_else ? 1 : 0)) / 2;
        for (size_t i = 0; i < pairs; ++i) {
          out += " WHEN ";
          print(*c[2 * i]);
          out += " THEN ";
          print(*c[2 * i + 1]);
        }
        if (e.has_else && !c.empty()) {
          out += " ELSE ";
          print(*c.back());
        }
        out += " END";
        return;
      }
      case ExprKind::Cast:
        out += "CAST(";
        if (c.empty())
          out += '?';
        else
          print(*c[0]);
        out += " AS " + e.type.to_string() + ")";
        return;
      case ExprKind::InList:
        if (c.empty()) return void(out += '?');
        sub(*c[0], kCompare + 1);
        out += e.negated ? " NOT IN (" : " IN (";
        join(c, 1, ", ", 0);
        out += ')';
        return;
      case ExprKind::Like:
        if (c.size() < 2) return void(out += '?');
        sub(*c[0], kCompare + 1);
        out += e.negated ? " NOT LIKE " : " LIKE ";
        sub(*c[1], kCompare + 1);
        return;
      case ExprKind::IsNull:
        if (c.empty()) return void(out += '?');
        sub(*c[0], kCompare + 1);
        out += e.negated ? " IS NOT NULL" : " IS NULL";
        return;
      case ExprKind::Not:
        out += "NOT ";
        if (c.empty())
          out += '?';
        else
          sub(*c[0], kNot);
        return;
      case ExprKind::And:
        if (c.empty()) return void(out += "TRUE");
        return join(c, 0, " AND ", kAnd);
      case ExprKind::Or:
        if (c.empty()) return void(out += "FALSE");
        return join(c, 0, " OR ", kOr);
    }
    out += '?';
  }
};

}  // namespace

std::string Expr::to_string(const std::function<std::string(ColumnId)>* name_of) const {
  std::string out;
  Printer{name_of, out}.print(*this);
  return out;
}

}  // namespace hindsight
