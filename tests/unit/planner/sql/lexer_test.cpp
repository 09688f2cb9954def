#include "planner/sql/lexer.hpp"

#include <gtest/gtest.h>

#include "planner/common/error.hpp"

namespace hindsight::sql {
namespace {

std::vector<TokenType> types(const std::vector<Token>& tokens) {
  std::vector<TokenType> out;
  for (const Token& t : tokens) out.push_back(t.type);
  return out;
}

/// Runs tokenize() expecting a PARSE_ERROR; returns it.
Error lex_error(const std::string& sql) {
  try {
    tokenize(sql);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for: " << sql;
  return Error(ErrorCode::INTERNAL, "none");
}

TEST(LexerTest, WordsAreLowerCasedAndKeywordsMatchCaseInsensitively) {
  auto t = tokenize("SeLeCt Foo_1 FROM");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].type, TokenType::Word);
  EXPECT_EQ(t[0].value, "select");
  EXPECT_EQ(t[0].text, "SeLeCt");
  EXPECT_TRUE(t[0].is_keyword("SELECT"));
  EXPECT_FALSE(t[0].is_keyword("SELEC"));
  EXPECT_EQ(t[1].value, "foo_1");
  EXPECT_TRUE(t[2].is_keyword("FROM"));
  EXPECT_EQ(t[3].type, TokenType::End);
}

TEST(LexerTest, QuotedIdentifiersKeepCaseAndUnescapeDoubledQuotes) {
  auto t = tokenize(R"("My ""Col""" "select")");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].type, TokenType::QuotedIdentifier);
  EXPECT_EQ(t[0].value, "My \"Col\"");
  EXPECT_EQ(t[1].value, "select");
  EXPECT_FALSE(t[1].is_keyword("SELECT"));
}

TEST(LexerTest, StringLiteralsUnescapeDoubledQuotesAndMaySpanLines) {
  auto t = tokenize("'it''s' '' 'a\nb'");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].type, TokenType::String);
  EXPECT_EQ(t[0].value, "it's");
  EXPECT_EQ(t[0].text, "'it''s'");
  EXPECT_EQ(t[1].value, "");
  EXPECT_EQ(t[2].value, "a\nb");
  EXPECT_EQ(t[2].end_line, 2);
  EXPECT_EQ(t[2].end_col, 2);
}

TEST(LexerTest, NumbersAreIntegerDecimalOrDouble) {
  auto t = tokenize("42 0.05 .5 1. 1e-3 2.5E+4 7e2");
  EXPECT_EQ(types(t), (std::vector<TokenType>{TokenType::Integer, TokenType::Decimal, TokenType::Decimal,
                                              TokenType::Decimal, TokenType::Double, TokenType::Double,
                                              TokenType::Double, TokenType::End}));
  EXPECT_EQ(t[0].value, "42");
  EXPECT_EQ(t[1].value, "0.05");
  EXPECT_EQ(t[2].value, ".5");
  EXPECT_EQ(t[4].value, "1e-3");
  EXPECT_EQ(t[5].value, "2.5E+4");
}

TEST(LexerTest, NumberRunIntoLettersIsAnError) {
  Error e = lex_error("select 12abc");
  EXPECT_EQ(e.code(), ErrorCode::PARSE_ERROR);
  EXPECT_EQ(e.pos().line, 1);
  EXPECT_EQ(e.pos().col, 8);
  EXPECT_EQ(lex_error("select 1.2.3").code(), ErrorCode::PARSE_ERROR);
}

TEST(LexerTest, OperatorsPreferTwoCharacterForms) {
  auto t = tokenize("a<=b>=c<>d!=e||f::g<h>i=j+-*/%(),.;");
  std::vector<std::string> symbols;
  for (const Token& tok : t)
    if (tok.type == TokenType::Symbol) symbols.push_back(tok.text);
  EXPECT_EQ(symbols, (std::vector<std::string>{"<=", ">=", "<>", "!=", "||", "::", "<", ">", "=", "+", "-", "*",
                                               "/", "%", "(", ")", ",", ".", ";"}));
}

TEST(LexerTest, CommentsAreSkipped) {
  auto t = tokenize("select -- a comment\n  1 /* block\n comment */ + 2 --end");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_TRUE(t[0].is_keyword("SELECT"));
  EXPECT_EQ(t[1].value, "1");
  EXPECT_EQ(t[1].line, 2);
  EXPECT_EQ(t[1].col, 3);
  EXPECT_TRUE(t[2].is_symbol("+"));
  EXPECT_EQ(t[2].line, 3);
  EXPECT_EQ(t[3].value, "2");
}

TEST(LexerTest, TracksLinesColumnsAndOffsets) {
  auto t = tokenize("select a,\n\tbb\nfrom t");
  ASSERT_GE(t.size(), 6u);
  EXPECT_EQ(t[1].line, 1);
  EXPECT_EQ(t[1].col, 8);
  EXPECT_EQ(t[3].text, "bb");
  EXPECT_EQ(t[3].line, 2);
  EXPECT_EQ(t[3].col, 2);
  EXPECT_EQ(t[3].end_col, 3);
  EXPECT_EQ(t[3].offset, 11u);
  EXPECT_EQ(t[3].length, 2u);
  EXPECT_EQ(t[4].line, 3);
  EXPECT_EQ(t[4].col, 1);
}

TEST(LexerTest, EndTokenSitsJustAfterTheLastToken) {
  auto t = tokenize("select x  \n\n  ");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[2].type, TokenType::End);
  EXPECT_EQ(t[2].line, 1);
  EXPECT_EQ(t[2].col, 9);
  auto empty = tokenize("  -- nothing");
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_EQ(empty[0].type, TokenType::End);
}

TEST(LexerTest, UnterminatedStringIsAParseErrorAtItsStart) {
  Error e = lex_error("select\n  'abc");
  EXPECT_EQ(e.code(), ErrorCode::PARSE_ERROR);
  EXPECT_EQ(e.pos().line, 2);
  EXPECT_EQ(e.pos().col, 3);
  EXPECT_NE(e.message().find("unterminated string"), std::string::npos);
  EXPECT_NE(e.detail().find('^'), std::string::npos);
}

TEST(LexerTest, UnterminatedCommentAndQuotedIdentifierAreParseErrors) {
  Error c = lex_error("select 1 /* never closed *");
  EXPECT_EQ(c.code(), ErrorCode::PARSE_ERROR);
  EXPECT_EQ(c.pos().col, 10);
  Error q = lex_error("select \"abc");
  EXPECT_EQ(q.code(), ErrorCode::PARSE_ERROR);
  EXPECT_EQ(q.pos().col, 8);
  EXPECT_EQ(lex_error("select \"\"").code(), ErrorCode::PARSE_ERROR);
}

TEST(LexerTest, UnknownCharactersBecomeInvalidTokens) {
  auto t = tokenize("select @ ?");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[1].type, TokenType::Invalid);
  EXPECT_EQ(t[1].text, "@");
  EXPECT_EQ(describe_token(t[1]), "character '@'");
  EXPECT_EQ(t[2].type, TokenType::Invalid);
}

TEST(LexerTest, DescribesTokensForMessages) {
  auto t = tokenize("FORM 'x' \"Y\"");
  EXPECT_EQ(describe_token(t[0]), "'FORM'");
  EXPECT_EQ(describe_token(t[1]), "string literal 'x'");
  EXPECT_EQ(describe_token(t[2]), "identifier \"Y\"");
  EXPECT_EQ(describe_token(t[3]), "end of input");
}

TEST(LexerTest, TextThatIsNotUtf8IsAParseErrorAtTheBadByte) {
  // A .sql file saved as Latin-1: 'café' with the single byte 0xE9.
  Error e = lex_error("SELECT 1,\n  'caf\xE9'");
  EXPECT_EQ(e.code(), ErrorCode::PARSE_ERROR);
  EXPECT_EQ(e.pos().line, 2);
  EXPECT_EQ(e.pos().col, 7);
  EXPECT_EQ(e.message(), "invalid UTF-8 byte 0xE9 in the SQL text (SQL must be UTF-8 encoded)");
  EXPECT_NE(e.detail().find("\\xe9"), std::string::npos) << e.detail();
  // In an identifier, after a multi-byte character (columns count bytes), and in a comment.
  EXPECT_EQ(lex_error("select ab\x80" "c").pos().col, 10);
  EXPECT_EQ(lex_error("select '\xC3\xA9', \xC3x").pos().col, 14);
  EXPECT_EQ(lex_error("select 1 -- \xFF").pos().col, 13);
  // Well-formed UTF-8 is fine everywhere.
  EXPECT_NO_THROW(tokenize("select 'caf\xC3\xA9' as \"\xE2\x82\xAC\", na\xC3\xAFve"));
}

TEST(LexerTest, NulIsAParseErrorWhoseMessageIsWhole) {
  Error e = lex_error(std::string("SELECT 1\0 + 2", 14));
  EXPECT_EQ(e.code(), ErrorCode::PARSE_ERROR);
  EXPECT_EQ(e.pos().line, 1);
  EXPECT_EQ(e.pos().col, 9);
  EXPECT_EQ(e.message(), "invalid character NUL (byte 0x00) in the SQL text");
  EXPECT_EQ(std::string(e.what()).find('\0'), std::string::npos);
  EXPECT_EQ(e.detail().find('\0'), std::string::npos);
  EXPECT_EQ(lex_error(std::string("select 'a\0b'", 13)).pos().col, 10);
}

TEST(LexerTest, ControlCharactersAreDescribedPrintably) {
  auto t = tokenize("select \x01");
  EXPECT_EQ(t[1].type, TokenType::Invalid);
  EXPECT_EQ(describe_token(t[1]), "character '\\x01'");
}

TEST(LexerTest, ReservedKeywords) {
  EXPECT_TRUE(is_reserved_keyword("from"));
  EXPECT_TRUE(is_reserved_keyword("select"));
  EXPECT_FALSE(is_reserved_keyword("date"));
  EXPECT_FALSE(is_reserved_keyword("year"));
  EXPECT_FALSE(is_reserved_keyword("value"));
}

}  // namespace
}  // namespace hindsight::sql
