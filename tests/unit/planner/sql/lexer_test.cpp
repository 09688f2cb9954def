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

TEST(LexerTest, ReservedKeywords) {
  EXPECT_TRUE(is_reserved_keyword("from"));
  EXPECT_TRUE(is_reserved_keyword("select"));
  EXPECT_FALSE(is_reserved_keyword("date"));
  EXPECT_FALSE(is_reserved_keyword("year"));
  EXPECT_FALSE(is_reserved_keyword("value"));
}

}  // namespace
}  // namespace hindsight::sql
