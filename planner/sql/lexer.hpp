#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hindsight::sql {

enum class TokenType {
  Word,              ///< unquoted identifier or keyword; value is lower-cased
  QuotedIdentifier,  ///< "Name"; value is the unescaped name with its case kept
  Integer,           ///< 42; value is the digits
  Decimal,           ///< 1.5, .5, 1. (no exponent); value is the text
  Double,            ///< 1e-3, 2.5E+4; value is the text
  String,            ///< 'it''s'; value is the unescaped contents
  Symbol,            ///< operator or punctuation: + - * / % ( ) , . ; = < > <= >= <> != || ::
  Invalid,           ///< a character that starts no token; the parser reports it when it reaches it
  End,               ///< end of input; positioned just after the last token
};

/// One token with its position. Lines and columns are 1-based and count bytes.
struct Token {
  TokenType type = TokenType::End;
  std::string text;   ///< exact source text
  std::string value;  ///< normalised value (see TokenType)
  int line = 1;
  int col = 1;
  int end_line = 1;  ///< position of the last character (inclusive)
  int end_col = 1;
  size_t offset = 0;  ///< byte offset of the first character in the source
  size_t length = 0;  ///< byte length of `text`

  /// True for an unquoted word equal to `keyword` (case-insensitive; pass it in upper case).
  bool is_keyword(std::string_view keyword) const;
  /// True for a Symbol token with exactly this text.
  bool is_symbol(std::string_view symbol) const { return type == TokenType::Symbol && text == symbol; }
};

/// Splits SQL text into tokens, skipping whitespace, `-- line` and `/* block */` comments. The result always
/// ends with one End token. Throws hindsight::Error (PARSE_ERROR) for text that is not UTF-8 or holds a NUL
/// byte (at the first bad byte), an unterminated string, quoted identifier or block comment (at its start), an
/// empty quoted identifier, and a number run into letters ("12abc").
std::vector<Token> tokenize(const std::string& sql);

/// True for words that cannot be used as unquoted identifiers or bare aliases (`from`, `select`, `join`, ...).
/// Pass the word lower-cased.
bool is_reserved_keyword(std::string_view lower_word);

/// A short description of a token for error messages: 'FROM', string literal 'abc', end of input.
std::string describe_token(const Token& token);

}  // namespace hindsight::sql
