// Expressions, lowest to highest precedence:
//   OR < AND < NOT < comparison / IS / LIKE / BETWEEN / IN < || < + - < * / % < unary - + < primary
#include <charconv>
#include <cstdint>
#include <fmt/format.h>

#include "planner/sql/parser_internal.hpp"

namespace hindsight::sql {

namespace {

/// Parses an unsigned decimal integer; false on int64 overflow.
bool parse_int64(const std::string& digits, int64_t& out) {
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  return ec == std::errc() && ptr == digits.data() + digits.size();
}

/// True for the digits of 2^63 (leading zeros allowed): the magnitude of BIGINT's minimum.
bool is_bigint_min_magnitude(const std::string& digits) {
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  return ec == std::errc() && ptr == digits.data() + digits.size() && v == (uint64_t{1} << 63);
}

bool parse_double(const std::string& text, double& out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::string upper(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

bool interval_unit(const std::string& word, IntervalUnit& unit) {
  if (word == "day" || word == "days") {
    unit = IntervalUnit::Day;
  } else if (word == "month" || word == "months") {
    unit = IntervalUnit::Month;
  } else if (word == "year" || word == "years") {
    unit = IntervalUnit::Year;
  } else {
    return false;
  }
  return true;
}

bool is_other_time_unit(const std::string& word) {
  static const char* const units[] = {"hour",   "hours",   "minute",  "minutes", "second", "seconds", "week",
                                      "weeks",  "quarter", "quarters", "millisecond", "microsecond", "decade",
                                      "century", "millennium", "dow", "doy", "epoch", "isodow", "isoyear"};
  for (const char* u : units)
    if (word == u) return true;
  return false;
}

/// An interval quantity: an optional sign and digits.
bool is_interval_quantity(const std::string& s) {
  size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

}  // namespace

ExprPtr Parser::make_binary(BinaryOp op, ExprPtr left, ExprPtr right) {
  auto b = make_at<BinaryExpr>(left->span);
  b->op = op;
  b->span.end_line = right->span.end_line;
  b->span.end_col = right->span.end_col;
  b->left = std::move(left);
  b->right = std::move(right);
  return b;
}

ExprPtr Parser::parse_expr() { return parse_or(); }

ExprPtr Parser::parse_or() {
  ExprPtr left = parse_and();
  ChainGuard chain(*this);
  while (accept_kw("OR")) {
    chain.step();
    left = make_binary(BinaryOp::Or, std::move(left), parse_and());
  }
  return left;
}

ExprPtr Parser::parse_and() {
  ExprPtr left = parse_not();
  ChainGuard chain(*this);
  while (accept_kw("AND")) {
    chain.step();
    left = make_binary(BinaryOp::And, std::move(left), parse_not());
  }
  return left;
}

ExprPtr Parser::parse_not() {
  if (!check_kw("NOT")) return parse_comparison();
  DepthGuard guard(*this);
  const Token& not_token = advance();
  if (check_kw("EXISTS")) {
    // NOT EXISTS (...) is one node with negated = true.
    ExprPtr e = parse_comparison();
    if (e->is<ExistsExpr>() && !e->as<ExistsExpr>().negated) {
      e->as<ExistsExpr>().negated = true;
      e->span.line = not_token.line;
      e->span.col = not_token.col;
      return e;
    }
    auto u = make<UnaryExpr>(not_token);
    u->op = UnaryOp::Not;
    u->operand = std::move(e);
    finish(*u);
    return u;
  }
  auto u = make<UnaryExpr>(not_token);
  u->op = UnaryOp::Not;
  u->operand = parse_not();
  finish(*u);
  return u;
}

ExprPtr Parser::parse_comparison() {
  static const struct {
    const char* symbol;
    BinaryOp op;
  } comparisons[] = {{"=", BinaryOp::Eq},  {"<>", BinaryOp::Ne}, {"!=", BinaryOp::Ne}, {"<", BinaryOp::Lt},
                     {"<=", BinaryOp::Le}, {">", BinaryOp::Gt},  {">=", BinaryOp::Ge}};
  ExprPtr left = parse_concat();
  ChainGuard chain(*this);
  while (true) {
    bool matched = false;
    for (const auto& c : comparisons) {
      if (!check_sym(c.symbol)) continue;
      advance();
      chain.step();
      if ((check_kw("ANY") || check_kw("ALL") || check_kw("SOME")) && check_sym("(", 1))
        not_supported(peek(), fmt::format("a quantified comparison ({})", upper(peek().value)));
      left = make_binary(c.op, std::move(left), parse_concat());
      matched = true;
      break;
    }
    if (matched) continue;

    if (check_kw("IS")) {
      advance();
      chain.step();
      bool negated = accept_kw("NOT");
      if (check_kw("TRUE") || check_kw("FALSE") || check_kw("UNKNOWN") || check_kw("DISTINCT"))
        not_supported(peek(), fmt::format("IS {}{}", negated ? "NOT " : "", upper(peek().value)));
      expect_kw("NULL");
      auto n = make_at<IsNullExpr>(left->span);
      n->negated = negated;
      n->operand = std::move(left);
      finish(*n);
      left = std::move(n);
      continue;
    }

    bool negated = false;
    if (check_kw("NOT") && (check_kw("BETWEEN", 1) || check_kw("IN", 1) || check_kw("LIKE", 1) ||
                            check_kw("ILIKE", 1) || check_kw("SIMILAR", 1))) {
      advance();
      negated = true;
    }
    if (check_kw("ILIKE") || check_kw("SIMILAR")) not_supported(peek(), upper(peek().value));
    if (check_kw("BETWEEN")) {
      advance();
      chain.step();
      if (check_kw("SYMMETRIC") || check_kw("ASYMMETRIC")) not_supported(peek(), "BETWEEN SYMMETRIC");
      ExprPtr low = parse_concat();
      expect_kw("AND");
      ExprPtr high = parse_concat();
      auto b = make_at<BetweenExpr>(left->span);
      b->negated = negated;
      b->operand = std::move(left);
      b->low = std::move(low);
      b->high = std::move(high);
      finish(*b);
      left = std::move(b);
    } else if (check_kw("IN")) {
      const Token& in_token = advance();
      chain.step();
      left = parse_in(std::move(left), negated, in_token);
    } else if (check_kw("LIKE")) {
      advance();
      chain.step();
      ExprPtr pattern = parse_concat();
      if (check_kw("ESCAPE")) not_supported(peek(), "LIKE ... ESCAPE");
      auto l = make_at<LikeExpr>(left->span);
      l->negated = negated;
      l->operand = std::move(left);
      l->pattern = std::move(pattern);
      finish(*l);
      left = std::move(l);
    } else {
      return left;
    }
  }
}

ExprPtr Parser::parse_in(ExprPtr operand, bool negated, const Token& in_token) {
  if (!check_sym("(")) fail_unexpected("'(' after IN");
  if (check_kw("SELECT", 1) || check_kw("WITH", 1)) {
    advance();
    QueryPtr query = parse_query();
    expect_sym(")");
    auto in = make_at<InSubqueryExpr>(operand->span);
    in->negated = negated;
    in->operand = std::move(operand);
    in->query = std::move(query);
    finish(*in);
    return in;
  }
  advance();
  std::vector<ExprPtr> list;
  do {
    list.push_back(parse_expr());
  } while (accept_sym(","));
  expect_sym(")");
  auto in = make_at<InListExpr>(operand->span);
  in->negated = negated;
  in->operand = std::move(operand);
  in->list = std::move(list);
  finish(*in);
  return in;
}

ExprPtr Parser::parse_concat() {
  ExprPtr left = parse_additive();
  ChainGuard chain(*this);
  while (accept_sym("||")) {
    chain.step();
    left = make_binary(BinaryOp::Concat, std::move(left), parse_additive());
  }
  return left;
}

ExprPtr Parser::parse_additive() {
  ExprPtr left = parse_multiplicative();
  ChainGuard chain(*this);
  while (check_sym("+") || check_sym("-")) {
    BinaryOp op = advance().text == "+" ? BinaryOp::Add : BinaryOp::Sub;
    chain.step();
    left = make_binary(op, std::move(left), parse_multiplicative());
  }
  return left;
}

ExprPtr Parser::parse_multiplicative() {
  ExprPtr left = parse_unary();
  ChainGuard chain(*this);
  while (check_sym("*") || check_sym("/") || check_sym("%")) {
    const std::string& s = advance().text;
    BinaryOp op = s == "*" ? BinaryOp::Mul : s == "/" ? BinaryOp::Div : BinaryOp::Mod;
    chain.step();
    left = make_binary(op, std::move(left), parse_unary());
  }
  return left;
}

ExprPtr Parser::parse_unary() {
  if (check_sym("-") && peek(1).type == TokenType::Integer && is_bigint_min_magnitude(peek(1).value)) {
    // -9223372036854775808 is BIGINT's minimum, although its magnitude alone does not fit a BIGINT.
    auto lit = make<IntegerLiteral>(advance());
    advance();
    lit->value = INT64_MIN;
    finish(*lit);
    if (check_sym("::")) not_supported(peek(), "a '::' cast (use CAST(x AS type))");
    return lit;
  }
  if (check_sym("-") || check_sym("+")) {
    DepthGuard guard(*this);
    const Token& sign = advance();
    auto u = make<UnaryExpr>(sign);
    u->op = sign.text == "-" ? UnaryOp::Minus : UnaryOp::Plus;
    u->operand = parse_unary();
    finish(*u);
    return u;
  }
  ExprPtr e = parse_primary();
  if (check_sym("::")) not_supported(peek(), "a '::' cast (use CAST(x AS type))");
  return e;
}

ExprPtr Parser::parse_primary() {
  DepthGuard guard(*this);
  const Token& t = peek();
  switch (t.type) {
    case TokenType::Integer:
    case TokenType::Decimal:
    case TokenType::Double:
      return parse_number();
    case TokenType::String: {
      auto s = make<StringLiteral>(t);
      s->value = t.value;
      advance();
      finish(*s);
      return s;
    }
    case TokenType::Word:
    case TokenType::QuotedIdentifier:
      return parse_word_expression();
    case TokenType::Symbol:
      if (t.is_symbol("(")) {
        if (check_kw("SELECT", 1) || check_kw("WITH", 1)) {
          auto sub = make<SubqueryExpr>(t);
          advance();
          sub->query = parse_query();
          expect_sym(")");
          finish(*sub);
          return sub;
        }
        advance();
        ExprPtr inner = parse_expr();
        if (check_sym(",")) not_supported(peek(), "a row value (a, b, ...)");
        expect_sym(")");
        return inner;
      }
      break;
    default:
      break;
  }
  fail(t, fmt::format("expected expression, found {}", describe_token(t)));
}

ExprPtr Parser::parse_number() {
  const Token& t = advance();
  if (t.type == TokenType::Integer) {
    int64_t v;
    if (parse_int64(t.value, v)) {
      auto lit = make<IntegerLiteral>(t);
      lit->value = v;
      finish(*lit);
      return lit;
    }
  }
  double d = 0;
  if (!parse_double(t.value, d)) fail(t, fmt::format("number {} is out of range", t.text));
  if (t.type == TokenType::Double) {
    auto lit = make<DoubleLiteral>(t);
    lit->text = t.value;
    lit->value = d;
    finish(*lit);
      return lit;
  }
  auto lit = make<DecimalLiteral>(t);
  lit->text = t.value;
  lit->value = d;
  finish(*lit);
      return lit;
}

ExprPtr Parser::parse_word_expression() {
  const Token& t = peek();
  if (t.type == TokenType::Word) {
    if (t.is_keyword("NULL")) {
      auto n = make<NullLiteral>(advance());
      finish(*n);
      return n;
    }
    if (t.is_keyword("TRUE") || t.is_keyword("FALSE")) {
      auto b = make<BoolLiteral>(t);
      b->value = advance().is_keyword("TRUE");
      finish(*b);
      return b;
    }
    if (t.is_keyword("CASE")) return parse_case();
    if (t.is_keyword("CAST") && check_sym("(", 1)) return parse_cast();
    if (t.is_keyword("EXTRACT") && check_sym("(", 1)) return parse_extract();
    if (t.is_keyword("SUBSTRING") && check_sym("(", 1)) return parse_substring();
    if (t.is_keyword("EXISTS")) {
      auto e = make<ExistsExpr>(advance());
      if (!check_sym("(") || !(check_kw("SELECT", 1) || check_kw("WITH", 1))) fail_unexpected("'(SELECT' after EXISTS");
      advance();
      e->query = parse_query();
      expect_sym(")");
      finish(*e);
      return e;
    }
    if (t.is_keyword("DATE") && peek(1).type == TokenType::String) {
      auto d = make<DateLiteral>(advance());
      d->text = advance().value;
      finish(*d);
      return d;
    }
    if ((t.is_keyword("TIMESTAMP") || t.is_keyword("TIME")) && peek(1).type == TokenType::String)
      not_supported(t, upper(t.value) + " literal");
    if (t.is_keyword("INTERVAL") && (peek(1).type == TokenType::String || peek(1).type == TokenType::Integer))
      return parse_interval();
    bool function_word = (t.is_keyword("LEFT") || t.is_keyword("RIGHT")) && check_sym("(", 1);
    if (is_reserved_keyword(t.value) && !function_word)
      fail(t, fmt::format("expected expression, found {}", describe_token(t)));
  }
  if (check_sym("(", 1)) return parse_function_call();
  auto c = make<ColumnRefExpr>(t);
  c->name = advance().value;
  if (accept_sym(".")) {
    if (check_sym("*")) fail(peek(), "'*' after a qualifier is only allowed as a select list item");
    c->qualifier = std::move(c->name);
    c->name = expect_identifier("a column name after '.'");
    if (check_sym(".")) not_supported(peek(), "a column name with more than one qualifier");
    if (check_sym("(")) not_supported(t, "a qualified function name");
  }
  finish(*c);
  return c;
}

ExprPtr Parser::parse_function_call() {
  auto f = make<FunctionCallExpr>(peek());
  f->name = advance().value;
  expect_sym("(");
  if (accept_sym("*")) {
    f->star = true;
  } else if (!check_sym(")")) {
    if (accept_kw("DISTINCT")) {
      f->distinct = true;
    } else {
      accept_kw("ALL");
    }
    do {
      f->args.push_back(parse_expr());
    } while (accept_sym(","));
    if (check_kw("ORDER")) not_supported(peek(), "ORDER BY inside a function call");
  }
  expect_sym(")");
  if (check_kw("OVER")) not_supported(peek(), "a window function (OVER)");
  if (check_kw("FILTER") && check_sym("(", 1)) not_supported(peek(), "a FILTER clause on an aggregate");
  if (check_kw("WITHIN") && check_kw("GROUP", 1)) not_supported(peek(), "WITHIN GROUP");
  finish(*f);
  return f;
}

ExprPtr Parser::parse_case() {
  auto c = make<CaseExpr>(advance());
  if (!check_kw("WHEN")) c->operand = parse_expr();
  if (!check_kw("WHEN")) fail_unexpected("WHEN");
  while (check_kw("WHEN")) {
    auto w = make<CaseWhen>(advance());
    w->when = parse_expr();
    expect_kw("THEN");
    w->then = parse_expr();
    finish(*w);
    c->whens.push_back(std::move(w));
  }
  if (accept_kw("ELSE")) c->else_expr = parse_expr();
  if (!check_kw("END")) fail_unexpected(c->else_expr ? "END" : "WHEN, ELSE or END");
  advance();
  finish(*c);
  return c;
}

ExprPtr Parser::parse_cast() {
  auto c = make<CastExpr>(advance());
  expect_sym("(");
  c->operand = parse_expr();
  expect_kw("AS");
  c->type_name = parse_type_name();
  expect_sym(")");
  finish(*c);
  return c;
}

std::string Parser::parse_type_name() {
  if (peek().type == TokenType::QuotedIdentifier) return advance().value;
  if (peek().type != TokenType::Word) fail_unexpected("a type name");
  std::string name = upper(advance().value);
  while (peek().type == TokenType::Word) name += " " + upper(advance().value);
  if (accept_sym("(")) {
    name += "(";
    do {
      if (peek().type != TokenType::Integer) fail_unexpected("an integer type parameter");
      name += advance().value;
      if (check_sym(",")) name += ",";
    } while (accept_sym(","));
    expect_sym(")");
    name += ")";
  }
  return name;
}

ExprPtr Parser::parse_extract() {
  auto e = make<ExtractExpr>(advance());
  expect_sym("(");
  const Token& field = peek();
  if (field.is_keyword("YEAR")) {
    e->field = ExtractField::Year;
  } else if (field.is_keyword("MONTH")) {
    e->field = ExtractField::Month;
  } else if (field.is_keyword("DAY")) {
    e->field = ExtractField::Day;
  } else if (field.type == TokenType::Word && is_other_time_unit(field.value)) {
    not_supported(field, fmt::format("EXTRACT({})", upper(field.value)));
  } else {
    fail_unexpected("YEAR, MONTH or DAY");
  }
  advance();
  expect_kw("FROM");
  e->operand = parse_expr();
  expect_sym(")");
  finish(*e);
  return e;
}

ExprPtr Parser::parse_substring() {
  auto f = make<FunctionCallExpr>(peek());
  f->name = "substring";
  advance();
  expect_sym("(");
  f->args.push_back(parse_expr());
  if (accept_kw("FROM")) {
    f->args.push_back(parse_expr());
    if (accept_kw("FOR")) f->args.push_back(parse_expr());
  } else if (accept_sym(",")) {
    f->args.push_back(parse_expr());
    if (accept_sym(",")) f->args.push_back(parse_expr());
  } else {
    fail_unexpected("FROM or ','");
  }
  expect_sym(")");
  finish(*f);
  return f;
}

ExprPtr Parser::parse_interval() {
  auto iv = make<IntervalLiteral>(advance());
  const Token& value = advance();
  std::string quantity = value.value;
  std::string unit_word;
  if (value.type == TokenType::String) {
    // INTERVAL '3 months': the unit may sit inside the string.
    size_t first = quantity.find_first_not_of(' ');
    size_t last = quantity.find_last_not_of(' ');
    quantity = first == std::string::npos ? "" : quantity.substr(first, last - first + 1);
    size_t space = quantity.find(' ');
    if (space != std::string::npos) {
      unit_word = quantity.substr(space + 1);
      quantity = quantity.substr(0, space);
      size_t u = unit_word.find_first_not_of(' ');
      unit_word = unit_word.substr(u);
      for (char& ch : unit_word)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    }
  }
  if (!is_interval_quantity(quantity)) fail(value, fmt::format("invalid interval quantity {}", describe_token(value)));
  iv->value = quantity;
  if (!unit_word.empty()) {
    if (!interval_unit(unit_word, iv->unit)) {
      if (is_other_time_unit(unit_word)) not_supported(value, fmt::format("INTERVAL unit {}", upper(unit_word)));
      fail(value, fmt::format("invalid interval unit '{}', expected DAY, MONTH or YEAR", unit_word));
    }
  } else if (peek().type == TokenType::Word && interval_unit(peek().value, iv->unit)) {
    advance();
  } else if (peek().type == TokenType::Word && is_other_time_unit(peek().value)) {
    not_supported(peek(), fmt::format("INTERVAL unit {}", upper(peek().value)));
  } else {
    fail_unexpected("DAY, MONTH or YEAR");
  }
  if (check_kw("TO")) not_supported(peek(), "INTERVAL ... TO ...");
  finish(*iv);
  return iv;
}

}  // namespace hindsight::sql
