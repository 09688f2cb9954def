// to_string() for AST nodes: normalised SQL that parses back to the same tree.
#include <fmt/format.h>

#include <vector>

#include "planner/common/stack_guard.hpp"
#include "planner/sql/ast.hpp"
#include "planner/sql/lexer.hpp"

namespace hindsight::sql {

namespace {

// Precedence levels, loosest first; they mirror the parser's levels.
constexpr int kOr = 1, kAnd = 2, kNot = 3, kComparison = 4, kConcat = 5, kAdditive = 6, kMultiplicative = 7,
              kUnary = 8, kPrimary = 9;

int precedence(const Expr& e) {
  switch (e.type) {
    case ExprType::Binary:
      switch (e.as<BinaryExpr>().op) {
        case BinaryOp::Or: return kOr;
        case BinaryOp::And: return kAnd;
        case BinaryOp::Concat: return kConcat;
        case BinaryOp::Add:
        case BinaryOp::Sub: return kAdditive;
        case BinaryOp::Mul:
        case BinaryOp::Div:
        case BinaryOp::Mod: return kMultiplicative;
        default: return kComparison;
      }
    case ExprType::Unary: return e.as<UnaryExpr>().op == UnaryOp::Not ? kNot : kUnary;
    case ExprType::Exists: return e.as<ExistsExpr>().negated ? kNot : kPrimary;
    case ExprType::Between:
    case ExprType::InList:
    case ExprType::InSubquery:
    case ExprType::Like:
    case ExprType::IsNull: return kComparison;
    default: return kPrimary;
  }
}

std::string quote_string(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string ident(const std::string& name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9') && name[0] != '$' && !is_reserved_keyword(name);
  for (char ch : name) {
    auto c = static_cast<unsigned char>(ch);
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80)) plain = false;
  }
  if (plain) return name;
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string ident_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + ident(names[i]);
  return out;
}

class SqlPrinter {
 public:
  std::string out;

  void expr(const Expr& e, int min_precedence = 0) {
    bool parens = precedence(e) < min_precedence;
    if (parens) out += '(';
    expr_body(e);
    if (parens) out += ')';
  }

  void query(const Query& q) {
    if (!q.with.empty()) {
      out += "WITH ";
      for (size_t i = 0; i < q.with.size(); ++i) {
        const CommonTableExpr& cte = *q.with[i];
        if (i) out += ", ";
        out += ident(cte.name);
        if (!cte.column_aliases.empty()) out += " (" + ident_list(cte.column_aliases) + ")";
        out += " AS (";
        query(*cte.query);
        out += ")";
      }
      out += " ";
    }
    body(*q.body);
    if (!q.order_by.empty()) {
      out += " ORDER BY ";
      for (size_t i = 0; i < q.order_by.size(); ++i) {
        const OrderByItem& item = *q.order_by[i];
        if (i) out += ", ";
        expr(*item.expr);
        if (item.descending) out += " DESC";
        if (item.nulls == NullsOrder::First) out += " NULLS FIRST";
        if (item.nulls == NullsOrder::Last) out += " NULLS LAST";
      }
    }
    if (q.limit) out += fmt::format(" LIMIT {}", *q.limit);
    if (q.offset) out += fmt::format(" OFFSET {}", *q.offset);
  }

 private:
  void exprs(const std::vector<ExprPtr>& list) {
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) out += ", ";
      expr(*list[i]);
    }
  }

  void subquery(const Query& q) {
    out += '(';
    query(q);
    out += ')';
  }

  void expr_body(const Expr& e) {
    check_stack_depth("printing an expression");
    switch (e.type) {
      case ExprType::ColumnRef: {
        const auto& c = e.as<ColumnRefExpr>();
        if (!c.qualifier.empty()) out += ident(c.qualifier) + ".";
        out += ident(c.name);
        return;
      }
      case ExprType::IntegerLiteral: out += std::to_string(e.as<IntegerLiteral>().value); return;
      case ExprType::DecimalLiteral: out += e.as<DecimalLiteral>().text; return;
      case ExprType::DoubleLiteral: out += e.as<DoubleLiteral>().text; return;
      case ExprType::StringLiteral: out += quote_string(e.as<StringLiteral>().value); return;
      case ExprType::DateLiteral: out += "DATE " + quote_string(e.as<DateLiteral>().text); return;
      case ExprType::IntervalLiteral: {
        const auto& iv = e.as<IntervalLiteral>();
        out += fmt::format("INTERVAL {} {}", quote_string(iv.value), interval_unit_name(iv.unit));
        return;
      }
      case ExprType::NullLiteral: out += "NULL"; return;
      case ExprType::BoolLiteral: out += e.as<BoolLiteral>().value ? "TRUE" : "FALSE"; return;
      case ExprType::Unary: {
        const auto& u = e.as<UnaryExpr>();
        if (u.op == UnaryOp::Not) {
          out += "NOT ";
          // NOT (EXISTS ...) stays two nodes; without parentheses it would parse back as NOT EXISTS.
          bool exists = u.operand->is<ExistsExpr>() && !u.operand->as<ExistsExpr>().negated;
          expr(*u.operand, exists ? kPrimary + 1 : kNot);
          return;
        }
        out += u.op == UnaryOp::Minus ? "-" : "+";
        size_t at = out.size();
        expr(*u.operand, kUnary);
        // "- -1" must not become "--1", a comment.
        if (at < out.size() && (out[at] == '-' || out[at] == '+')) out.insert(at, " ");
        return;
      }
      case ExprType::Binary: {
        // Left-associative: a left operand of at least our precedence needs no parentheses, so a left-deep chain
        // (a + b + c ..., as deep as it is long) is printed by walking down its spine in a loop.
        std::vector<const BinaryExpr*> spine{&e.as<BinaryExpr>()};
        while (spine.back()->left->is<BinaryExpr>() && precedence(*spine.back()->left) >= precedence(*spine.back()))
          spine.push_back(&spine.back()->left->as<BinaryExpr>());
        expr(*spine.back()->left, precedence(*spine.back()));
        for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
          out += fmt::format(" {} ", binary_op_sql((*it)->op));
          expr(*(*it)->right, precedence(**it) + 1);
        }
        return;
      }
      case ExprType::Between: {
        const auto& b = e.as<BetweenExpr>();
        expr(*b.operand, kComparison);
        out += b.negated ? " NOT BETWEEN " : " BETWEEN ";
        expr(*b.low, kConcat);
        out += " AND ";
        expr(*b.high, kConcat);
        return;
      }
      case ExprType::InList: {
        const auto& in = e.as<InListExpr>();
        expr(*in.operand, kComparison);
        out += in.negated ? " NOT IN (" : " IN (";
        exprs(in.list);
        out += ")";
        return;
      }
      case ExprType::InSubquery: {
        const auto& in = e.as<InSubqueryExpr>();
        expr(*in.operand, kComparison);
        out += in.negated ? " NOT IN " : " IN ";
        subquery(*in.query);
        return;
      }
      case ExprType::Exists: {
        const auto& x = e.as<ExistsExpr>();
        out += x.negated ? "NOT EXISTS " : "EXISTS ";
        subquery(*x.query);
        return;
      }
      case ExprType::Subquery: subquery(*e.as<SubqueryExpr>().query); return;
      case ExprType::Like: {
        const auto& l = e.as<LikeExpr>();
        expr(*l.operand, kComparison);
        out += l.negated ? " NOT LIKE " : " LIKE ";
        expr(*l.pattern, kConcat);
        return;
      }
      case ExprType::IsNull: {
        const auto& n = e.as<IsNullExpr>();
        expr(*n.operand, kComparison);
        out += n.negated ? " IS NOT NULL" : " IS NULL";
        return;
      }
      case ExprType::Case: {
        const auto& c = e.as<CaseExpr>();
        out += "CASE";
        if (c.operand) {
          out += " ";
          expr(*c.operand);
        }
        for (const auto& w : c.whens) {
          out += " WHEN ";
          expr(*w->when);
          out += " THEN ";
          expr(*w->then);
        }
        if (c.else_expr) {
          out += " ELSE ";
          expr(*c.else_expr);
        }
        out += " END";
        return;
      }
      case ExprType::Cast: {
        const auto& c = e.as<CastExpr>();
        out += "CAST(";
        expr(*c.operand);
        out += " AS " + c.type_name + ")";
        return;
      }
      case ExprType::FunctionCall: {
        const auto& f = e.as<FunctionCallExpr>();
        // LEFT and RIGHT are reserved words but parse as function names before '('.
        out += (f.name == "left" || f.name == "right") ? f.name : ident(f.name);
        out += "(";
        if (f.star) out += "*";
        if (f.distinct) out += "DISTINCT ";
        exprs(f.args);
        out += ")";
        return;
      }
      case ExprType::Extract: {
        const auto& x = e.as<ExtractExpr>();
        out += fmt::format("EXTRACT({} FROM ", extract_field_name(x.field));
        expr(*x.operand);
        out += ")";
        return;
      }
    }
  }

  void body(const QueryBody& b) {
    switch (b.type) {
      case QueryBodyType::Select: select_core(b.as<SelectCore>()); return;
      case QueryBodyType::SetOp: {
        const auto& op = b.as<SetOperation>();
        body(*op.left);
        out += op.all ? " UNION ALL " : " UNION ";
        bool parens = op.right->is<SetOperation>();
        if (parens) out += '(';
        body(*op.right);
        if (parens) out += ')';
        return;
      }
      case QueryBodyType::Nested: subquery(*b.as<NestedQuery>().query); return;
    }
  }

  void select_core(const SelectCore& s) {
    out += s.distinct ? "SELECT DISTINCT " : "SELECT ";
    for (size_t i = 0; i < s.select_list.size(); ++i) {
      const SelectItem& item = *s.select_list[i];
      if (i) out += ", ";
      switch (item.type) {
        case SelectItemType::Star: out += "*"; break;
        case SelectItemType::QualifiedStar: out += ident(item.qualifier) + ".*"; break;
        case SelectItemType::Expr:
          expr(*item.expr);
          if (!item.alias.empty()) out += " AS " + ident(item.alias);
          break;
      }
    }
    if (!s.from.empty()) {
      out += " FROM ";
      for (size_t i = 0; i < s.from.size(); ++i) {
        if (i) out += ", ";
        table_ref(*s.from[i]);
      }
    }
    if (s.where) {
      out += " WHERE ";
      expr(*s.where);
    }
    if (!s.group_by.empty()) {
      out += " GROUP BY ";
      exprs(s.group_by);
    }
    if (s.having) {
      out += " HAVING ";
      expr(*s.having);
    }
  }

  void table_ref(const TableRef& t) {
    switch (t.type) {
      case TableRefType::BaseTable: {
        const auto& b = t.as<BaseTableRef>();
        out += ident(b.name);
        if (!b.alias.empty()) out += " AS " + ident(b.alias);
        return;
      }
      case TableRefType::Derived: {
        const auto& d = t.as<DerivedTableRef>();
        subquery(*d.query);
        if (!d.alias.empty()) out += " AS " + ident(d.alias);
        if (!d.column_aliases.empty()) out += " (" + ident_list(d.column_aliases) + ")";
        return;
      }
      case TableRefType::Join: {
        const auto& j = t.as<JoinRef>();
        table_ref(*j.left);
        out += j.join_type == JoinType::Inner ? std::string(" JOIN ")
                                              : fmt::format(" {} JOIN ", join_type_name(j.join_type));
        bool parens = j.right->is<JoinRef>();
        if (parens) out += '(';
        table_ref(*j.right);
        if (parens) out += ')';
        if (j.condition) {
          out += " ON ";
          expr(*j.condition);
        }
        return;
      }
    }
  }
};

}  // namespace

std::string to_string(const Expr& expr) {
  SqlPrinter p;
  p.expr(expr);
  return std::move(p.out);
}

std::string to_string(const Query& query) {
  SqlPrinter p;
  p.query(query);
  return std::move(p.out);
}

std::string to_string(const Statement& stmt) {
  switch (stmt.type) {
    case StatementType::Select: return to_string(*stmt.as<SelectStatement>().query);
    case StatementType::Set: {
      const auto& s = stmt.as<SetStatement>();
      return fmt::format("SET {} = {}", ident(s.name), s.raw);
    }
    case StatementType::Explain: {
      const auto& e = stmt.as<ExplainStatement>();
      return (e.analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ") + to_string(*e.query);
    }
    case StatementType::Analyze: {
      const auto& a = stmt.as<AnalyzeStatement>();
      return a.table.empty() ? "ANALYZE" : "ANALYZE " + ident(a.table);
    }
  }
  return {};
}

const char* binary_op_sql(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Concat: return "||";
    case BinaryOp::Eq: return "=";
    case BinaryOp::Ne: return "<>";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
    case BinaryOp::And: return "AND";
    case BinaryOp::Or: return "OR";
  }
  return "?";
}

const char* join_type_name(JoinType type) {
  switch (type) {
    case JoinType::Inner: return "INNER";
    case JoinType::Left: return "LEFT";
    case JoinType::Right: return "RIGHT";
    case JoinType::Full: return "FULL";
    case JoinType::Cross: return "CROSS";
  }
  return "?";
}

const char* interval_unit_name(IntervalUnit u) {
  switch (u) {
    case IntervalUnit::Day: return "DAY";
    case IntervalUnit::Month: return "MONTH";
    case IntervalUnit::Year: return "YEAR";
  }
  return "?";
}

const char* extract_field_name(ExtractField f) {
  switch (f) {
    case ExtractField::Year: return "YEAR";
    case ExtractField::Month: return "MONTH";
    case ExtractField::Day: return "DAY";
  }
  return "?";
}

}  // namespace hindsight::sql
