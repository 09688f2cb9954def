// All 22 TPC-H queries parse, print back to SQL that parses to the same tree, and carry dense node ids.
#include <gtest/gtest.h>

#include <algorithm>

#include "planner/sql/parser.hpp"
#include "tests/unit/planner/sql/tpch_queries.hpp"

namespace hindsight::sql {
namespace {

class ParserTpchTest : public ::testing::TestWithParam<int> {
 protected:
  const std::string& sql() const { return testing::tpch_queries()[GetParam() - 1]; }
};

TEST_P(ParserTpchTest, ParsesAndRoundTrips) {
  StatementPtr stmt = parse_statement(sql());
  ASSERT_EQ(stmt->type, StatementType::Select);
  std::string printed = to_string(*stmt);
  StatementPtr again = parse_statement(printed);
  EXPECT_EQ(to_string(*again), printed);
  EXPECT_EQ(again->node_count, stmt->node_count);
}

TEST_P(ParserTpchTest, NodeIdsAreDenseAndSpansAreInsideTheStatement) {
  StatementPtr stmt = parse_statement(sql());
  std::vector<int> ids;
  for_each_node(*stmt, [&](const AstNode& n) {
    ids.push_back(n.id);
    const SourceSpan& s = n.span;
    EXPECT_GE(s.line, 1);
    EXPECT_GE(s.col, 1);
    EXPECT_TRUE(s.end_line > s.line || (s.end_line == s.line && s.end_col >= s.col)) << "node " << n.id;
    EXPECT_TRUE(s.end_line < stmt->span.end_line ||
                (s.end_line == stmt->span.end_line && s.end_col <= stmt->span.end_col))
        << "node " << n.id;
  });
  ASSERT_EQ(static_cast<int>(ids.size()), stmt->node_count);
  std::sort(ids.begin(), ids.end());
  for (int i = 0; i < stmt->node_count; ++i) ASSERT_EQ(ids[i], i);
}

INSTANTIATE_TEST_SUITE_P(AllQueries, ParserTpchTest, ::testing::Range(1, 23),
                         [](const ::testing::TestParamInfo<int>& info) { return "Q" + std::to_string(info.param); });

/// Finds the first node of a given expression kind in pre-order.
template <class T>
const T* find_expr(const Statement& stmt) {
  const T* found = nullptr;
  for_each_node(stmt, [&](const AstNode& n) {
    if (found) return;
    if (const auto* e = dynamic_cast<const Expr*>(&n); e && e->is<T>()) found = &e->as<T>();
  });
  return found;
}

TEST(ParserTpchShapeTest, Q1GroupsAndOrders) {
  StatementPtr stmt = parse_statement(testing::tpch_queries()[0]);
  const Query& q = *stmt->as<SelectStatement>().query;
  const SelectCore& core = q.body->as<SelectCore>();
  EXPECT_EQ(core.select_list.size(), 10u);
  EXPECT_EQ(to_string(*core.select_list[4]->expr), "sum(l_extendedprice * (1 - l_discount))");
  EXPECT_EQ(core.select_list[9]->alias, "count_order");
  EXPECT_EQ(core.group_by.size(), 2u);
  EXPECT_EQ(q.order_by.size(), 2u);
  const auto* interval = find_expr<IntervalLiteral>(*stmt);
  ASSERT_NE(interval, nullptr);
  EXPECT_EQ(interval->value, "90");
  EXPECT_EQ(interval->unit, IntervalUnit::Day);
}

TEST(ParserTpchShapeTest, Q13DerivedTableWithColumnAliasesAndLeftJoin) {
  StatementPtr stmt = parse_statement(testing::tpch_queries()[12]);
  const auto& derived = stmt->as<SelectStatement>().query->body->as<SelectCore>().from[0]->as<DerivedTableRef>();
  EXPECT_EQ(derived.alias, "c_orders");
  EXPECT_EQ(derived.column_aliases, (std::vector<std::string>{"c_custkey", "c_count"}));
  const auto& join = derived.query->body->as<SelectCore>().from[0]->as<JoinRef>();
  EXPECT_EQ(join.join_type, JoinType::Left);
  EXPECT_EQ(join.condition->as<BinaryExpr>().right->as<LikeExpr>().negated, true);
}

TEST(ParserTpchShapeTest, Q15IsACommonTableExpression) {
  StatementPtr stmt = parse_statement(testing::tpch_queries()[14]);
  const Query& q = *stmt->as<SelectStatement>().query;
  ASSERT_EQ(q.with.size(), 1u);
  EXPECT_EQ(q.with[0]->name, "revenue0");
  EXPECT_EQ(q.with[0]->query->body->as<SelectCore>().select_list[1]->alias, "total_revenue");
  EXPECT_NE(find_expr<SubqueryExpr>(*stmt), nullptr);
}

TEST(ParserTpchShapeTest, Q21HasExistsAndNotExists) {
  StatementPtr stmt = parse_statement(testing::tpch_queries()[20]);
  int exists = 0, not_exists = 0;
  for_each_node(*stmt, [&](const AstNode& n) {
    if (const auto* e = dynamic_cast<const Expr*>(&n); e && e->is<ExistsExpr>())
      (e->as<ExistsExpr>().negated ? not_exists : exists)++;
  });
  EXPECT_EQ(exists, 1);
  EXPECT_EQ(not_exists, 1);
}

TEST(ParserTpchShapeTest, Q22SubstringIsNormalised) {
  StatementPtr stmt = parse_statement(testing::tpch_queries()[21]);
  std::vector<std::string> substrings;
  for_each_node(*stmt, [&](const AstNode& n) {
    const auto* e = dynamic_cast<const Expr*>(&n);
    if (e && e->is<FunctionCallExpr>() && e->as<FunctionCallExpr>().name == "substring")
      substrings.push_back(to_string(*e));
  });
  EXPECT_EQ(substrings, std::vector<std::string>(3, "substring(c_phone, 1, 2)"));
}

}  // namespace
}  // namespace hindsight::sql
