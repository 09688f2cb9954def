#pragma once
#include <memory>
#include <string>
#include <vector>

#include "planner/sql/ast.hpp"

namespace hindsight::sql {

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
