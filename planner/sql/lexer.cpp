#include "planner/sql/lexer.hpp"

#include <fmt/format.h>

#include "planner/common/error.hpp"
#include "planner/common/text.hpp"

namespace hindsight::sql {

namespace {

bool is_ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool is_ident_char(unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

char lower_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

/// Walks the text keeping line and column in step with the byte offset.
class Scanner {
 public:
  explicit Scanner(const std::string& sql) : sql_(sql) {}

  std::vector<Token> run() {
    check_encoding();
    std::vector<Token> out;
    while (true) {
      skip_space_and_comments();
      if (at_end()) break;
      out.push_back(next_token());
    }
    Token end;
    end.type = TokenType::End;
    end.offset = sql_.size();
    if (out.empty()) {
      end.line = end.end_line = 1;
      end.col = end.end_col = 1;
    } else {
      // Just after the last token, so a caret excerpt points at a visible place even with trailing blanks.
      end.line = end.end_line = out.back().end_line;
      end.col = end.end_col = out.back().end_col + 1;
    }
    out.push_back(std::move(end));
    return out;
  }

 private:
  bool at_end() const { return pos_ >= sql_.size(); }
  unsigned char peek(size_t k = 0) const { return pos_ + k < sql_.size() ? sql_[pos_ + k] : '\0'; }

  void advance() {
    if (sql_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  [[noreturn]] void fail(const std::string& message, int line, int col) const {
    throw Error(ErrorCode::PARSE_ERROR, message, SourcePos{"", line, col}, caret_excerpt(sql_, line, col));
  }

  /// The whole text must be UTF-8 without NUL bytes: a Latin-1 file or a stray byte is reported where it is,
  /// instead of flowing into identifiers, strings and (invalid) JSON output.
  void check_encoding() const {
    int line = 1, col = 1;
    for (size_t i = 0; i < sql_.size();) {
      const auto c = static_cast<unsigned char>(sql_[i]);
      if (c == 0) fail("invalid character NUL (byte 0x00) in the SQL text", line, col);
      size_t n = c < 0x80 ? 1 : utf8_sequence_length(sql_, i);
      if (n == 0)
        fail(fmt::format("invalid UTF-8 byte 0x{:02X} in the SQL text (SQL must be UTF-8 encoded)", c), line, col);
      if (c == '\n') {
        ++line;
        col = 1;
      } else {
        col += static_cast<int>(n);
      }
      i += n;
    }
  }

  void skip_space_and_comments() {
    while (!at_end()) {
      unsigned char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '-' && peek(1) == '-') {
        while (!at_end() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        int line = line_, col = col_;
        advance();
        advance();
        while (!(peek() == '*' && peek(1) == '/')) {
          if (at_end()) fail("unterminated block comment", line, col);
          advance();
        }
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  Token next_token() {
    Token t;
    t.line = line_;
    t.col = col_;
    t.offset = pos_;
    unsigned char c = peek();
    if (is_ident_start(c)) {
      t.type = TokenType::Word;
      while (!at_end() && is_ident_char(peek())) {
        t.value.push_back(lower_ascii(static_cast<char>(peek())));
        advance();
      }
    } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      scan_number(t);
    } else if (c == '\'') {
      t.type = TokenType::String;
      scan_quoted('\'', t, "unterminated string literal");
    } else if (c == '"') {
      t.type = TokenType::QuotedIdentifier;
      scan_quoted('"', t, "unterminated quoted identifier");
      if (t.value.empty()) fail("zero-length quoted identifier", t.line, t.col);
    } else {
      scan_symbol(t);
    }
    finish(t);
    return t;
  }

  void scan_number(Token& t) {
    t.type = TokenType::Integer;
    while (is_digit(peek())) advance();
    if (peek() == '.') {
      t.type = TokenType::Decimal;
      advance();
      while (is_digit(peek())) advance();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      t.type = TokenType::Double;
      advance();
      if (peek() == '+' || peek() == '-') advance();
      while (is_digit(peek())) advance();
    }
    if (!at_end() && (is_ident_char(peek()) || peek() == '.')) {
      fail(fmt::format("invalid number '{}'", printable(sql_.substr(t.offset, pos_ - t.offset + 1))), t.line, t.col);
    }
    t.value = sql_.substr(t.offset, pos_ - t.offset);
  }

  /// A quoted token; the quote character doubled inside stands for itself.
  void scan_quoted(char quote, Token& t, const char* unterminated) {
    advance();
    while (true) {
      if (at_end()) fail(unterminated, t.line, t.col);
      char ch = static_cast<char>(peek());
      if (ch == quote) {
        if (peek(1) == static_cast<unsigned char>(quote)) {
          t.value.push_back(quote);
          advance();
          advance();
          continue;
        }
        advance();
        return;
      }
      t.value.push_back(ch);
      advance();
    }
  }

  void scan_symbol(Token& t) {
    static const char* const two_char[] = {"<=", ">=", "<>", "!=", "||", "::"};
    t.type = TokenType::Symbol;
    for (const char* s : two_char) {
      if (peek() == static_cast<unsigned char>(s[0]) && peek(1) == static_cast<unsigned char>(s[1])) {
        advance();
        advance();
        t.value = s;
        return;
      }
    }
    static const std::string_view one_char = "+-*/%(),.;=<>";
    if (one_char.find(static_cast<char>(peek())) == std::string_view::npos) t.type = TokenType::Invalid;
    // Keep a whole UTF-8 sequence together so the message shows a readable character.
    size_t n = 1;
    if (peek() >= 0x80)
      while (n < 4 && (peek(n) & 0xC0) == 0x80) ++n;
    for (size_t i = 0; i < n; ++i) advance();
    t.value = sql_.substr(t.offset, n);
  }

  void finish(Token& t) {
    t.length = pos_ - t.offset;
    t.text = sql_.substr(t.offset, t.length);
    // The last character's position: step back over the final byte.
    t.end_line = line_;
    t.end_col = col_ - 1;
    // Tokens end with a visible character (never a newline), so this stays on the same line.
    if (t.end_col < 1) t.end_col = 1;
  }

  const std::string& sql_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace

bool Token::is_keyword(std::string_view keyword) const {
  if (type != TokenType::Word || value.size() != keyword.size()) return false;
  for (size_t i = 0; i < keyword.size(); ++i)
    if (value[i] != lower_ascii(keyword[i])) return false;
  return true;
}

bool is_reserved_keyword(std::string_view w) {
  static const std::string_view reserved[] = {
      "all",     "and",    "any",     "as",     "asc",    "between",   "by",     "case",    "cast",   "cross",
      "desc",    "distinct", "else",  "end",    "escape", "except",    "exists", "false",   "fetch",  "for",
      "from",    "full",   "group",   "having", "ilike",  "in",        "inner",  "intersect", "is",  "join",
      "lateral", "left",   "like",    "limit",  "natural", "not",      "null",   "offset",  "on",     "or",
      "order",   "outer",  "over",    "qualify", "right", "select",    "similar", "some",   "then",   "true",
      "union",   "using",  "values",  "when",   "where",  "window",    "with",
  };
  for (std::string_view r : reserved)
    if (r == w) return true;
  return false;
}

std::vector<Token> tokenize(const std::string& sql) { return Scanner(sql).run(); }

std::string describe_token(const Token& token) {
  std::string text = printable(token.text, 40);
  switch (token.type) {
    case TokenType::End: return "end of input";
    case TokenType::String: return "string literal " + text;
    case TokenType::QuotedIdentifier: return "identifier " + text;
    case TokenType::Invalid: return "character '" + text + "'";
    default: return "'" + text + "'";
  }
}

}  // namespace hindsight::sql
