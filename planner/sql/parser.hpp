#pragma once
#include <memory>
#include <string>
#include <vector>

#include "planner/sql/ast.hpp"

namespace hindsight::sql {

/// Limits that keep every later stage (binder, rewrites, planning, signing, evaluation: all recursive over the
/// tree) well inside its stack and time. Nesting counts parentheses, subqueries, function calls, CASE, unary
/// operators. A chain (a + b + c, a OR b OR c; a UNION b UNION c; FROM a, b JOIN c) is not nesting, but its tree is
/// as deep as it is long, so the links chained on the way from a statement to any of its leaves are bounded
/// separately: expression operators, and the UNION members and FROM / JOIN inputs of queries (each becomes a plan
/// operator, and plans are costlier per level than expressions). Each is a PARSE_ERROR naming its limit. IN lists
/// and select lists are flat and not limited.
constexpr int kMaxNestingDepth = 200;
constexpr int kMaxChainedOperators = 10000;
constexpr int kMaxChainedRelations = 1000;

/// Parses a `;`-separated script. A trailing `;` is optional and empty statements are skipped. Node ids
/// restart at 0 for each statement. Throws hindsight::Error: PARSE_ERROR for a syntax error and
/// NOT_SUPPORTED for recognised but unsupported syntax, both with the 1-based line:col of the offending
/// token and a caret excerpt.
std::vector<StatementPtr> parse_sql(const std::string& sql);

/// Parses exactly one statement (an optional trailing `;` is allowed). An empty input or a second
/// statement is a PARSE_ERROR.
StatementPtr parse_statement(const std::string& sql);

/// Parses a single standalone expression (tests, tools). Node ids start at 0.
ExprPtr parse_expression(const std::string& sql);

}  // namespace hindsight::sql
