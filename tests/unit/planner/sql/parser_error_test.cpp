#include <gtest/gtest.h>

#include <random>

#include "planner/common/error.hpp"
#include "planner/sql/lexer.hpp"
#include "planner/sql/parser.hpp"
#include "tests/unit/planner/sql/parse_error_util.hpp"
#include "tests/unit/planner/sql/tpch_queries.hpp"

namespace hindsight::sql {
namespace {

using testing::expect_error;
using testing::parse_error;

TEST(ParserErrorTest, MissingExpressionAtTheEnd) {
  expect_error("SELECT a FROM t WHERE", ErrorCode::PARSE_ERROR, 1, 22, "expected expression, found end of input");
  expect_error("SELECT a FROM t WHERE\n  ", ErrorCode::PARSE_ERROR, 1, 22);
  expect_error("SELECT a FROM t WHERE;", ErrorCode::PARSE_ERROR, 1, 22, "expected expression, found ';'");
}

TEST(ParserErrorTest, MisspelledKeywords) {
  expect_error("SELEC 1", ErrorCode::PARSE_ERROR, 1, 1, "unexpected 'SELEC', expected SELECT, WITH, EXPLAIN, SET or ANALYZE");
  expect_error("SELECT * FORM t", ErrorCode::PARSE_ERROR, 1, 10,
               "unexpected 'FORM', expected FROM or end of statement");
  // FORM is first taken as an alias of a; the error still names it.
  expect_error("SELECT a FORM t", ErrorCode::PARSE_ERROR, 1, 10,
               "unexpected 'FORM', expected FROM or end of statement");
  expect_error("SELECT a FROM t WHER a = 1", ErrorCode::PARSE_ERROR, 1, 17,
               "unexpected 'WHER', expected WHERE or end of statement");
  expect_error("SELECT a FROM t WHERE a = 1 GRUOP BY a", ErrorCode::PARSE_ERROR, 1, 29,
               "unexpected 'GRUOP', expected GROUP or end of statement");
}

TEST(ParserErrorTest, ErrorsPointAtTheOffendingToken) {
  expect_error("select (1 + 2", ErrorCode::PARSE_ERROR, 1, 14, "unexpected end of input, expected ')'");
  expect_error("select a,\n  b\nfrom t where )", ErrorCode::PARSE_ERROR, 3, 14, "expected expression, found ')'");
  expect_error("select a from t group a", ErrorCode::PARSE_ERROR, 1, 23, "unexpected 'a', expected BY");
  expect_error("select a, from t", ErrorCode::PARSE_ERROR, 1, 11, "expected expression, found 'from'");
  expect_error("select case when a then 1", ErrorCode::PARSE_ERROR, 1, 26);
  expect_error("select a from t join u", ErrorCode::PARSE_ERROR, 1, 23, "unexpected end of input, expected ON");
  expect_error("select a from t limit x", ErrorCode::PARSE_ERROR, 1, 23);
  expect_error("select 1 @", ErrorCode::PARSE_ERROR, 1, 10);
  expect_error("select a b c from t", ErrorCode::PARSE_ERROR, 1, 12);
  expect_error("select x in () from t", ErrorCode::PARSE_ERROR, 1, 14, "expected expression, found ')'");
  expect_error("select cast(x as) from t", ErrorCode::PARSE_ERROR, 1, 17);
  expect_error("select extract(foo from x)", ErrorCode::PARSE_ERROR, 1, 16);
  expect_error("select interval '1' fortnight", ErrorCode::PARSE_ERROR, 1, 21);
  expect_error("select interval 'abc' day", ErrorCode::PARSE_ERROR, 1, 17);
  expect_error("select 'abc", ErrorCode::PARSE_ERROR, 1, 8, "unterminated string literal");
  expect_error("select 1 /* open", ErrorCode::PARSE_ERROR, 1, 10, "unterminated block comment");
  expect_error("select 1 2", ErrorCode::PARSE_ERROR, 1, 10);
  expect_error("set x", ErrorCode::PARSE_ERROR, 1, 6);
  expect_error("set x = 1 2", ErrorCode::PARSE_ERROR, 1, 11);
  expect_error("explain set x = 1", ErrorCode::PARSE_ERROR, 1, 9);
  expect_error("select 1; selec 2", ErrorCode::PARSE_ERROR, 1, 11);
}

TEST(ParserErrorTest, ParseStatementWantsExactlyOneStatement) {
  try {
    parse_statement("select 1; select 2");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::PARSE_ERROR);
    EXPECT_EQ(e.pos().col, 11);
  }
  try {
    parse_statement("  ;  ");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::PARSE_ERROR);
  }
}

TEST(ParserErrorTest, RecognisedButUnsupportedSyntax) {
  struct Case {
    const char* sql;
    int col;
  } cases[] = {
      {"select a from t intersect select a from u", 17},
      {"select a from t except select a from u", 17},
      {"select sum(a) over (partition by b) from t", 15},
      {"select a from t join u using (a)", 24},
      {"select a from t natural join u", 17},
      {"select a from t where a like 'x!%' escape '!'", 36},
      {"with recursive r as (select 1) select * from r", 6},
      {"insert into t values (1)", 1},
      {"CREATE TABLE t (a int)", 1},
      {"select a from t where a > all (select b from u)", 27},
      {"select a::int from t", 9},
      {"select a from t group by rollup (a)", 26},
      {"select extract(hour from x)", 16},
      {"select interval '1' hour", 21},
      {"select distinct on (a) a from t", 17},
      {"select a from t fetch first 1 rows only", 17},
      {"select a from t where a ilike 'x'", 25},
      {"select a from t where a is true", 28},
      {"select (a, b) in (select 1, 2)", 10},
      {"select count(*) filter (where a) from t", 17},
      {"select * from s.t", 16},
      {"select timestamp '2020-01-01 00:00:00'", 8},
  };
  for (const Case& c : cases) expect_error(c.sql, ErrorCode::NOT_SUPPORTED, 1, c.col);
}

std::string chain(const std::string& term, const std::string& op, int terms) {
  std::string out = term;
  for (int i = 1; i < terms; ++i) out += op + term;
  return out;
}

TEST(ParserErrorTest, AFlatChainIsNotNesting) {
  // 9,999 terms were refused as "nested too deeply (more than 200 levels)".
  EXPECT_NO_THROW(parse_sql("select " + chain("1", "+", 9999)));
  EXPECT_NO_THROW(parse_sql("select " + chain("1", "+", kMaxChainedOperators + 1)));  // the limit counts operators
  EXPECT_NO_THROW(parse_sql("select * from t where " + chain("a = 1", " or ", 10000)));
  EXPECT_NO_THROW(parse_sql("select * from t where " + chain("a <> 1", " and ", 10000)));
  EXPECT_NO_THROW(parse_sql("select " + chain("'x'", " || ", 10000)));
  // Beyond it: a PARSE_ERROR that names the limit, at the operator that crossed it.
  Error e = parse_error("select " + chain("1", "+", kMaxChainedOperators + 2));
  EXPECT_EQ(e.code(), ErrorCode::PARSE_ERROR);
  EXPECT_EQ(e.message(),
            "expression too long: more than 10000 chained operators (such as a + b + ... or a OR b OR ...) in one "
            "expression");
  EXPECT_EQ(e.pos().col, 8 + 2 * kMaxChainedOperators + 1);
  EXPECT_EQ(parse_error("select " + chain("1", "+", 100000)).code(), ErrorCode::PARSE_ERROR);
  // Chains nested in chains add up along the path; side by side they do not.
  std::string nested = "select " + chain("1", "+", 6000) + " + (" + chain("1", "+", 6000) + ")";
  EXPECT_EQ(parse_error(nested).code(), ErrorCode::PARSE_ERROR);
  EXPECT_NO_THROW(parse_sql("select " + chain("1", "+", 6000) + ", " + chain("1", "+", 6000)));
  EXPECT_NO_THROW(parse_sql("select (" + chain("1", "+", 6000) + ") * (" + chain("1", "+", 3000) + ")"));
  // IN lists are flat: no limit.
  EXPECT_NO_THROW(parse_sql("select * from t where a in (" + chain("1", ",", 100000) + ")"));
}

TEST(ParserErrorTest, UnionAndJoinChainsHaveTheirOwnLimit) {
  EXPECT_NO_THROW(parse_sql(chain("select 1", " union all ", kMaxChainedRelations + 1)));
  Error u = parse_error(chain("select 1", " union all ", kMaxChainedRelations + 2));
  EXPECT_EQ(u.code(), ErrorCode::PARSE_ERROR);
  EXPECT_NE(u.message().find("more than 1000 chained UNIONs or joins"), std::string::npos) << u.message();
  auto joins = [](int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += " join u on 1 = 1";
    return out;
  };
  EXPECT_EQ(parse_error("select 1 from t" + joins(2000)).code(), ErrorCode::PARSE_ERROR);
  EXPECT_EQ(parse_error("select 1 from " + chain("t", ", ", 2000)).code(), ErrorCode::PARSE_ERROR);
  // A FROM list and the joins of its last item are one chain: 499 + 400 links pass, 499 + 600 do not.
  EXPECT_NO_THROW(parse_sql("select 1 from " + chain("t", ", ", 500) + joins(400)));
  EXPECT_EQ(parse_error("select 1 from " + chain("t", ", ", 500) + joins(600)).code(), ErrorCode::PARSE_ERROR);
}

TEST(ParserErrorTest, DeepNestingIsAnErrorNotACrash) {
  std::string parens = std::string(100000, '(') + "1" + std::string(100000, ')');
  EXPECT_EQ(parse_error("select " + parens).code(), ErrorCode::PARSE_ERROR);
  std::string minus(100000, '-');
  for (size_t i = 1; i < minus.size(); i += 2) minus[i] = ' ';
  EXPECT_EQ(parse_error("select " + minus + "1").code(), ErrorCode::PARSE_ERROR);
  std::string nots;
  for (int i = 0; i < 50000; ++i) nots += "not ";
  EXPECT_EQ(parse_error("select " + nots + "true").code(), ErrorCode::PARSE_ERROR);
  std::string subqueries;
  for (int i = 0; i < 5000; ++i) subqueries += "select * from (";
  EXPECT_EQ(parse_error(subqueries).code(), ErrorCode::PARSE_ERROR);
  std::string plus_chain = "select 1";
  for (int i = 0; i < 50000; ++i) plus_chain += " + 1";
  EXPECT_EQ(parse_error(plus_chain).code(), ErrorCode::PARSE_ERROR);
  // Moderate depth is fine.
  std::string ok = "select " + std::string(50, '(') + "1" + std::string(50, ')');
  for (int i = 0; i < 2000; ++i) ok += " + 1";
  EXPECT_NO_THROW(parse_sql(ok));
}

/// Every prefix of a query either parses or fails with PARSE_ERROR (a truncated query is never unsupported
/// syntax, never an internal error, never a crash).
void check_prefixes(const std::string& sql) {
  for (size_t n = 0; n <= sql.size(); ++n) {
    std::string prefix = sql.substr(0, n);
    try {
      parse_sql(prefix);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::PARSE_ERROR) << "prefix: " << prefix << "\n" << e.format();
      EXPECT_TRUE(e.pos().valid()) << "prefix: " << prefix;
    }
  }
}

TEST(ParserFuzzTest, EveryPrefixOfTheTpchQueriesParsesOrFailsCleanly) {
  for (const std::string& q : testing::tpch_queries()) check_prefixes(q);
  check_prefixes("with a (x) as (select 1) (select x from a order by x limit 1) union all select 2 offset 1");
  check_prefixes("set memory_limit = '256MB'; explain analyze select \"A\".* from t \"A\" -- c\n;");
}

TEST(ParserFuzzTest, RandomEditsNeverCrash) {
  std::mt19937 rng(12345);
  const auto& queries = testing::tpch_queries();
  const std::string alphabet = "()',;.*-+/%|=<>!\"abc01 \n\tSELECTFROMWHERE@?:";
  int errors = 0, parsed = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string sql = queries[rng() % queries.size()];
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits && !sql.empty(); ++k) {
      size_t at = rng() % sql.size();
      switch (rng() % 4) {
        case 0: sql.erase(at, 1 + rng() % 8); break;
        case 1: sql.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 2: sql[at] = alphabet[rng() % alphabet.size()]; break;
        case 3: {
          // Move a chunk of tokens elsewhere.
          size_t len = std::min<size_t>(1 + rng() % 20, sql.size() - at);
          std::string chunk = sql.substr(at, len);
          sql.erase(at, len);
          sql.insert(rng() % (sql.size() + 1), chunk);
          break;
        }
      }
    }
    try {
      auto stmts = parse_sql(sql);
      for (const auto& s : stmts) (void)to_string(*s);
      ++parsed;
    } catch (const Error& e) {
      EXPECT_NE(e.code(), ErrorCode::INTERNAL) << sql << "\n" << e.format();
      EXPECT_TRUE(e.pos().valid()) << sql << "\n" << e.format();
      ++errors;
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace hindsight::sql
