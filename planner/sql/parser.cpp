#include "planner/sql/parser.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "planner/sql/parser_internal.hpp"

namespace hindsight::sql {

namespace {


/// Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-insensitive.
int edit_distance(std::string_view a, std::string_view b) {
  auto low = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      int cost = low(a[i - 1]) == low(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && low(a[i - 1]) == low(b[j - 2]) && low(a[i - 2]) == low(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

/// The keyword among `candidates` that `word` looks like a typo of, or empty.
std::string near_miss(const Token& t, const std::vector<std::string>& candidates) {
  if (t.type != TokenType::Word || t.text.size() < 3 || t.text.size() > 20) return {};
  for (const std::string& c : candidates) {
    bool is_word = !c.empty() && std::all_of(c.begin(), c.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
    if (is_word && !t.is_keyword(c) && edit_distance(t.text, c) <= 1) return c;
  }
  return {};
}

bool is_unsupported_statement(const Token& t) {
  static const char* const kinds[] = {"INSERT", "UPDATE", "DELETE", "CREATE", "DROP",     "ALTER",  "COPY",
                                      "BEGIN",  "COMMIT", "ROLLBACK", "SHOW", "DESCRIBE", "PRAGMA", "VALUES",
                                      "TABLE",  "MERGE",  "TRUNCATE", "GRANT", "ATTACH", "USE"};
  for (const char* k : kinds)
    if (t.is_keyword(k)) return true;
  return false;
}

}  // namespace

Parser::Parser(const std::string& sql, std::vector<Token> tokens) : sql_(sql), tokens_(std::move(tokens)) {}

Parser::DepthGuard::DepthGuard(Parser& p) : parser_(p) {
  if (++parser_.depth_ > kMaxNestingDepth) {
    --parser_.depth_;
    parser_.fail(parser_.peek(), fmt::format("statement nested too deeply (more than {} levels)", kMaxNestingDepth));
  }
}

void Parser::ChainGuard::step() {
  ++steps_;
  if (kind_ == Kind::Operators && ++parser_.chained_ > kMaxChainedOperators)
    parser_.fail(parser_.previous(),
                 fmt::format("expression too long: more than {} chained operators (such as a + b + ... or a OR b OR "
                             "...) in one expression",
                             kMaxChainedOperators));
  if (kind_ == Kind::Relations && ++parser_.relations_ > kMaxChainedRelations)
    parser_.fail(parser_.previous(),
                 fmt::format("query too long: more than {} chained UNIONs or joins (a FROM list counts as joins) in one query",
                             kMaxChainedRelations));
}

// ---------------------------------------------------------------------------------------------------------
// Token cursor and errors
// ---------------------------------------------------------------------------------------------------------

const Token& Parser::peek(size_t k) const {
  size_t i = pos_ + k;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const Token& Parser::advance() {
  const Token& t = tokens_[pos_];
  if (t.type != TokenType::End) ++pos_;
  return t;
}

void Parser::note_expected(std::string what) {
  if (expected_at_ != pos_) {
    expected_.clear();
    expected_at_ = pos_;
  }
  if (std::find(expected_.begin(), expected_.end(), what) == expected_.end()) expected_.push_back(std::move(what));
}

bool Parser::accept_kw(std::string_view kw) {
  if (check_kw(kw)) {
    advance();
    return true;
  }
  note_expected(std::string(kw));
  return false;
}

bool Parser::accept_sym(std::string_view sym) {
  if (check_sym(sym)) {
    advance();
    return true;
  }
  note_expected("'" + std::string(sym) + "'");
  return false;
}

const Token& Parser::expect_kw(std::string_view kw) {
  if (!check_kw(kw)) fail_unexpected(std::string(kw));
  return advance();
}

const Token& Parser::expect_sym(std::string_view sym) {
  if (!check_sym(sym)) fail_unexpected("'" + std::string(sym) + "'");
  return advance();
}

bool Parser::is_identifier(const Token& t) const {
  if (t.type == TokenType::QuotedIdentifier) return true;
  return t.type == TokenType::Word && !is_reserved_keyword(t.value);
}

std::string Parser::expect_identifier(const char* what) {
  if (!is_identifier(peek())) fail_unexpected(what);
  return advance().value;
}

int64_t Parser::expect_unsigned_integer(const char* what) {
  const Token& t = peek();
  if (t.type != TokenType::Integer) fail_unexpected(what);
  int64_t v = 0;
  for (char c : t.value) {
    if (v > (INT64_MAX - (c - '0')) / 10) fail(t, fmt::format("{} is out of range", what));
    v = v * 10 + (c - '0');
  }
  advance();
  return v;
}

void Parser::fail(const Token& at, const std::string& message, ErrorCode code) const {
  throw Error(code, message, SourcePos{"", at.line, at.col}, caret_excerpt(sql_, at.line, at.col));
}

void Parser::fail_unexpected(const std::string& expected) const {
  fail(peek(), fmt::format("unexpected {}, expected {}", describe_token(peek()), expected));
}

void Parser::not_supported(const Token& at, const std::string& what) const {
  fail(at, what + " is not supported", ErrorCode::NOT_SUPPORTED);
}

// ---------------------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------------------

bool Parser::at_script_end() {
  while (check_sym(";")) advance();
  return peek().type == TokenType::End;
}

StatementPtr Parser::parse_statement() {
  next_id_ = 0;
  expected_.clear();
  expected_at_ = SIZE_MAX;
  last_bare_alias_ = SIZE_MAX;
  const Token& start = peek();
  StatementPtr stmt;
  if (starts_query()) {
    auto s = make<SelectStatement>(start);
    s->query = parse_query();
    stmt = std::move(s);
  } else if (check_kw("EXPLAIN")) {
    auto s = make<ExplainStatement>(start);
    advance();
    s->analyze = accept_kw("ANALYZE") || accept_kw("ANALYSE");
    if (!s->analyze) s->reoptimization = accept_kw("REOPTIMIZATION");
    if (!starts_query()) {
      note_expected("a query");
      fail_unexpected(s->analyze || s->reoptimization ? "a query" : "ANALYZE, REOPTIMIZATION or a query");
    }
    s->query = parse_query();
    stmt = std::move(s);
  } else if (check_kw("SET")) {
    stmt = parse_set();
  } else if (check_kw("ANALYZE") || check_kw("ANALYSE")) {
    stmt = parse_analyze();
  } else if (is_unsupported_statement(start)) {
    std::string kind = start.value;
    for (char& c : kind) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    not_supported(start, fmt::format("the {} statement", kind));
  } else {
    fail_unexpected("SELECT, WITH, EXPLAIN, SET or ANALYZE");
  }
  finish(*stmt);
  const Token& last = previous();
  stmt->text = sql_.substr(start.offset, last.offset + last.length - start.offset);
  stmt->node_count = next_id_;
  return stmt;
}

StatementPtr Parser::parse_set() {
  const Token& start = advance();  // SET
  auto s = make<SetStatement>(start);
  if (peek().type != TokenType::Word && peek().type != TokenType::QuotedIdentifier) fail_unexpected("a setting name");
  s->name = advance().value;
  // Dotted names (reexec_overlay.MEMORY_LIMIT_EXCEEDED): a setting with a qualifier.
  while (accept_sym(".")) {
    if (peek().type != TokenType::Word && peek().type != TokenType::QuotedIdentifier) fail_unexpected("a name after '.'");
    s->name += "." + advance().value;
  }
  if (!accept_sym("=") && !accept_kw("TO")) fail_unexpected("'=' or TO");
  const Token& first = peek();
  std::string sign;
  if (check_sym("-") || check_sym("+")) {
    TokenType next = peek(1).type;
    if (next != TokenType::Integer && next != TokenType::Decimal && next != TokenType::Double)
      fail(peek(1), fmt::format("unexpected {}, expected a number", describe_token(peek(1))));
    if (advance().text == "-") sign = "-";
  }
  const Token& v = peek();
  switch (v.type) {
    case TokenType::Word:
      if (!sign.empty()) fail_unexpected("a number");
      s->value_type = SetValueType::Identifier;
      s->value = v.text;
      break;
    case TokenType::QuotedIdentifier:
      s->value_type = SetValueType::Identifier;
      s->value = v.value;
      break;
    case TokenType::Integer:
    case TokenType::Decimal:
    case TokenType::Double:
      s->value_type = SetValueType::Number;
      s->value = sign + v.text;
      break;
    case TokenType::String:
      s->value_type = SetValueType::String;
      s->value = v.value;
      break;
    default:
      fail_unexpected("a value (identifier, number or string)");
  }
  advance();
  s->raw = sql_.substr(first.offset, v.offset + v.length - first.offset);
  return s;
}

StatementPtr Parser::parse_analyze() {
  const Token& start = advance();  // ANALYZE
  auto s = make<AnalyzeStatement>(start);
  if (check_sym(";") || peek().type == TokenType::End) return s;
  const Token& name = peek();
  s->table = expect_identifier("a table name or end of statement");
  s->table_span = {name.line, name.col, name.end_line, name.end_col};
  if (check_sym(".")) not_supported(peek(), "a schema-qualified table name");
  return s;
}

std::string Parser::statement_end_message() {
  static const std::vector<std::string> clause_keywords = {"FROM",  "WHERE", "GROUP", "HAVING", "ORDER",
                                                           "LIMIT", "OFFSET", "UNION", "JOIN",  "ON"};
  if (last_bare_alias_ != SIZE_MAX && last_bare_alias_ + 1 == pos_) {
    const Token& alias = tokens_[last_bare_alias_];
    std::string kw = near_miss(alias, clause_keywords);
    if (!kw.empty())
      fail(alias, fmt::format("unexpected {}, expected {} or end of statement", describe_token(alias), kw));
  }
  if (expected_at_ == pos_) {
    std::string kw = near_miss(peek(), expected_);
    if (!kw.empty()) return fmt::format("unexpected {}, expected {} or end of statement", describe_token(peek()), kw);
  }
  return fmt::format("unexpected {}, expected end of statement", describe_token(peek()));
}

void Parser::expect_statement_end() {
  if (check_sym(";") || peek().type == TokenType::End) return;
  if (check_kw("INTERSECT") || check_kw("EXCEPT")) reject_unsupported_set_op();
  fail(peek(), statement_end_message());
}

void Parser::expect_no_more_statements() {
  if (!at_script_end()) fail(peek(), fmt::format("unexpected {}, expected a single statement", describe_token(peek())));
}

ExprPtr Parser::parse_standalone_expression() {
  next_id_ = 0;
  ExprPtr e = parse_expr();
  if (peek().type != TokenType::End) fail(peek(), statement_end_message());
  return e;
}

// ---------------------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------------------

std::vector<StatementPtr> parse_sql(const std::string& sql) {
  Parser parser(sql, tokenize(sql));
  std::vector<StatementPtr> out;
  while (!parser.at_script_end()) {
    out.push_back(parser.parse_statement());
    parser.expect_statement_end();
  }
  return out;
}

StatementPtr parse_statement(const std::string& sql) {
  std::vector<Token> tokens = tokenize(sql);
  Parser parser(sql, std::move(tokens));
  if (parser.at_script_end()) {
    Token end = tokenize(sql).back();
    throw Error(ErrorCode::PARSE_ERROR, "empty statement, expected SELECT, WITH, EXPLAIN, SET or ANALYZE",
                SourcePos{"", end.line, end.col}, caret_excerpt(sql, end.line, end.col));
  }
  StatementPtr stmt = parser.parse_statement();
  parser.expect_statement_end();
  parser.expect_no_more_statements();
  return stmt;
}

ExprPtr parse_expression(const std::string& sql) {
  Parser parser(sql, tokenize(sql));
  return parser.parse_standalone_expression();
}

}  // namespace hindsight::sql
