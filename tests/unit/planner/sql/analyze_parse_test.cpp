#include <gtest/gtest.h>

#include "planner/common/error.hpp"
#include "planner/sql/parser.hpp"
#include "tests/unit/planner/sql/parse_error_util.hpp"

namespace hindsight::sql {
namespace {

using testing::expect_error;
using testing::parse_error;

TEST(AnalyzeParseTest, WithAndWithoutATable) {
  auto all = parse_statement("ANALYZE");
  ASSERT_EQ(all->type, StatementType::Analyze);
  EXPECT_EQ(all->as<AnalyzeStatement>().table, "");
  EXPECT_EQ(all->id, 0);
  EXPECT_EQ(all->node_count, 1);
  EXPECT_EQ(all->span.line, 1);
  EXPECT_EQ(all->span.col, 1);
  EXPECT_EQ(all->span.end_col, 7);
  EXPECT_EQ(to_string(*all), "ANALYZE");

  auto one = parse_statement("  analyze LineItem;");
  const auto& a = one->as<AnalyzeStatement>();
  EXPECT_EQ(a.table, "lineitem");
  EXPECT_EQ(a.table_span.line, 1);
  EXPECT_EQ(a.table_span.col, 11);
  EXPECT_EQ(a.table_span.end_col, 18);
  EXPECT_EQ(one->span.col, 3);
  EXPECT_EQ(one->span.end_col, 18);
  EXPECT_EQ(one->text, "analyze LineItem");
  EXPECT_EQ(to_string(*one), "ANALYZE lineitem");

  auto quoted = parse_statement("ANALYSE \"Mixed Case\"");
  EXPECT_EQ(quoted->as<AnalyzeStatement>().table, "Mixed Case");
  EXPECT_EQ(to_string(*quoted), "ANALYZE \"Mixed Case\"");
}

TEST(AnalyzeParseTest, InScriptsWithOtherStatements) {
  auto stmts = parse_sql("set workers = 2;\nANALYZE;\n  analyze orders; select 1; EXPLAIN ANALYZE select 2");
  ASSERT_EQ(stmts.size(), 5u);
  EXPECT_EQ(stmts[1]->type, StatementType::Analyze);
  EXPECT_EQ(stmts[1]->as<AnalyzeStatement>().table, "");
  EXPECT_EQ(stmts[2]->as<AnalyzeStatement>().table, "orders");
  EXPECT_EQ(stmts[2]->span.line, 3);
  EXPECT_EQ(stmts[2]->as<AnalyzeStatement>().table_span.line, 3);
  EXPECT_EQ(stmts[2]->as<AnalyzeStatement>().table_span.col, 11);
  EXPECT_EQ(stmts[4]->type, StatementType::Explain);
  int visited = 0;
  for_each_node(*stmts[2], [&](const AstNode&) { ++visited; });
  EXPECT_EQ(visited, 1);
}

TEST(AnalyzeParseTest, ErrorsArePositioned) {
  expect_error("ANALYZE 5", ErrorCode::PARSE_ERROR, 1, 9,
               "unexpected '5', expected a table name or end of statement");
  expect_error("ANALYZE a b", ErrorCode::PARSE_ERROR, 1, 11);
  expect_error("select 1;\nANALYZE select", ErrorCode::PARSE_ERROR, 2, 9);
  expect_error("ANALYZE (t)", ErrorCode::PARSE_ERROR, 1, 9);
  expect_error("ANALYZE s.t", ErrorCode::NOT_SUPPORTED, 1, 10);
  expect_error("ANALYZ t", ErrorCode::PARSE_ERROR, 1, 1);
}

}  // namespace
}  // namespace hindsight::sql
