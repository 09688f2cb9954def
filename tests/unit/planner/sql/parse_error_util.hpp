#pragma once
// Expectations on parse errors, shared by the parser tests.
#include <gtest/gtest.h>

#include <string>

#include "planner/common/error.hpp"
#include "planner/sql/parser.hpp"

namespace hindsight::sql::testing {

/// Parses `sql` expecting an Error; returns it.
inline Error parse_error(const std::string& sql) {
  try {
    parse_sql(sql);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for: " << sql;
  return Error(ErrorCode::INTERNAL, "none");
}

/// Expects `sql` to fail with `code` at line:col (and `message`, if given) with a caret excerpt.
inline void expect_error(const std::string& sql, ErrorCode code, int line, int col, const std::string& message = {}) {
  SCOPED_TRACE(sql);
  Error e = parse_error(sql);
  EXPECT_EQ(e.code(), code) << e.format();
  EXPECT_EQ(e.pos().line, line) << e.format();
  EXPECT_EQ(e.pos().col, col) << e.format();
  if (!message.empty()) {
    EXPECT_EQ(e.message(), message);
  }
  EXPECT_NE(e.detail().find('^'), std::string::npos) << "no caret excerpt: " << e.format();
}

}  // namespace hindsight::sql::testing
